// Compiling a stablehlo.custom_call: the target from the client's registry, the op's types
// against its declared signature, and for a kernel target its SPIR-V (spirv-val, entry point,
// bindings, push constants), its launch and its pipeline.
#include <fmt/format.h>

#include "codegen/glsl_compiler.h"
#include "device/spirv_reflect.h"
#include "runtime/custom_call.h"
#include "runtime/ir_tensor_desc.h"

namespace vkhlo::runtime {
namespace {

// Compile errors of one op: "<location>: error: custom_call @<target> <what>".
struct OpErrors {
  const std::string& location;
  const std::string& target;

  Status operator()(std::string_view what, StatusCode code = StatusCode::kInvalidArgument) const {
    return Status(code, fmt::format("{}: error: custom_call @{} {}", location, target, what));
  }
};

std::string Join(std::span<const TensorType> types) {
  std::string text;
  for (const TensorType& t : types) text += (text.empty() ? "" : ", ") + t.ToString();
  return "(" + text + ")";
}

// A kernel target: the module passes spirv-val, declares the entry point and exactly the
// operand + result bindings, and its launch fits the device.
Status CompileKernel(ClientState& client, const CustomCallKernel& kernel, std::span<const TensorType> operands,
                     std::span<const TensorType> results, const OpErrors& error, CompiledCustomCall& compiled) {
  if (kernel.result_types) {
    StatusOr<std::vector<TensorType>> expected = kernel.result_types(operands);
    if (!expected.ok()) return error(expected.status().message(), expected.status().code());
    if (!std::equal(expected->begin(), expected->end(), results.begin(), results.end())) {
      return error(fmt::format("produces {} for operands {}, but the op's results are {}", Join(*expected),
                               Join(operands), Join(results)));
    }
  }
  Status valid = codegen::ValidateSpirv(kernel.spirv, client.target.vulkan_api_minor);
  if (!valid.ok()) return error("has SPIR-V that fails spirv-val: " + valid.message());
  StatusOr<device::ShaderInterface> shader = device::ReflectComputeShader(kernel.spirv, {});
  if (!shader.ok()) return error("has an unusable SPIR-V module: " + shader.status().message());
  if (shader->entry_point != kernel.entry_point) {
    return error(fmt::format("names entry point '{}', but the module's compute entry point is '{}'",
                             kernel.entry_point, shader->entry_point));
  }
  const size_t expected_bindings = operands.size() + results.size();
  bool layout_ok = shader->bindings.size() == expected_bindings;
  for (size_t i = 0; layout_ok && i < shader->bindings.size(); ++i) {
    const device::ShaderBinding& b = shader->bindings[i];
    // Custom kernels get plain storage buffers: texel views would need the caller to know
    // formats and alignment rules that the custom-call interface does not carry.
    layout_ok = b.set == 0 && b.binding == i && b.kind == device::BindingKind::kStorageBuffer;
  }
  if (!layout_ok) {
    std::string found;
    for (const device::ShaderBinding& b : shader->bindings) {
      found += fmt::format("{}(set {}, binding {}{})", found.empty() ? "" : ", ", b.set, b.binding,
                           b.kind == device::BindingKind::kStorageBuffer
                               ? ""
                               : fmt::format(", {}", device::BindingKindName(b.kind)));
    }
    return error(fmt::format("binds {} operands then {} results as storage buffers at set 0, bindings 0..{}; its "
                             "kernel declares [{}]", operands.size(), results.size(),
                             static_cast<int64_t>(expected_bindings) - 1, found));
  }
  StatusOr<CustomCallLaunch> launch = kernel.launch(CustomCallTypes{operands, results});
  if (!launch.ok()) return error(launch.status().message(), launch.status().code());
  const uint32_t push_bytes = static_cast<uint32_t>(launch->push_constants.size() * 4);
  if (push_bytes != (shader->push_constant_bytes + 3) / 4 * 4) {
    return error(fmt::format("launches with {} bytes of push constants; its kernel declares {}", push_bytes,
                             shader->push_constant_bytes));
  }
  for (int d = 0; d < 3; ++d) {
    if (launch->workgroups[d] > client.target.max_workgroup_count[d]) {
      return error(fmt::format("launches {}x{}x{} workgroups, more than the device's maxComputeWorkGroupCount = "
                               "{}x{}x{}", launch->workgroups[0], launch->workgroups[1], launch->workgroups[2],
                               client.target.max_workgroup_count[0], client.target.max_workgroup_count[1],
                               client.target.max_workgroup_count[2]),
                   StatusCode::kResourceExhausted);
    }
  }
  for (const auto& types : {operands, results}) {
    for (const TensorType& t : types) {
      VKHLO_ASSIGN_OR_RETURN(TensorDesc type, DescOf(t));
      if (BufferBytes(type) > client.target.max_storage_buffer_range) {
        // Generated kernels reach such tensors by device address (codegen/big_bindings.h); a
        // custom call's SPIR-V is the caller's and binds every tensor through a descriptor.
        return error(fmt::format("binds {} ({} bytes), more than the device's maxStorageBufferRange = {} (custom-call "
                                 "kernels bind tensors through descriptors, never by device address)",
                                 t.ToString(), BufferBytes(type), client.target.max_storage_buffer_range),
                     StatusCode::kResourceExhausted);
      }
    }
  }
  device::ComputePipelineDesc desc;
  desc.name = "custom_call." + compiled.target->name;
  desc.spirv = kernel.spirv;
  StatusOr<std::shared_ptr<const device::Pipeline>> pipeline = client.device->pipelines().GetOrCreate(desc);
  if (!pipeline.ok()) return error(pipeline.status().message(), pipeline.status().code());
  compiled.pipeline = std::move(*pipeline);
  compiled.launch = std::move(*launch);
  return OkStatus();
}

}  // namespace

StatusOr<std::shared_ptr<const CompiledCustomCall>> CompileCustomCall(ClientState& client, const ir::Operation& op,
                                                                      const std::string& location) {
  const ir::Attribute* name_attribute = op.attribute("call_target_name");
  const std::string* name = name_attribute ? name_attribute->AsString() : nullptr;
  if (name == nullptr) return InvalidArgumentError(fmt::format("{}: error: custom_call without a call_target_name", location));
  const OpErrors error{location, *name};
  auto compiled = std::make_shared<CompiledCustomCall>();
  compiled->target = client.custom_calls.Find(*name);
  if (compiled->target == nullptr) {
    if (name->starts_with("check.")) {
      return InvalidArgumentError(fmt::format(
          "{}: error: custom_call @{} is a test op; `vkhlo-run --check` evaluates it on the host", location, *name));
    }
    return NotFoundError(fmt::format("{}: error: custom_call target @{} is not registered with this client", location, *name));
  }
  compiled->location = location;
  if (const ir::Attribute* config = op.attribute("backend_config")) {
    compiled->backend_config = config->AsString() ? *config->AsString() : config->ToString();
  }
  if (const ir::Attribute* version = op.attribute("api_version")) compiled->api_version = version->AsInt().value_or(1);
  if (const ir::Attribute* effect = op.attribute("has_side_effect")) {
    compiled->has_side_effect = effect->AsBool().value_or(false);
  }
  if (op.num_regions() != 0 || op.attribute("called_computations") != nullptr) {
    const ir::Attribute* called = op.attribute("called_computations");
    const auto* list = called ? called->as<ir::Attribute::Array>() : nullptr;
    if (list == nullptr || !list->empty()) return error("has called_computations, which the Vulkan backend does not pass to targets", StatusCode::kUnimplemented);
  }
  if (op.attribute("output_operand_aliases") != nullptr) {
    const auto* list = op.attribute("output_operand_aliases")->as<ir::Attribute::Array>();
    if (list == nullptr || !list->empty()) return error("has output_operand_aliases, which the Vulkan backend does not support (results are new buffers)", StatusCode::kUnimplemented);
  }
  std::vector<TensorType> operands, results;
  auto collect = [&](const ir::Value* v, std::vector<TensorType>& out, std::string_view what, size_t i) -> Status {
    const ir::Type& t = v->type();
    if (!t.is_tensor() || t.is_quantized()) {
      return error(fmt::format("{} {} is {}: the Vulkan backend passes only tensors of plain element types to custom "
                               "call targets (tuple results: give the op one result per element)",
                               what, i, t.ToString()),
                   StatusCode::kUnimplemented);
    }
    out.push_back(ToTensorType(t));
    return OkStatus();
  };
  for (size_t i = 0; i < op.num_operands(); ++i) VKHLO_RETURN_IF_ERROR(collect(op.operand(i), operands, "operand", i));
  for (size_t i = 0; i < op.num_results(); ++i) VKHLO_RETURN_IF_ERROR(collect(op.result(i), results, "result", i));
  if (const CustomCallKernel* kernel = compiled->kernel()) {
    if (kernel->signature) VKHLO_RETURN_IF_ERROR(CheckCustomCallSignature(*kernel->signature, operands, results, location, *name));
    VKHLO_RETURN_IF_ERROR(CompileKernel(client, *kernel, operands, results, error, *compiled));
  } else if (const CustomCallHostCallback* host = compiled->host()) {
    if (host->signature) VKHLO_RETURN_IF_ERROR(CheckCustomCallSignature(*host->signature, operands, results, location, *name));
  }
  return std::shared_ptr<const CompiledCustomCall>(std::move(compiled));
}

}  // namespace vkhlo::runtime
