#include "verify/shape_assertion.h"

namespace vkhlo::verify {

bool IsShapeAssertion(const ir::Operation& op) {
  if (op.code() != ir::OpCode::kCustomCall) return false;
  const ir::Attribute* target = op.attribute("call_target_name");
  const std::string* name = target ? target->AsString() : nullptr;
  return name != nullptr && *name == "shape_assertion";
}

std::string ShapeAssertionMessage(const ir::Operation& op, std::span<const int64_t> values) {
  const ir::Attribute* attribute = op.attribute("error_message");
  const std::string* text = attribute ? attribute->AsString() : nullptr;
  if (text == nullptr) return "a shape assertion failed (it has no error_message)";
  std::string out;
  for (size_t i = 0; i < text->size(); ++i) {
    if ((*text)[i] == '{') {
      const size_t close = text->find('}', i);
      if (close != std::string::npos && close > i + 1 && close - i <= 4) {
        size_t index = 0;
        bool digits = true;
        for (size_t k = i + 1; k < close; ++k) {
          digits &= (*text)[k] >= '0' && (*text)[k] <= '9';
          if (digits) index = index * 10 + static_cast<size_t>((*text)[k] - '0');
        }
        if (digits && index < values.size()) {
          out += std::to_string(values[index]);
          i = close;
          continue;
        }
      }
    }
    out += (*text)[i];
  }
  return out;
}

}  // namespace vkhlo::verify
