// Compiling: the program JAX sends (format "mlir": a StableHLO portable artifact, or StableHLO
// text) is read by vkhlo's own reader, its signature taken, then compiled for the client's
// device; the compile options must ask for one device. Compiled programs are cached by their
// bytes (compile_cache.h). VKHLO_PJRT_DUMP_DIR, when set, receives each program compiled, as
// <name>.<digest>.mlirbc (or .mlir), for vkhlo-run / vkhlo-bench.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "frontend/bytecode/program.h"
#include "pjrt/compile_options.h"
#include "pjrt/entry_points.h"
#include "pjrt/errors.h"
#include "pjrt/objects.h"
#include "runtime/runtime_internal.h"
#include "support/env.h"
#include "verify/verifier.h"

namespace vkhlo::pjrt {
namespace {

constexpr std::string_view kDeviceMemoryKind = "device";

void DumpProgram(std::string_view code, const std::string& name, const std::string& digest) {
  std::optional<std::string> dir = GetEnv("VKHLO_PJRT_DUMP_DIR");
  if (!dir || dir->empty()) return;
  std::error_code error;
  std::filesystem::create_directories(*dir, error);
  const std::string extension = frontend::IsBytecode(code) ? "mlirbc" : "mlir";
  std::ofstream out(std::filesystem::path(*dir) / fmt::format("{}.{}.{}", name, digest.substr(0, 16), extension),
                    std::ios::binary);
  out.write(code.data(), static_cast<std::streamsize>(code.size()));  // best effort: a debugging aid
}

StatusOr<std::shared_ptr<const CompiledProgram>> CompileProgram(const PJRT_Client& client, std::string_view code,
                                                                 std::string digest) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseProgram(code));
  VKHLO_ASSIGN_OR_RETURN(ProgramSignature signature, ReadProgramSignature(*module));
  DumpProgram(code, signature.name, digest);
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  VKHLO_ASSIGN_OR_RETURN(Executable executable, runtime::CompileModule(*client.client, std::move(module)));
  auto program = std::make_shared<CompiledProgram>();
  program->executable = std::make_unique<Executable>(std::move(executable));
  for (const TensorType& result : signature.results) {
    program->output_dims.insert(program->output_dims.end(), result.dims.begin(), result.dims.end());
    program->output_dim_sizes.push_back(result.dims.size());
    program->output_memory_kinds.push_back(kDeviceMemoryKind.data());
    program->output_memory_kind_sizes.push_back(kDeviceMemoryKind.size());
  }
  program->signature = std::move(signature);
  program->fingerprint = std::move(digest);
  return std::shared_ptr<const CompiledProgram>(std::move(program));
}

Status RequireExecutable(const PJRT_Executable* executable, std::string_view function) {
  if (executable == nullptr || executable->program == nullptr) return RequireNonNull(nullptr, function, "executable");
  return OkStatus();
}

StatusOr<std::shared_ptr<const CompiledProgram>> LoadedProgram(const PJRT_LoadedExecutable* executable,
                                                               std::string_view function) {
  VKHLO_RETURN_IF_ERROR(RequireNonNull(executable, function, "executable"));
  std::shared_ptr<const CompiledProgram> program = executable->Program();
  if (program == nullptr) return FailedPreconditionError(fmt::format("{}: the executable has been deleted", function));
  return program;
}

}  // namespace

PJRT_Error* ClientCompile(PJRT_Client_Compile_Args* args) {
  constexpr std::string_view kFunction = "PJRT_Client_Compile";
  return Guard(kFunction, [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Client_Compile_Args, kFunction);
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->client, kFunction, "client"));
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->program, kFunction, "program"));
    const PJRT_Program& program = *args->program;
    const std::string_view format(program.format == nullptr ? "" : program.format, program.format_size);
    if (format != "mlir") {
      return UnimplementedError(fmt::format(
          "{}: program format '{}' is not supported: the vkhlo plugin compiles StableHLO (format 'mlir': a portable "
          "artifact or text)", kFunction, format));
    }
    if (program.code_size > 0) VKHLO_RETURN_IF_ERROR(RequireNonNull(program.code, kFunction, "program.code"));
    const std::string_view code(program.code == nullptr ? "" : program.code, program.code_size);
    if (args->compile_options_size > 0) VKHLO_RETURN_IF_ERROR(RequireNonNull(args->compile_options, kFunction, "compile_options"));
    const std::string_view options_bytes(args->compile_options == nullptr ? "" : args->compile_options,
                                         args->compile_options_size);
    VKHLO_ASSIGN_OR_RETURN(CompileOptions options,
                           ParseCompileOptions(std::span(reinterpret_cast<const uint8_t*>(options_bytes.data()), options_bytes.size())));
    VKHLO_RETURN_IF_ERROR(CheckRunnable(options));

    PJRT_Client& client = *args->client;
    std::string digest = ProgramDigest(code, options_bytes);
    std::shared_ptr<const CompiledProgram> compiled = client.compile_cache.Find(digest);
    if (compiled == nullptr) {
      VKHLO_ASSIGN_OR_RETURN(compiled, CompileProgram(client, code, digest));
      client.compile_cache.Insert(digest, compiled);
    }
    auto executable = std::make_unique<PJRT_LoadedExecutable>();
    executable->client = &client;
    executable->program = std::move(compiled);
    args->executable = executable.release();
    return OkStatus();
  });
}

