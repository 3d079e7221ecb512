// How each element type lives in kernels: its storage in buffers of 32-bit words and the GLSL
// type it computes in on a given target (DESIGN.md's element type table).
//
// Storage ("raw"): every buffer is bound as `uint[]`. 32-bit types take one word, 64-bit types
// two (low word first), complex<f64> four; 8- and 16-bit types are packed little-endian, four or
// two to a word; i1 and the sub-byte types (si2/si4/ui2/ui4, f4, f6) take one byte each. A buffer's
// bytes are then exactly ir::Literal's storage. In GLSL a raw value is a `uint` (zero-extended
// storage bits), `uvec2` or `uvec4`.
//
// Compute: i1 -> bool; integers of up to 32 bits -> int/uint holding the value (wrapped to the
// width after every op); 64-bit integers -> int64_t/uint64_t with shaderInt64, else emulated:
// uvec2(low word, high word), the storage form, computed on by hlo_i64.glsl's exact 32-bit
// arithmetic (`emulated`; the kind stays kInt64/kUint64); f32 -> float;
// f64 -> double (shaderFloat64); f16 -> float16_t with shaderFloat16, else float rounded back
// through the codec after every op; bf16, f8, f6, f4 -> float rounded back after every op;
// complex<f32>/complex<f64> -> vec2/dvec2.
//
// Data movement never needs the compute type: it moves raw values, so transposing an f64
// tensor works on a device without shaderFloat64.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "codegen/target.h"
#include "ir/element_type.h"

namespace vkhlo::codegen {

enum class ComputeKind : uint8_t {
  kBool,
  kInt,         // int, value sign-extended from `bits`
  kUint,        // uint, value zero-extended from `bits`
  kInt64,       // int64_t
  kUint64,      // uint64_t
  kFloat,       // float (f32)
  kDouble,      // double (f64)
  kHalf,        // float16_t (f16 on a device with shaderFloat16)
  kNarrowFloat, // float holding a value of a narrower format, rounded back after each op
  kComplex64,   // vec2
  kComplex128,  // dvec2
};

struct TypeFacts {
  ir::ElementType type = ir::ElementType::kF32;
  ComputeKind kind = ComputeKind::kFloat;
  int bits = 32;          // value bits (BitWidth)
  int storage_bits = 32;  // 8, 16, 32, 64 or 128
  std::string_view glsl;      // compute type: "float", "int", "uint64_t", "vec2", ...
  std::string_view raw_glsl;  // "uint", "uvec2" or "uvec4"
  std::string codec;          // narrow floats and emulated f16: the hlo_encode_/hlo_decode_ suffix
  // i64/ui64 on a target without shaderInt64: computed as uvec2 pairs (hlo_i64.glsl). Every op
  // generator branches on it; GLSL's operators on uvec2 are right only for ==, !=, &, |, ^, ~
  // and ?:, so nothing else may reach an emulated value.
  bool emulated = false;
};

// The facts of `type` on `target` (f16 computes natively only with shaderFloat16).
TypeFacts GetTypeFacts(ir::ElementType type, const TargetInfo& target);
// The same with every narrow float (f16 included, whatever shaderFloat16) held in a float and
// rounded through its codec: how the library kernels, which accumulate narrow floats in f32,
// load, round and store them.
TypeFacts GetFloatDomainFacts(ir::ElementType type, const TargetInfo& target);

// The feature computing in a type needs ("shaderFloat64", "shaderFloat16"), or "" for none
// (emulated 64-bit integers need none).
std::string_view RequiredFeature(const TypeFacts& facts);
bool TargetHas(const TargetInfo& target, std::string_view feature);

// Bytes a tensor of `num_elements` elements takes in a buffer (storage, not rounded to words).
uint64_t StorageByteSize(ir::ElementType type, int64_t num_elements);

// GLSL expressions converting between raw and compute form (`code` must be cheap to repeat:
// a variable or a literal).
std::string RawToCompute(const TypeFacts& facts, const std::string& code);
std::string ComputeToRaw(const TypeFacts& facts, const std::string& code);
// `code` (a compute value that may be out of the type's range or precision) wrapped or rounded
// to the type: integers wrap to their width, narrow floats round through the codec.
std::string RoundToType(const TypeFacts& facts, const std::string& code);
bool NeedsRounding(const TypeFacts& facts);

// A raw GLSL literal holding storage bits (low 64 bits in `lo`, the rest in `hi` for 128-bit).
std::string RawLiteral(int storage_bits, uint64_t lo, uint64_t hi = 0);
// GLSL literals.
std::string UintLiteral(uint64_t value);  // "5u"
std::string IntLiteral(int64_t value);    // "5", "(-5)", "(-2147483647 - 1)"

}  // namespace vkhlo::codegen
