// How library kernels read and write tensor elements, in codegen's storage convention.
//
// Storage, raw forms, codecs and rounding are the elemental layer's (codegen/elemental/types.h,
// TypeFacts): this file only maps each type's compute value to and from the accumulator
// domains of the library kernels. Narrow floats (f16 included) are held in a float and rounded
// through the GLSL library's codecs (GetFloatDomainFacts): the library accumulates them in f32.
//
// Matmul kernels accumulate in one of a few domains (AccKind): f32 for f32 and narrower floats
// (XLA's choice, and the interpreter's), f64, 32-bit integers with wraparound (exact for results
// of up to 32 bits whatever the operand widths: the low bits of a sum of products only depend on
// the low bits of its terms), 64-bit integers, booleans (OR of ANDs as a count), complex.
// On devices without shaderInt64, 64-bit integers are emulated (kI64Pair): a uvec2(low word,
// high word), the storage form, computed on with shaders/library/hlo_i64.glsl's exact 32-bit
// arithmetic (wrapping adds and low 64-bit products: bit-exact with the interpreter). No
// int64_t, uint64_t or GL_ARB_gpu_shader_int64 is ever emitted for it.
// Element loads convert to the domain; stores convert from it, rounding once to nearest even.
#pragma once

#include <string>

#include "codegen/elemental/types.h"
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

// The device features a kernel touching `type` in domain `acc` needs, or an error naming the op
// text `what` ("stablehlo.dot_general on tensor<4x4xf64>"), the feature and the device.
Status CheckTypeSupport(ir::ElementType type, AccKind acc, const TargetInfo& target, const std::string& what);

// The GLSL a kernel needs beyond its body is collected by the shader writer's prelude
// (codegen/shader_writer.h ShaderPrelude); the loaders and storers below add to it.

// The library facts of `type` on `target` (GetFloatDomainFacts).
TypeFacts LibraryFacts(ir::ElementType type, const TargetInfo& target);

// GLSL expression: the raw storage value `raw` (a uint, uvec2 or uvec4 expression, evaluated
// once) of an element of `type` as a value of accumulator domain `acc` (value conversion:
// unsigned types convert as unsigned). Adds what it needs to `prelude`.
StatusOr<std::string> RawToAcc(const std::string& raw, ir::ElementType type, AccKind acc, const TargetInfo& target,
                               ShaderPrelude& prelude);

// A GLSL function `<ACC> <fn>(uint i)` reading element i of the `uint[]` buffer `buffer` of
// element type `type`, converted to `acc`. Adds what it needs to `prelude`.
Status EmitElementLoader(const std::string& fn, const std::string& buffer, ir::ElementType type, AccKind acc,
                         const TargetInfo& target, ShaderPrelude& prelude, std::string& out);

// A GLSL function `void <fn>(uint i, <domain> v)` writing `v` (in `ComputeDomain(type, target)`)
// as element i of `buffer`. 8- and 16-bit elements share words with elements other
// invocations write, so they are merged with atomicAnd/atomicOr.
Status EmitElementStorer(const std::string& fn, const std::string& buffer, ir::ElementType type,
                         const TargetInfo& target, ShaderPrelude& prelude, std::string& out);

// GLSL expression converting `code` of domain `from` to domain `to` (value conversion, as
// stablehlo.convert between the domains; int -> float rounds, complex <- real). Conversions of
// kI64Pair values need `prelude` (for hlo_i64.glsl and the convert library) and the
// signedness of the integer types involved (`from_unsigned`: a pair read as unsigned, as ui64
// converts to float; `to_unsigned`: a float converted into a ui64 pair saturates at 0 and 2^64).
StatusOr<std::string> ConvertDomain(const std::string& code, AccKind from, AccKind to, ShaderPrelude* prelude = nullptr,
                                    bool from_unsigned = false, bool to_unsigned = false);

// GLSL expression rounding `code` (domain ComputeDomain(type, target)) to the values of `type`
// as the elemental layer does (types.h RoundToType: narrow floats through their codec,
// integers narrower than 32 bits wrapped to their width), i1 to 0/1. Returns `code` unchanged
// where nothing needs doing. Adds codec includes to `prelude`.
std::string RoundToType(const std::string& code, ir::ElementType type, const TargetInfo& target, ShaderPrelude& prelude);

}  // namespace vkhlo::codegen::library