PJRT_Error* ExecutableDestroy(PJRT_Executable_Destroy_Args* args) {
  return Guard("PJRT_Executable_Destroy", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Executable_Destroy_Args, "PJRT_Executable_Destroy");
    delete args->executable;
    return OkStatus();
  });
}

PJRT_Error* ExecutableName(PJRT_Executable_Name_Args* args) {
  return Guard("PJRT_Executable_Name", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Executable_Name_Args, "PJRT_Executable_Name");
    VKHLO_RETURN_IF_ERROR(RequireExecutable(args->executable, "PJRT_Executable_Name"));
    const std::string& name = args->executable->program->signature.name;
    args->executable_name = name.data();
    args->executable_name_size = name.size();
    return OkStatus();
  });
}

PJRT_Error* ExecutableNumReplicas(PJRT_Executable_NumReplicas_Args* args) {
  return Guard("PJRT_Executable_NumReplicas", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Executable_NumReplicas_Args, "PJRT_Executable_NumReplicas");
    VKHLO_RETURN_IF_ERROR(RequireExecutable(args->executable, "PJRT_Executable_NumReplicas"));
    args->num_replicas = 1;  // compile refuses anything else
    return OkStatus();
  });
}

PJRT_Error* ExecutableNumPartitions(PJRT_Executable_NumPartitions_Args* args) {
  return Guard("PJRT_Executable_NumPartitions", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Executable_NumPartitions_Args, "PJRT_Executable_NumPartitions");
    VKHLO_RETURN_IF_ERROR(RequireExecutable(args->executable, "PJRT_Executable_NumPartitions"));
    args->num_partitions = 1;
    return OkStatus();
  });
}

PJRT_Error* ExecutableNumOutputs(PJRT_Executable_NumOutputs_Args* args) {
  return Guard("PJRT_Executable_NumOutputs", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Executable_NumOutputs_Args, "PJRT_Executable_NumOutputs");
    VKHLO_RETURN_IF_ERROR(RequireExecutable(args->executable, "PJRT_Executable_NumOutputs"));
    args->num_outputs = args->executable->program->signature.results.size();
    return OkStatus();
  });
}

PJRT_Error* ExecutableOutputElementTypes(PJRT_Executable_OutputElementTypes_Args* args) {
  return Guard("PJRT_Executable_OutputElementTypes", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Executable_OutputElementTypes_Args, "PJRT_Executable_OutputElementTypes");
    VKHLO_RETURN_IF_ERROR(RequireExecutable(args->executable, "PJRT_Executable_OutputElementTypes"));
    const auto& types = args->executable->program->signature.result_element_types;
    // The C API hands out a non-const pointer; the caller only reads it.
    args->output_types = const_cast<PJRT_Buffer_Type*>(types.data());
    args->num_output_types = types.size();
    return OkStatus();
  });
}

PJRT_Error* ExecutableOutputDimensions(PJRT_Executable_OutputDimensions_Args* args) {
  return Guard("PJRT_Executable_OutputDimensions", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Executable_OutputDimensions_Args, "PJRT_Executable_OutputDimensions");
    VKHLO_RETURN_IF_ERROR(RequireExecutable(args->executable, "PJRT_Executable_OutputDimensions"));
    const CompiledProgram& program = *args->executable->program;
    args->num_outputs = program.output_dim_sizes.size();
    args->dims = program.output_dims.data();
    args->dim_sizes = program.output_dim_sizes.data();
    return OkStatus();
  });
}

