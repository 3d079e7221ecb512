#include "interp/value.h"

namespace vkhlo::interp {

InterpValue InterpValue::Tensor(ir::Literal literal) {
  InterpValue v;
  v.literal_ = std::make_shared<const ir::Literal>(std::move(literal));
  return v;
}

InterpValue InterpValue::Tuple(std::vector<InterpValue> elements) {
  InterpValue v;
  v.tuple_ = std::make_shared<const std::vector<InterpValue>>(std::move(elements));
  return v;
}

ir::Type InterpValue::type() const {
  if (is_tensor()) return literal_->type();
  if (is_tuple()) {
    std::vector<ir::Type> types;
    for (const InterpValue& e : *tuple_) types.push_back(e.type());
    return ir::Type::Tuple(std::move(types));
  }
  return ir::Type::Token();
}

std::string InterpValue::ToString() const {
  if (is_tensor()) return "dense<" + literal_->ToString(/*allow_hex_blob=*/false) + "> : " + literal_->type().ToString();
  if (is_tuple()) {
    std::string s = "(";
    for (size_t i = 0; i < tuple_->size(); ++i) s += (i ? ", " : "") + (*tuple_)[i].ToString();
    return s + ")";
  }
  return "token";
}

}  // namespace vkhlo::interp
