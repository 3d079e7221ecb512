// IR literals in and out of device buffers (runtime_internal.h), for vkhlo's tools and tests,
// which work with the IR; the public API moves vkhlo::Literals without it (client_api.cc).
#include "ir/literal.h"
#include "runtime/ir_tensor_desc.h"
#include "runtime/runtime_internal.h"

namespace vkhlo::runtime {

StatusOr<Buffer> BufferFromLiteral(const Client& client, const ir::Literal& literal) {
  ir::Literal expanded = literal;
  VKHLO_RETURN_IF_ERROR(expanded.Expand());
  return client.BufferFromHost(ToTensorType(literal.type()), expanded.raw());
}

StatusOr<ir::Literal> BufferToLiteral(const Buffer& buffer) {
  if (!buffer) return InvalidArgumentError("an empty Buffer");
  VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, buffer.ToHost());
  const ir::Type type = IrTypeOf(buffer.state()->type);
  if (type.num_elements() == 0) return ir::Literal::Create(type);
  return ir::Literal::FromBytes(type, std::move(bytes));
}

}  // namespace vkhlo::runtime
