#include "tests/pjrt/pjrt_test_client.h"

#include <algorithm>

namespace vkhlo::pjrt::testing {

Status TakeError(const PJRT_Api* api, PJRT_Error* error) {
  if (error == nullptr) return OkStatus();
  PJRT_Error_Message_Args message{PJRT_Error_Message_Args_STRUCT_SIZE};
  message.error = error;
  api->PJRT_Error_Message(&message);
  PJRT_Error_GetCode_Args code{PJRT_Error_GetCode_Args_STRUCT_SIZE};
  code.error = error;
  PJRT_Error* code_error = api->PJRT_Error_GetCode(&code);
  Status status(code_error == nullptr ? static_cast<StatusCode>(code.code) : StatusCode::kUnknown,
                std::string(message.message, message.message_size));
  PJRT_Error_Destroy_Args destroy{PJRT_Error_Destroy_Args_STRUCT_SIZE};
  destroy.error = error;
  api->PJRT_Error_Destroy(&destroy);
  return status;
}

TestClient::~TestClient() {
  if (client_ == nullptr) return;
  PJRT_Client_Destroy_Args args{PJRT_Client_Destroy_Args_STRUCT_SIZE};
  args.client = client_;
  TakeError(api_, api_->PJRT_Client_Destroy(&args)).IgnoreError();
}

Status TestClient::Create(std::vector<PJRT_NamedValue> options) {
  PJRT_Client_Create_Args args{PJRT_Client_Create_Args_STRUCT_SIZE};
  args.create_options = options.data();
  args.num_options = options.size();
  VKHLO_RETURN_IF_ERROR(TakeError(api_, api_->PJRT_Client_Create(&args)));
  client_ = args.client;
  return OkStatus();
}

StatusOr<PJRT_LoadedExecutable*> TestClient::Compile(std::string_view code, std::string_view options) {
  std::string bytes(code);
  PJRT_Program program{PJRT_Program_STRUCT_SIZE};
  program.code = bytes.data();
  program.code_size = bytes.size();
  program.format = "mlir";
  program.format_size = 4;
  PJRT_Client_Compile_Args args{PJRT_Client_Compile_Args_STRUCT_SIZE};
  args.client = client_;
  args.program = &program;
  args.compile_options = options.data();
  args.compile_options_size = options.size();
  VKHLO_RETURN_IF_ERROR(TakeError(api_, api_->PJRT_Client_Compile(&args)));
  return args.executable;
}

StatusOr<PJRT_Buffer*> TestClient::Upload(const void* data, PJRT_Buffer_Type type, std::vector<int64_t> dims,
                                          std::vector<int64_t> byte_strides) {
  PJRT_Client_BufferFromHostBuffer_Args args{PJRT_Client_BufferFromHostBuffer_Args_STRUCT_SIZE};
  args.client = client_;
  args.data = data;
  args.type = type;
  args.dims = dims.data();
  args.num_dims = dims.size();
  args.byte_strides = byte_strides.empty() ? nullptr : byte_strides.data();
  args.num_byte_strides = byte_strides.size();
  args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
  VKHLO_RETURN_IF_ERROR(TakeError(api_, api_->PJRT_Client_BufferFromHostBuffer(&args)));
  VKHLO_RETURN_IF_ERROR(AwaitEvent(args.done_with_host_buffer));
  return args.buffer;
}

StatusOr<std::vector<PJRT_Buffer*>> TestClient::Execute(PJRT_LoadedExecutable* executable,
                                                        std::vector<PJRT_Buffer*> arguments, PJRT_Event** done,
                                                        std::vector<int64_t> non_donatable) {
  PJRT_LoadedExecutable_GetExecutable_Args get{PJRT_LoadedExecutable_GetExecutable_Args_STRUCT_SIZE};
  get.loaded_executable = executable;
  VKHLO_RETURN_IF_ERROR(TakeError(api_, api_->PJRT_LoadedExecutable_GetExecutable(&get)));
  PJRT_Executable_NumOutputs_Args count{PJRT_Executable_NumOutputs_Args_STRUCT_SIZE};
  count.executable = get.executable;
  Status status = TakeError(api_, api_->PJRT_Executable_NumOutputs(&count));
  PJRT_Executable_Destroy_Args destroy{PJRT_Executable_Destroy_Args_STRUCT_SIZE};
  destroy.executable = get.executable;
  TakeError(api_, api_->PJRT_Executable_Destroy(&destroy)).IgnoreError();
  VKHLO_RETURN_IF_ERROR(status);

  std::vector<PJRT_Buffer*> outputs(count.num_outputs, nullptr);
  PJRT_Buffer* const* argument_list = arguments.data();
  PJRT_Buffer** output_list = outputs.data();
  PJRT_ExecuteOptions options{PJRT_ExecuteOptions_STRUCT_SIZE};
  options.non_donatable_input_indices = non_donatable.data();
  options.num_non_donatable_input_indices = non_donatable.size();
  PJRT_LoadedExecutable_Execute_Args args{PJRT_LoadedExecutable_Execute_Args_STRUCT_SIZE};
  args.executable = executable;
  args.options = &options;
  args.argument_lists = &argument_list;
  args.num_devices = 1;
  args.num_args = arguments.size();
  args.output_lists = &output_list;
  args.device_complete_events = done;
  VKHLO_RETURN_IF_ERROR(TakeError(api_, api_->PJRT_LoadedExecutable_Execute(&args)));
  return outputs;
}

StatusOr<std::vector<uint8_t>> TestClient::Download(PJRT_Buffer* buffer, PJRT_Buffer_MemoryLayout* layout) {
  PJRT_Buffer_ToHostBuffer_Args args{PJRT_Buffer_ToHostBuffer_Args_STRUCT_SIZE};
  args.src = buffer;
  args.host_layout = layout;
  VKHLO_RETURN_IF_ERROR(TakeError(api_, api_->PJRT_Buffer_ToHostBuffer(&args)));  // the size
  std::vector<uint8_t> bytes(args.dst_size);
  args.dst = bytes.data();
  VKHLO_RETURN_IF_ERROR(TakeError(api_, api_->PJRT_Buffer_ToHostBuffer(&args)));
  VKHLO_RETURN_IF_ERROR(AwaitEvent(args.event));
  return bytes;
}

bool TestClient::IsDeleted(PJRT_Buffer* buffer) {
  PJRT_Buffer_IsDeleted_Args args{PJRT_Buffer_IsDeleted_Args_STRUCT_SIZE};
  args.buffer = buffer;
  return TakeError(api_, api_->PJRT_Buffer_IsDeleted(&args)).ok() && args.is_deleted;
}

Status TestClient::AwaitEvent(PJRT_Event* event) {
  PJRT_Event_Await_Args await{PJRT_Event_Await_Args_STRUCT_SIZE};
  await.event = event;
  Status status = TakeError(api_, api_->PJRT_Event_Await(&await));
  PJRT_Event_Destroy_Args destroy{PJRT_Event_Destroy_Args_STRUCT_SIZE};
  destroy.event = event;
  TakeError(api_, api_->PJRT_Event_Destroy(&destroy)).IgnoreError();
  return status;
}

void TestClient::Destroy(PJRT_Buffer* buffer) {
  PJRT_Buffer_Destroy_Args args{PJRT_Buffer_Destroy_Args_STRUCT_SIZE};
  args.buffer = buffer;
  TakeError(api_, api_->PJRT_Buffer_Destroy(&args)).IgnoreError();
}

void TestClient::Destroy(PJRT_LoadedExecutable* executable) {
  PJRT_LoadedExecutable_Destroy_Args args{PJRT_LoadedExecutable_Destroy_Args_STRUCT_SIZE};
  args.executable = executable;
  TakeError(api_, api_->PJRT_LoadedExecutable_Destroy(&args)).IgnoreError();
}

PJRT_NamedValue StringOption(const std::string& name, const std::string& value) {
  PJRT_NamedValue option{PJRT_NamedValue_STRUCT_SIZE};
  option.name = name.c_str();
  option.name_size = name.size();
  option.type = PJRT_NamedValue_kString;
  option.string_value = value.c_str();
  option.value_size = value.size();
  return option;
}

PJRT_NamedValue Int64Option(const std::string& name, int64_t value) {
  PJRT_NamedValue option{PJRT_NamedValue_STRUCT_SIZE};
  option.name = name.c_str();
  option.name_size = name.size();
  option.type = PJRT_NamedValue_kInt64;
  option.int64_value = value;
  option.value_size = 1;
  return option;
}

}  // namespace vkhlo::pjrt::testing
