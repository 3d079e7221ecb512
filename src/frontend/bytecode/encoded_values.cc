#include "frontend/bytecode/encoded_values.h"

#include <fmt/format.h>

#include <cstring>
#include <vector>

namespace vkhlo::frontend::bytecode {
namespace {

uint64_t Mask(uint64_t bits, int width) { return width >= 64 ? bits : bits & ((uint64_t{1} << width) - 1); }

// MLIR keeps a sub-byte integer's bits zero-extended; vkhlo's storage sign-extends si2/si4.
uint8_t SubByteStorage(uint8_t byte, ir::ElementType type) {
  const int width = ir::BitWidth(type);
  const uint8_t bits = static_cast<uint8_t>(Mask(byte, width));
  if (!ir::IsSignedInteger(type)) return bits;
  const uint8_t sign = static_cast<uint8_t>(1u << (width - 1));
  return static_cast<uint8_t>((bits ^ sign) - sign);
}

// MLIR keeps a tensor whose elements are all equal as one element (a splat), and prints it so:
// the literal does the same.
StatusOr<ir::Literal> MakeLiteral(const ir::Type& type, std::vector<uint8_t> bytes) {
  const int64_t n = type.num_elements();
  if (n == 0) return ir::Literal::FromBytes(type, {});
  const size_t width = static_cast<size_t>(ir::StorageBytes(type.element_type()));
  if (n > 1 && bytes.size() == width * static_cast<size_t>(n)) {
    bool all_equal = true;
    for (size_t offset = width; offset < bytes.size() && all_equal; offset += width) {
      all_equal = std::memcmp(bytes.data(), bytes.data() + offset, width) == 0;
    }
    if (all_equal) bytes.resize(width);
  }
  return ir::Literal::FromBytes(type, std::move(bytes));
}

StatusOr<ir::Literal> BooleanLiteral(const ir::Type& type, std::span<const uint8_t> raw) {
  const uint64_t n = static_cast<uint64_t>(type.num_elements());
  const uint64_t packed_size = (n + 7) / 8;
  std::vector<uint8_t> bytes;
  if (n > 0 && raw.size() == 1 && raw[0] == 0xFF) {
    bytes = {1};  // VHLO's all-true splat
  } else if (raw.size() == packed_size && raw.size() != n) {
    bytes.resize(n);
    for (uint64_t i = 0; i < n; ++i) bytes[i] = (raw[i / 8] >> (i % 8)) & 1;
  } else if (raw.size() == n || raw.size() == 1) {
    bytes.assign(raw.begin(), raw.end());
    for (uint8_t& b : bytes) b = b != 0;
  } else {
    return InvalidArgumentError(fmt::format("{} bytes of data for {}: expected {} (one byte per element), {} (bit-packed) "
                                            "or 1 (a splat)", raw.size(), type.ToString(), n, packed_size));
  }
  return MakeLiteral(type, std::move(bytes));
}

}  // namespace

StatusOr<uint64_t> ReadFixedWidthInt(ByteReader& reader, int width, std::string_view what) {
  if (width <= 8) {
    VKHLO_ASSIGN_OR_RETURN(uint8_t byte, reader.Byte(what));
    return Mask(byte, width);
  }
  if (width <= 64) {
    VKHLO_ASSIGN_OR_RETURN(int64_t value, reader.SignedVarInt(what));
    return Mask(static_cast<uint64_t>(value), width);
  }
  return UnimplementedError(fmt::format("byte {}: {} is a {}-bit integer; vkhlo reads integers of up to 64 bits",
                                        reader.offset(), what, width));
}

StatusOr<uint64_t> ReadFloatBits(ByteReader& reader, ir::ElementType type, std::string_view what) {
  return ReadFixedWidthInt(reader, ir::BitWidth(type), what);
}

StatusOr<ir::Literal> DenseLiteral(const ir::Type& type, std::span<const uint8_t> raw) {
  if (!type.is_tensor() || type.num_elements() < 0) {
    return InvalidArgumentError(fmt::format("dense data for {}, which is not a tensor type with a valid shape",
                                            type.ToString()));
  }
  const ir::ElementType element = type.element_type();
  if (element == ir::ElementType::kI1) return BooleanLiteral(type, raw);
  const uint64_t element_bytes = static_cast<uint64_t>(ir::StorageBytes(element));
  const uint64_t n = static_cast<uint64_t>(type.num_elements());
  if (raw.size() != element_bytes && (n > UINT64_MAX / element_bytes || raw.size() != n * element_bytes)) {
    return InvalidArgumentError(fmt::format("{} bytes of data for {}: expected {} ({} elements of {} bytes) or {} (a splat)",
                                            raw.size(), type.ToString(), n * element_bytes, n, element_bytes,
                                            element_bytes));
  }
  std::vector<uint8_t> bytes(raw.begin(), raw.end());
  if (ir::BitWidth(element) < 8) {
    for (uint8_t& b : bytes) b = SubByteStorage(b, element);
  }
  return MakeLiteral(type, std::move(bytes));
}

}  // namespace vkhlo::frontend::bytecode
