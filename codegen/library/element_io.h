// How library kernels read and write tensor elements, in codegen's storage convention.
//
// Every tensor is bound as a `uint[]` buffer (codegen/elemental/types.h): 32-bit types take one
// word, 64-bit types two (low word first), complex<f64> four; 8- and 16-bit types are packed
// little-endian, four or two to a word; i1 and sub-byte types take one byte each. A buffer's
// bytes are exactly ir::Literal's storage.
//
// Matmul kernels accumulate in one of a few domains (AccKind): f32 for f32 and narrower floats
// (XLA's choice, and the interpreter's), f64, 32-bit integers with wraparound (exact for results
// of up to 32 bits whatever the operand widths: the low bits of a sum of products only depend on
// the low bits of its terms), 64-bit integers, booleans (OR of ANDs as a count), complex.
// On devices without shaderInt64, 64-bit integers are emulated (kI64Pair): a uvec2(low word,
// high word), the storage form, computed on with codegen/glsl/hlo_i64.glsl's exact 32-bit
// arithmetic (wrapping adds and low 64-bit products: bit-exact with the interpreter). No
// int64_t, uint64_t or GL_ARB_gpu_shader_int64 is ever emitted for it.
// Element loads convert to the domain; stores convert from it, rounding once to nearest even.
//
// Narrow floats are decoded and encoded with the GLSL library's hlo_decode_<fmt> /
// hlo_encode_<fmt> (codegen/glsl/hlo_float_codec.glsl) when vkhlo is built with it; without it
// only bf16 and f16 are available, through small exact integer codecs emitted here.
#pragma once

#include <string>

#include "codegen/shader_writer.h"
#include "codegen/target.h"
#include "ir/element_type.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen::library {

enum class AccKind { kF32, kF64, kI32, kI64, kI64Pair, kBool, kC64, kC128 };

std::string_view AccGlslType(AccKind kind);  // "float", "double", "int", "int64_t", "uvec2", "vec2", ...
std::string_view AccName(AccKind kind);      // "f32", "f64", "i32", "i64", "i64pair", "i1", "c64", "c128"
bool AccIsFloat(AccKind kind);               // f32 or f64 (fma applies)
int AccWords(AccKind kind);                  // 32-bit words an accumulator takes in scratch

// The accumulator of a product with result element type `result` (operands `lhs`, `rhs`), or an
// error naming the combination when the types cannot be multiplied together.
StatusOr<AccKind> AccumulatorFor(ir::ElementType lhs, ir::ElementType rhs, ir::ElementType result);

// The domain a value of `type` computes in on its own (the epilogue's arithmetic): f32 for f32
// and narrower floats, f64, i32 for integers of up to 32 bits, i64, i1, complex.
AccKind ComputeDomain(ir::ElementType type);
// The same on `target`: kI64 becomes kI64Pair where the target lacks shaderInt64.
AccKind ComputeDomain(ir::ElementType type, const TargetInfo& target);
// `kind` on `target` (kI64 -> kI64Pair without shaderInt64; others unchanged).
AccKind AccForTarget(AccKind kind, const TargetInfo& target);

// Bits one element takes in a buffer (8, 16, 32, 64 or 128).
int StorageBits(ir::ElementType type);

// The device features a kernel touching `type` in domain `acc` needs, or an error naming the op
// text `what` ("stablehlo.dot_general on tensor<4x4xf64>"), the feature and the device.
Status CheckTypeSupport(ir::ElementType type, AccKind acc, const TargetInfo& target, const std::string& what);

// Whether the GLSL library (hlo_float_codec.glsl) is built into this vkhlo.
bool HaveGlslLibrary();

// The GLSL a kernel needs beyond its body is collected by the shader writer's prelude
// (codegen/shader_writer.h); the loaders and storers below add to it.
using GlslPrelude = ShaderPrelude;

// A GLSL function `<ACC> <fn>(uint i)` reading element i of the `uint[]` buffer `buffer` of
// element type `type`, converted to `acc`. Adds what it needs to `prelude`. `emulate_i64`: a
// 64-bit integer element computes as a kI64Pair (the target lacks shaderInt64).
Status EmitElementLoader(const std::string& fn, const std::string& buffer, ir::ElementType type, AccKind acc,
                         GlslPrelude& prelude, std::string& out, bool emulate_i64 = false);

// A GLSL function `void <fn>(uint i, <domain> v)` writing `v` (in `ComputeDomain(type)`, or
// kI64Pair for 64-bit integers when `emulate_i64`) as element i of `buffer`. 8- and 16-bit
// elements share words with elements other invocations write, so they are merged with
// atomicAnd/atomicOr.
Status EmitElementStorer(const std::string& fn, const std::string& buffer, ir::ElementType type,
                         GlslPrelude& prelude, std::string& out, bool emulate_i64 = false);

// GLSL expression converting `code` of domain `from` to domain `to` (value conversion, as
// stablehlo.convert between the domains; int -> float rounds, complex <- real). Conversions of
// kI64Pair values need `prelude` (for hlo_i64.glsl and the convert library) and the
// signedness of the integer types involved (`from_unsigned`: a pair read as unsigned, as ui64
// converts to float; `to_unsigned`: a float converted into a ui64 pair saturates at 0 and 2^64).
StatusOr<std::string> ConvertDomain(const std::string& code, AccKind from, AccKind to, GlslPrelude* prelude = nullptr,
                                    bool from_unsigned = false, bool to_unsigned = false);

// GLSL expression rounding `code` (domain ComputeDomain(type)) to the values of `type`: narrow
// floats through their codec, integers narrower than 32 bits wrapped to their width, i1 to 0/1.
// Returns `code` unchanged where nothing needs doing. Adds codec helpers to `prelude`.
StatusOr<std::string> RoundToType(const std::string& code, ir::ElementType type, GlslPrelude& prelude);

}  // namespace vkhlo::codegen::library
