// Small pieces shared by the op generators: typed literals, helper-function templates, and
// reading operands in compute form.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>

#include "codegen/elemental/emitter.h"

namespace vkhlo::codegen {

// A uint that is 0 at run time but unknown to the driver's compiler: the w word of the workgroup
// base every kernel declares in its push constants (shaders/include/vkhlo_dispatch.glsl), which
// the device layer never sets. Float constants whose value a compiler could misuse in an
// algebraic identity (zeros, infinities, NaNs) are XORed with it.
inline constexpr const char* kOpaqueZero = "pc.vkhlo_workgroup_base.w";

// `value` as a literal of the compute type ("float(1)", "int64_t(-1)", "2u", "true").
std::string TypedLiteral(const TypeFacts& facts, int64_t value);

// `text` with every "$NAME" replaced (longest names first is the caller's business: use
// distinct names).
std::string Instantiate(std::string text, std::initializer_list<std::pair<std::string, std::string>> replacements);

// A helper function instantiated for one compute type: registers `text` (with $T replaced by
// the GLSL type and $S by a suffix naming it) under `name_$S`, and returns the function name.
std::string TypedHelper(ElementalEmitter& emitter, const std::string& name, const TypeFacts& facts,
                        const std::string& text);
// A short identifier for a compute type ("f32", "i64", "c64", ...).
std::string TypeSuffix(const TypeFacts& facts);

// The index at which to read operand `i` of an element-wise op that allows a rank-0 operand
// among tensor operands (clamp bounds, select's predicate): the scalar index for such an
// operand, else `index`.
Index OperandIndex(const ir::Operation& op, size_t i, const Index& index);

// Operand `i` at its element-wise index, in compute form.
StatusOr<Expr> ComputeOperand(ElementalEmitter& emitter, const ir::Operation& op, size_t i, const Index& index);

// Whether `kind` is a real float kind (float, double, half, narrow) / a complex one.
bool IsRealFloatKind(ComputeKind kind);
bool IsComplexKind(ComputeKind kind);
bool IsIntKind(ComputeKind kind);  // int, uint, int64, uint64
bool IsSignedKind(ComputeKind kind);

// The hlo_i64.glsl function `name` (e.g. "hlo_e64_div") for an emulated 64-bit integer of `f`'s
// kind: "_s" or "_u" appended when `by_sign`; includes the library.
std::string Emulated64(ElementalEmitter& emitter, const TypeFacts& f, const std::string& name, bool by_sign = false);

// The element type of the op's (first) result.
ir::ElementType ResultElementType(const ir::Operation& op);

// Whether the compute value `x` of a float or complex kind is a NaN (has a NaN part), tested on
// its bits: a driver may fold the isnan() built-in to false unless the shader declares
// SignedZeroInfNanPreserve. `x` is repeated: pass a variable or a literal.
std::string NanTestExpr(const TypeFacts& facts, const std::string& x);

// An f32 (or, with `from_double`, f64) compute expression rounded once to float16_t, through
// the codec on the bits: the float16_t() built-in rounds in a mode Vulkan leaves open unless the
// shader declares RoundingModeRTE.
std::string RoundToHalf(ElementalEmitter& emitter, const std::string& code, bool from_double = false);

// A library math function applied to a real value: evaluated in float for half (then rounded
// to half), in the type itself otherwise; narrow floats round back. `fn` is the hlo_* name.
StatusOr<Expr> RealLibraryCall(ElementalEmitter& emitter, const std::string& fn, const Expr& a,
                               const Expr* b = nullptr);

}  // namespace vkhlo::codegen
