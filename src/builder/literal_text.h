// Text of literal elements, as Literal::ToString writes them (XLA's format).
#pragma once

#include <cstdint>
#include <string>

#include "vkhlo/primitive_type.h"

namespace vkhlo::internal {

// One element of `type` whose storage starts at `storage` (ByteWidth(type) bytes): "true",
// "-3", "1.5", "nan", "-inf", "(1, -2)". Floats use the shortest decimal text that reads back
// to the same value in their own format.
std::string ElementToString(PrimitiveType type, const uint8_t* storage);

// The storage bits of one element (zero-extended), little-endian.
uint64_t LoadBits(const uint8_t* storage, int bytes);

}  // namespace vkhlo::internal
