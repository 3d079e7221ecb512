// Helpers shared by the library ops (dot, convolution, fft, linear algebra, batch norm), the
// random ops and the collectives: attribute reading, row-major index arithmetic, and whole-tensor
// conversion between Literals and vectors of double / complex<double> / int64 ("domains" in
// which the ops compute before rounding once to the result type).
#pragma once

#include <cmath>
#include <complex>
#include <initializer_list>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/op_attributes.h"
#include "ir/process_groups.h"
#include "interp/eval_context.h"
#include "ir/literal.h"
#include "ir/module.h"

namespace vkhlo::interp::lib {

using Complex = std::complex<double>;
using ComplexF = std::complex<float>;

// --- attributes ---

// AttrInt, AttrBool: ir/op_attributes.h (shared with the runtime and codegen).
using ir::AttrBool;
using ir::AttrInt;
// Integer list attribute (dense array, dense elements, array of ints); nullopt when absent.
std::optional<std::vector<int64_t>> AttrInts(const ir::Operation& op, std::string_view name);
// Enum attribute of `kind` ("#stablehlo<fft_type FFT>", or a plain string); nullopt when absent.
std::optional<std::string> AttrEnum(const ir::Operation& op, std::string_view name, std::string_view kind);
// The channel id: `channel_handle`'s handle, or a plain `channel_id` integer; 0 when absent.
inline int64_t ChannelId(const ir::Operation& op) { return ir::CollectiveChannelId(op); }

// --- shapes ---

using ir::RowMajorStrides;
int64_t Product(const std::vector<int64_t>& dims);
// Advances a row-major multi-index over `dims`; false once it wraps around.
bool NextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& dims);

// Offsets of every multi-index over `axes` of a tensor with `dims`/`strides`, enumerated in
// row-major order of `axes` as listed: offsets[i] = sum(index[j] * strides[axes[j]]).
std::vector<int64_t> OffsetTable(const std::vector<int64_t>& axes, const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& strides);

// --- domains ---

// How an op computes for an element type: i1 as booleans, integers in int64 with wraparound,
// floats in double, complex in complex<double>.
enum class Domain { kBool, kInt, kFloat, kComplex };
Domain DomainOf(ir::ElementType type);

// Floating-point arithmetic follows the spec: in the element type (products and sums each
// rounded), except that types narrower than f32 compute in f32 (as XLA does) and are rounded
// once at the end. UsesF64 says whether f64 / complex<f64> is involved (then double).
bool UsesF64(std::initializer_list<ir::ElementType> types);

std::vector<double> ToDoubles(const ir::Literal& literal);
std::vector<float> ToFloats(const ir::Literal& literal);
std::vector<ComplexF> ToComplexF(const ir::Literal& literal);
std::vector<Complex> ToComplex(const ir::Literal& literal);
std::vector<int64_t> ToInts(const ir::Literal& literal);  // floats truncate toward zero

// A literal of `type` from values, each rounded once (integers wrap to the width; i1 is v != 0;
// for a real result from complex values, the real part).
StatusOr<ir::Literal> FromDoubles(const ir::Type& type, const std::vector<double>& values);
StatusOr<ir::Literal> FromComplex(const ir::Type& type, const std::vector<Complex>& values);
StatusOr<ir::Literal> FromFloats(const ir::Type& type, const std::vector<float>& values);
StatusOr<ir::Literal> FromComplexF(const ir::Type& type, const std::vector<ComplexF>& values);
StatusOr<ir::Literal> FromInts(const ir::Type& type, const std::vector<int64_t>& values);

// acc + a * b in T's arithmetic: floats round the product and the sum (no fused multiply-add),
// complex products are (ar*br - ai*bi, ar*bi + ai*br), integers wrap modulo 2^64.
template <typename T>
inline T MulAdd(T acc, T a, T b) {
  const T product = a * b;
  return acc + product;
}
inline int64_t MulAdd(int64_t acc, int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
template <typename F>
inline std::complex<F> MulAdd(std::complex<F> acc, std::complex<F> a, std::complex<F> b) {
  const F rr = a.real() * b.real(), ii = a.imag() * b.imag(), ri = a.real() * b.imag(), ir = a.imag() * b.real();
  const F re = rr - ii, im = ri + ir;
  return {acc.real() + re, acc.imag() + im};
}

// acc + a * b rounded once (a fused multiply-add; f32 through double: the product is exact
// there). Complex and integer types fall back to MulAdd.
inline float FusedMulAdd(float acc, float a, float b) {
  return static_cast<float>(static_cast<double>(a) * static_cast<double>(b) + static_cast<double>(acc));
}
inline double FusedMulAdd(double acc, double a, double b) { return std::fma(a, b, acc); }
template <typename T>
inline T FusedMulAdd(T acc, T a, T b) { return MulAdd(acc, a, b); }

// The tensor operand `i` (an error naming the op when it is not a tensor or is quantized).
StatusOr<const ir::Literal*> TensorOperand(EvalContext& context, const ir::Operation& op,
                                           const InterpValues& operands, size_t i);
// The result type `i` of the op, which must be an unquantized tensor type.
StatusOr<ir::Type> TensorResultType(EvalContext& context, const ir::Operation& op, size_t i);

inline InterpValues One(ir::Literal literal) { return InterpValues{InterpValue::Tensor(std::move(literal))}; }

}  // namespace vkhlo::interp::lib
