// Literal: a host tensor — a type plus its elements in row-major order.
//
// Storage: every element takes StorageBytes(type) bytes, little-endian:
//   i1            one byte, 0 or 1
//   si2/si4       one byte, sign-extended;   ui2/ui4  one byte, zero-extended
//   si8..si64, ui8..ui64   their natural width (two's complement)
//   f4/f6/f8      one byte holding the bit pattern in its low bits
//   bf16, f16     two bytes of bit pattern;  f32, f64  IEEE bit patterns
//   complex<f32>  two f32 (real, imaginary); complex<f64>  two f64
// Quantized tensors store their storage type's elements.
//
// A splat (all elements equal) is stored as one element, so `dense<0.0> : tensor<1000000000xf32>`
// costs four bytes; raw() then has one element and is_splat() is true. Expand() materializes it
// (failing cleanly when it would not fit in memory).
//
// Text: ToString() writes the body of an MLIR `dense<...>` attribute so that parsing it back
// gives bit-identical elements for every type (NaN payloads, -0, subnormals, f8 specials).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ir/type.h"
#include "vkhlo/status.h"

namespace vkhlo::ir {

class Literal {
 public:
  Literal() = default;

  // A literal of `type` (a tensor type) with every element zero. Fails (RESOURCE_EXHAUSTED) if
  // the elements cannot be allocated, (INVALID_ARGUMENT) if the type is not a tensor or its
  // element count overflows.
  static StatusOr<Literal> Create(const Type& type);
  // A splat literal holding one element's storage bytes (StorageBytes(type) bytes).
  static StatusOr<Literal> CreateSplat(const Type& type, std::span<const uint8_t> element);
  // A literal from storage bytes (num_elements * StorageBytes bytes, or one element = splat).
  static StatusOr<Literal> FromBytes(const Type& type, std::vector<uint8_t> bytes);

  const Type& type() const { return type_; }
  ElementType element_type() const { return type_.element_type(); }
  int64_t num_elements() const { return type_.num_elements(); }
  bool is_splat() const { return splat_; }

  // The storage (one element when is_splat()).
  std::span<const uint8_t> raw() const { return {bytes_.data(), bytes_.size()}; }
  // Mutable storage of all elements (expands a splat first).
  StatusOr<std::span<uint8_t>> mutable_raw();
  Status Expand();

  // Element access by linear (row-major) index, in wide types. Reads work on splats.
  uint64_t GetBits(int64_t index) const;    // raw storage bits, zero-extended
  int64_t GetInt(int64_t index) const;      // integers and i1 (sign/zero-extended per type)
  double GetFloat(int64_t index) const;     // any float type, decoded exactly
  std::complex<double> GetComplex(int64_t index) const;
  // Writes (the literal must not be a splat: call Expand first).
  void SetBits(int64_t index, uint64_t bits);
  void SetInt(int64_t index, int64_t value);   // wraps to the type's width
  void SetFloat(int64_t index, double value);  // rounds to nearest even for narrow types
  void SetComplex(int64_t index, std::complex<double> value);

  // The body of a `dense<...>` attribute: "[[1, 2], [3, 4]]", "1.000000e+00" for splats,
  // "(1.0, -2.0)" complex elements, hex ("0x7FC00001") for non-canonical floats. Large literals
  // use the `"0x..."` hex-blob form when `allow_hex_blob` is true.
  std::string ToString(bool allow_hex_blob = true) const;

  // Bitwise equality of type and elements (a splat equals its expansion).
  bool operator==(const Literal& other) const;

 private:
  Type type_;
  bool splat_ = false;
  std::vector<uint8_t> bytes_;
};

// Text of one scalar element given its storage bits, as it appears inside dense<...> and in
// scalar attributes: "true", "-3", "18446744073709551615", "1.5", "-0.0", "0x7FC00001" (a
// float written as its bit pattern: NaN, and any value whose decimal form would not read back
// exactly). Not for complex types (write their two parts).
std::string FormatScalar(ElementType type, uint64_t bits);

// Exact conversions between a float format's bit pattern and double (see FloatFormat).
double DecodeFloat(ElementType type, uint64_t bits);
// Rounds to nearest, ties to even; overflow gives infinity (or NaN for formats without
// infinity... as the format defines), NaN stays NaN.
uint64_t EncodeFloat(ElementType type, double value);

}  // namespace vkhlo::ir
