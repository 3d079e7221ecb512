// The narrow float conversions of vkhlo/types.h, through the IR's exact codecs.
#include "builder/type_conversion.h"
#include "ir/literal.h"
#include "vkhlo/types.h"

namespace vkhlo::internal {

uint64_t EncodeNarrowFloat(PrimitiveType type, double value) {
  const std::optional<ir::ElementType> element = ToElementType(type);
  if (!element || !ir::IsFloat(*element)) return 0;
  return ir::EncodeFloat(*element, value);
}

double DecodeNarrowFloat(PrimitiveType type, uint64_t bits) {
  const std::optional<ir::ElementType> element = ToElementType(type);
  if (!element || !ir::IsFloat(*element)) return 0.0;
  return ir::DecodeFloat(*element, bits);
}

}  // namespace vkhlo::internal
