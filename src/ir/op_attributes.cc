#include "ir/op_attributes.h"

namespace vkhlo::ir {

std::optional<int64_t> AttrInt(const Operation& op, std::string_view name) {
  const Attribute* a = op.attribute(name);
  if (a == nullptr) return std::nullopt;
  if (auto v = a->AsInt()) return v;
  if (auto v = a->AsI64Vector(); v && v->size() == 1) return (*v)[0];
  return std::nullopt;
}

bool AttrBool(const Operation& op, std::string_view name, bool fallback) {
  const Attribute* a = op.attribute(name);
  if (a == nullptr) return fallback;
  if (a->is_unit()) return true;
  if (auto b = a->AsBool()) return *b;
  if (auto i = a->AsInt()) return *i != 0;
  if (const Literal* l = a->AsDenseElements(); l && l->num_elements() == 1) return l->GetInt(0) != 0;
  return fallback;
}

std::vector<int64_t> AttrInts(const Operation& op, std::string_view name) {
  const Attribute* a = op.attribute(name);
  if (a == nullptr) return {};
  return a->AsI64Vector().value_or(std::vector<int64_t>{});
}

}  // namespace vkhlo::ir