PJRT_Error* ExecutableOutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args* args) {
  return Guard("PJRT_Executable_OutputMemoryKinds", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Executable_OutputMemoryKinds_Args, "PJRT_Executable_OutputMemoryKinds");
    VKHLO_RETURN_IF_ERROR(RequireExecutable(args->executable, "PJRT_Executable_OutputMemoryKinds"));
    const CompiledProgram& program = *args->executable->program;
    args->num_outputs = program.output_memory_kinds.size();
    args->memory_kinds = program.output_memory_kinds.data();
    args->memory_kind_sizes = program.output_memory_kind_sizes.data();
    return OkStatus();
  });
}

PJRT_Error* ExecutableFingerprint(PJRT_Executable_Fingerprint_Args* args) {
  return Guard("PJRT_Executable_Fingerprint", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Executable_Fingerprint_Args, "PJRT_Executable_Fingerprint");
    VKHLO_RETURN_IF_ERROR(RequireExecutable(args->executable, "PJRT_Executable_Fingerprint"));
    const std::string& fingerprint = args->executable->program->fingerprint;
    args->executable_fingerprint = fingerprint.data();
    args->executable_fingerprint_size = fingerprint.size();
    return OkStatus();
  });
}

PJRT_Error* LoadedExecutableDestroy(PJRT_LoadedExecutable_Destroy_Args* args) {
  return Guard("PJRT_LoadedExecutable_Destroy", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_LoadedExecutable_Destroy_Args, "PJRT_LoadedExecutable_Destroy");
    delete args->executable;  // queued executions hold the program
    return OkStatus();
  });
}

PJRT_Error* LoadedExecutableGetExecutable(PJRT_LoadedExecutable_GetExecutable_Args* args) {
  return Guard("PJRT_LoadedExecutable_GetExecutable", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_LoadedExecutable_GetExecutable_Args, "PJRT_LoadedExecutable_GetExecutable");
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledProgram> program,
                           LoadedProgram(args->loaded_executable, "PJRT_LoadedExecutable_GetExecutable"));
    args->executable = new PJRT_Executable{std::move(program)};
    return OkStatus();
  });
}

PJRT_Error* LoadedExecutableAddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args* args) {
  return Guard("PJRT_LoadedExecutable_AddressableDevices", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_LoadedExecutable_AddressableDevices_Args, "PJRT_LoadedExecutable_AddressableDevices");
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->executable, "PJRT_LoadedExecutable_AddressableDevices", "executable"));
    const std::vector<PJRT_Device*>& devices = args->executable->client->devices;
    args->addressable_devices = devices.data();
    args->num_addressable_devices = devices.size();
    return OkStatus();
  });
}

PJRT_Error* LoadedExecutableDelete(PJRT_LoadedExecutable_Delete_Args* args) {
  return Guard("PJRT_LoadedExecutable_Delete", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_LoadedExecutable_Delete_Args, "PJRT_LoadedExecutable_Delete");
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->executable, "PJRT_LoadedExecutable_Delete", "executable"));
    std::lock_guard<std::mutex> lock(args->executable->mutex);
    args->executable->program.reset();
    return OkStatus();
  });
}

PJRT_Error* LoadedExecutableIsDeleted(PJRT_LoadedExecutable_IsDeleted_Args* args) {
  return Guard("PJRT_LoadedExecutable_IsDeleted", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_LoadedExecutable_IsDeleted_Args, "PJRT_LoadedExecutable_IsDeleted");
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->executable, "PJRT_LoadedExecutable_IsDeleted", "executable"));
    args->is_deleted = args->executable->Program() == nullptr;
    return OkStatus();
  });
}

PJRT_Error* LoadedExecutableFingerprint(PJRT_LoadedExecutable_Fingerprint_Args* args) {
  return Guard("PJRT_LoadedExecutable_Fingerprint", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_LoadedExecutable_Fingerprint_Args, "PJRT_LoadedExecutable_Fingerprint");
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledProgram> program,
                           LoadedProgram(args->executable, "PJRT_LoadedExecutable_Fingerprint"));
    // The string lives in the program, which the executable keeps while not deleted.
    args->executable_fingerprint = program->fingerprint.data();
    args->executable_fingerprint_size = program->fingerprint.size();
    return OkStatus();
  });
}

}  // namespace vkhlo::pjrt
