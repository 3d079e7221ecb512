// Numbers and tensor data as MLIR bytecode stores them inside attributes: integers of a known
// width (one raw byte up to 8 bits, a zigzag varint up to 64), floats as their bit pattern in
// such an integer, and DenseElementsAttr raw data (little-endian elements, one element for a
// splat, i1 bit-packed by VHLO), turned into vkhlo Literals.
#pragma once

#include <cstdint>
#include <span>

#include "frontend/bytecode/byte_reader.h"
#include "ir/literal.h"
#include "ir/type.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend::bytecode {

// An integer of `width` bits (1 to 64), as its two's-complement bits masked to the width.
StatusOr<uint64_t> ReadFixedWidthInt(ByteReader& reader, int width, std::string_view what);
// The bit pattern of a float of `type` (any float element type).
StatusOr<uint64_t> ReadFloatBits(ByteReader& reader, ir::ElementType type, std::string_view what);

// The elements of a dense tensor attribute of `type` from its raw data: one element (a splat)
// or all of them, each in the element type's storage width; i1 may also be bit-packed, or 0xFF
// for an all-true splat. Errors name the sizes found and expected.
StatusOr<ir::Literal> DenseLiteral(const ir::Type& type, std::span<const uint8_t> raw);

}  // namespace vkhlo::frontend::bytecode
