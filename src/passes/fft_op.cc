#include "passes/fft_op.h"

namespace vkhlo::passes {

std::optional<FftOp> ReadFftOp(const ir::Operation& op) {
  if (op.code() != ir::OpCode::kFft || op.num_operands() != 1 || op.num_results() != 1) return std::nullopt;
  const ir::Attribute* type_attribute = op.attribute("fft_type");
  const ir::Attribute* length_attribute = op.attribute("fft_length");
  if (type_attribute == nullptr || length_attribute == nullptr) return std::nullopt;
  std::optional<std::string> kind = type_attribute->AsEnum("fft_type");
  if (!kind) {
    if (auto* e = type_attribute->as<ir::EnumValue>()) kind = e->value;
  }
  std::optional<std::vector<int64_t>> lengths = length_attribute->AsI64Vector();
  const ir::Type& in = op.operand(0)->type();
  const ir::Type& out = op.result(0)->type();
  if (!kind || !lengths || lengths->empty() || !in.is_tensor() || !out.is_tensor() ||
      static_cast<int64_t>(lengths->size()) > in.rank() || in.num_elements() == 0 || out.num_elements() == 0) {
    return std::nullopt;
  }
  return FftOp{std::move(*kind), std::move(*lengths)};
}

}  // namespace vkhlo::passes
