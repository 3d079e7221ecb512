#include "pjrt/program_signature.h"

#include <fmt/format.h>

#include "ir/attribute.h"
#include "pjrt/element_types.h"

namespace vkhlo::pjrt {
namespace {

// A tensor type PJRT can name, or the error saying what the entry function has instead.
StatusOr<TensorType> PjrtTensor(const ir::Type& type, std::string_view what, PJRT_Buffer_Type& element) {
  if (type.is_token()) {
    return UnimplementedError(fmt::format(
        "{} is a token (JAX's ordered effects, e.g. io_callback(ordered=True)): not supported by the vkhlo plugin",
        what));
  }
  if (!type.is_tensor() || type.is_quantized()) {
    return UnimplementedError(fmt::format("{} has type {}, which the vkhlo plugin cannot pass as a PJRT buffer", what,
                                          type.ToString()));
  }
  TensorType tensor{std::string(ir::ElementTypeName(type.element_type())), type.dims()};
  std::optional<PJRT_Buffer_Type> pjrt = PjrtElementType(tensor.element_type);
  if (!pjrt) return UnimplementedError(fmt::format("{} has element type {}, which PJRT has no name for", what, tensor.element_type));
  element = *pjrt;
  return tensor;
}

void FlattenResult(const ir::Type& type, std::vector<ir::Type>& out) {
  if (type.is_tuple()) {
    for (const ir::Type& element : type.tuple_elements()) FlattenResult(element, out);
  } else {
    out.push_back(type);
  }
}

bool IsDonated(const std::vector<ir::NamedAttribute>& attributes) {
  if (ir::FindAttribute(attributes, "tf.aliasing_output") != nullptr) return true;
  const ir::Attribute* donor = ir::FindAttribute(attributes, "jax.buffer_donor");
  return donor != nullptr && donor->AsBool().value_or(false);
}

Status CheckSingleDevice(const ir::Module& module) {
  for (std::string_view name : {"mhlo.num_partitions", "mhlo.num_replicas"}) {
    const ir::Attribute* count = ir::FindAttribute(module.attributes(), name);
    if (count != nullptr && count->AsInt().value_or(1) > 1) {
      return UnimplementedError(fmt::format("the program has {} = {}; the vkhlo plugin runs a program on one device",
                                            name, *count->AsInt()));
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<ProgramSignature> ReadProgramSignature(const ir::Module& module, std::string_view entry) {
  VKHLO_RETURN_IF_ERROR(CheckSingleDevice(module));
  const ir::Function* function = module.FindFunction(entry);
  if (function == nullptr) return InvalidArgumentError(fmt::format("the program has no function @{}", entry));
  ProgramSignature signature;
  signature.name = module.name().empty() ? function->name() : module.name();
  const std::vector<ir::Type>& inputs = function->type().inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    PJRT_Buffer_Type element;
    VKHLO_ASSIGN_OR_RETURN(TensorType tensor, PjrtTensor(inputs[i], fmt::format("@{} parameter {}", entry, i), element));
    signature.parameters.push_back(std::move(tensor));
    signature.parameter_element_types.push_back(element);
    const bool has_attributes = i < function->arg_attributes().size();
    signature.donated.push_back(has_attributes && IsDonated(function->arg_attributes()[i]));
  }
  std::vector<ir::Type> results;
  for (const ir::Type& result : function->type().results) FlattenResult(result, results);
  for (size_t i = 0; i < results.size(); ++i) {
    PJRT_Buffer_Type element;
    VKHLO_ASSIGN_OR_RETURN(TensorType tensor, PjrtTensor(results[i], fmt::format("@{} result {}", entry, i), element));
    signature.results.push_back(std::move(tensor));
    signature.result_element_types.push_back(element);
  }
  return signature;
}

}  // namespace vkhlo::pjrt
