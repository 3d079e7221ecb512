#include "runtime/ir_tensor_desc.h"

#include <string>

#include "builder/type_conversion.h"
#include "ir/element_type.h"

namespace vkhlo::runtime {

StatusOr<TensorDesc> DescOf(const ir::Type& type) {
  if (!type.is_tensor() || !type.is_static()) {
    return InvalidArgumentError("the runtime holds static tensors only, not " + type.ToString());
  }
  return TensorDesc{internal::FromElementType(type.element_type()), type.dims()};
}

ir::Type IrTypeOf(const TensorDesc& type) {
  return ir::Type::Tensor(*internal::ToElementType(type.element), type.dims);
}

uint64_t BufferBytes(const ir::Type& type) {
  const uint64_t bytes =
      static_cast<uint64_t>(ir::StorageBytes(type.element_type())) * static_cast<uint64_t>(type.num_elements());
  return (bytes + 3) / 4 * 4;
}

TensorType ToTensorType(const ir::Type& type) {
  return TensorType{std::string(ir::ElementTypeName(type.element_type())), type.dims()};
}

}  // namespace vkhlo::runtime
