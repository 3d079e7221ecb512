// split-large-ffts: a stablehlo.fft whose single transform is larger than a device binding holds
// becomes smaller transforms that do fit.
//
// The device FFT (VkFFT) binds each side of a launch through one descriptor, and splits a batch
// that does not fit between launches (device/fft/fft_split.h); one transform beyond the range
// would need VkFFT's multi-buffer layout, which vkhlo does not use. So the transform is taken
// apart in the program, where every piece is an op the device runs on big tensors already:
//
// - Several transformed axes: one-dimensional transforms along each axis in turn (the axis
//   transposed last and back; canonicalize merges the transposes between neighbours). RFFT
//   transforms the last axis first (to complex), IRFFT last (to real), as numpy's rfftn/irfftn.
// - One axis of length L = N1 * N2 too long (the four-step / Cooley-Tukey split): with
//   n = N2 n1 + n2 and k = k1 + N1 k2,
//     X[k1 + N1 k2] = sum_n2 w_L^(n2 k1) w_N2^(n2 k2) sum_n1 x[N2 n1 + n2] w_N1^(n1 k1)
//   so: reshape to [N1, N2], transpose, N2 x FFT_N1, multiply by the twiddles w_L^(n2 k1),
//   transpose, N1 x FFT_N2, transpose, reshape. An inverse uses IFFTs (whose 1/N1 and 1/N2 make
//   1/L) and conjugate twiddles. N1 is the divisor of L nearest below sqrt(L); a piece that is
//   still too long splits again.
// - A prime L too long (beyond 7): Bluestein's chirp-z form, a cyclic convolution of a 7-smooth
//   length M >= 2L - 1 by transforms of length M (which the four-step split takes apart) with
//   the chirp w_2L^(j^2) computed on the device as a product of small tables (exponents reduced
//   mod 2L exactly, in 64-bit integers). Three transforms of about twice the length, so several
//   times the cost of a composite length. Primes up to 2^30.
// - RFFT along a too-long axis: the real input as complex, the full FFT, the first L/2 + 1
//   outputs. IRFFT: the Hermitian completion X[L - k] = conj(X[k]), the complex IFFT, its real
//   part (the imaginary parts of the DC and Nyquist terms drop out, as the spec has it).
// - A real innermost length of 1 beyond the limit (whose conversion kernel binds whole tensors):
//   RFFT of length 1 is a convert to complex, IRFFT of length 1 a real part.
//
// Twiddles are computed on the device from iotas (two small grids whose product each element
// takes: MultiplyByTwiddles), exactly reduced: m = n2 k1 < L, the quadrant
// q = floor(4m / L) and rho = 4m - qL in integers, then a = min(rho, L - rho) <= L/2 and the angle
// (pi / 2L) a in [0, pi/4] in the part type, whose cosine and sine are swapped and signed by the
// half and the quadrant. The angle's relative error is a few ulps, so the twiddle's is too, as
// for a table rounded once; exact at multiples of a quarter turn.
//
// `max_transform_bytes` is what one transform's input, output or complex scratch may take (the
// compile passes the device's range less the windows' alignment slack); 0 splits every
// transform of a composite length (the pass tests use it).
#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <numbers>
#include <optional>
#include <string>

#include "passes/fft_op.h"
#include "passes/passes.h"
#include "passes/rewrite_driver.h"
#include "verify/verifier.h"

namespace vkhlo::passes {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Value;

struct FftShape {
  std::string kind;  // FFT, IFFT, RFFT, IRFFT
  std::vector<int64_t> lengths;
  ElementType complex_type;
  ElementType real_type;
};

std::optional<FftShape> ReadFft(const ir::Operation& op) {
  std::optional<FftOp> fft = ReadFftOp(op);
  if (!fft) return std::nullopt;
  const ir::Type& in = op.operand(0)->type();
  const ir::Type& out = op.result(0)->type();
  if (!in.is_static() || !out.is_static()) return std::nullopt;
  for (int64_t n : fft->lengths) {
    if (n < 1) return std::nullopt;
  }
  const std::string& kind = fft->kind;
  if (kind != "FFT" && kind != "IFFT" && kind != "RFFT" && kind != "IRFFT") return std::nullopt;
  const ElementType complex_type = kind == "RFFT" ? out.element_type() : in.element_type();
  if (!ir::IsComplex(complex_type)) return std::nullopt;
  return FftShape{kind, std::move(fft->lengths), complex_type, ir::ComplexPartType(complex_type)};
}

uint64_t TensorBytes(const ir::Type& type) {
  return static_cast<uint64_t>(type.num_elements()) * ir::StorageBytes(type.element_type());
}

// A side (input, output) of `whole` bytes whose one transform takes `per_transform`: bound whole
// within the binding limit, else split along the batch, which needs one transform within the
// transform limit. 0 for both: nothing fits.
bool SideFits(const FftSplitLimits& limits, uint64_t per_transform, uint64_t whole) {
  return (limits.binding_bytes > 0 && whole <= limits.binding_bytes) ||
         (limits.transform_bytes > 0 && per_transform <= limits.transform_bytes);
}

// The divisor of n nearest below sqrt(n) (1 for a prime).
int64_t SplitFactor(int64_t n) {
  int64_t best = 1;
  for (int64_t d = 2; d * d <= n; ++d) {
    if (n % d == 0) best = d;
  }
  return best;
}

// Lengths whose prime factors are at most this take no Bluestein transform (VkFFT has radix
// kernels for them; and the split of a convolution's 7-smooth length ends there).
constexpr int64_t kLargestSmoothPrime = 7;

// The least m >= n whose prime factors are 2, 3, 5 and 7.
int64_t SmoothAtLeast(int64_t n) {
  int64_t best = INT64_MAX;
  for (int64_t p7 = 1; p7 < 2 * n; p7 *= 7) {
    for (int64_t p5 = p7; p5 < 2 * n; p5 *= 5) {
      for (int64_t p3 = p5; p3 < 2 * n; p3 *= 3) {
        int64_t m = p3;
        while (m < n) m *= 2;
        best = std::min(best, m);
      }
    }
  }
  return best;
}

// The least r with r * r >= n.
int64_t CeilSqrt(int64_t n) {
  int64_t r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  while (r * r < n) ++r;
  while (r > 1 && (r - 1) * (r - 1) >= n) --r;
  return r;
}

// x y mod m for 0 <= x, y < m <= 2^31.
int64_t MulMod(int64_t x, int64_t y, int64_t m) { return static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y) % static_cast<uint64_t>(m)); }

// Bluestein's form for primes up to this length: its chirp's exponents are reduced mod 2n in
// i64 from operands below 2n (products below 2^62).
constexpr int64_t kLongestBluestein = int64_t{1} << 30;

class Splitter {
 public:
  Splitter(OpBuilder& b, const FftShape& s, FftSplitLimits limits, std::string enum_dialect)
      : b_(b), s_(s), limits_(limits), dialect_(std::move(enum_dialect)) {}

  Value* Run(Value* x) {
    const int64_t rank = x->type().rank(), k = static_cast<int64_t>(s_.lengths.size());
    const int64_t first = rank - k;
    Value* y = x;
    if (s_.kind == "FFT" || s_.kind == "IFFT") {
      const bool inverse = s_.kind == "IFFT";
      for (int64_t i = k - 1; i >= 0; --i) y = Along(y, first + i, s_.lengths[i], inverse);
    } else if (s_.kind == "RFFT") {
      y = RealToComplexLast(y, s_.lengths.back());
      for (int64_t i = k - 2; i >= 0; --i) y = Along(y, first + i, s_.lengths[i], false);
    } else {
      for (int64_t i = 0; i + 1 < k; ++i) y = Along(y, first + i, s_.lengths[i], true);
      y = ComplexToRealLast(y, s_.lengths.back());
    }
    return y;
  }

 private:
  bool Fits(uint64_t per_transform, uint64_t whole) const { return SideFits(limits_, per_transform, whole); }
  uint64_t ComplexBytes() const { return ir::StorageBytes(s_.complex_type); }
  uint64_t RealBytes() const { return ir::StorageBytes(s_.real_type); }

  Value* Fft(Value* y, std::string_view kind, int64_t length, const ir::Type& result) {
    ir::Operation* op = b_.CreateWithTypes(
        OpCode::kFft, {y}, {result},
        {{"fft_type", ir::Attribute::Enum(dialect_, "fft_type", std::string(kind))},
         {"fft_length", ir::Attribute::I64Array({length})}});
    if (b_.ok()) {
      if (Status verified = verify::VerifyOperation(*op); !verified.ok()) b_.Fail(verified);
    }
    return op->result(0);
  }

  Value* Transpose(Value* y, const std::vector<int64_t>& permutation) {
    bool identity = true;
    for (size_t i = 0; i < permutation.size(); ++i) identity &= permutation[i] == static_cast<int64_t>(i);
    if (identity) return y;
    return b_.Create(OpCode::kTranspose, {y}, {{"permutation", ir::Attribute::I64Array(permutation)}})->result(0);
  }

  Value* Reshape(Value* y, std::vector<int64_t> dims) {
    return b_.Reshape(y, ir::Type::Tensor(y->type().element_type(), std::move(dims)));
  }

  // The complex y transformed along `axis` (length n).
  Value* Along(Value* y, int64_t axis, int64_t n, bool inverse) {
    if (n == 1) return y;
    const int64_t rank = y->type().rank();
    std::vector<int64_t> to_last;  // swaps `axis` and the last axis: its own inverse
    for (int64_t i = 0; i < rank; ++i) to_last.push_back(i);
    std::swap(to_last[axis], to_last[rank - 1]);
    return Transpose(AlongLast(Transpose(y, to_last), n, inverse), to_last);
  }

  // The complex y transformed along its last axis (length n): one op when a transform fits,
  // else the four-step split.
  Value* AlongLast(Value* y, int64_t n, bool inverse) {
    if (n == 1) return y;
    const int64_t n1 = SplitFactor(n);
    if (Fits(static_cast<uint64_t>(n) * ComplexBytes(), TensorBytes(y->type())) || (n1 == 1 && n <= kLargestSmoothPrime)) {
      return Fft(y, inverse ? "IFFT" : "FFT", n, y->type());
    }
    if (n1 == 1) return n <= kLongestBluestein ? Bluestein(y, n, inverse) : Fft(y, inverse ? "IFFT" : "FFT", n, y->type());
    const int64_t n2 = n / n1;
    const ir::Type& type = y->type();
    const int64_t rank = type.rank();
    std::vector<int64_t> batch(type.dims().begin(), type.dims().end() - 1);
    auto with = [&](std::initializer_list<int64_t> tail) {
      std::vector<int64_t> dims = batch;
      dims.insert(dims.end(), tail);
      return dims;
    };
    std::vector<int64_t> swap_last_two;
    for (int64_t i = 0; i < rank + 1; ++i) swap_last_two.push_back(i);
    std::swap(swap_last_two[rank - 1], swap_last_two[rank]);
    // [.., n1, n2] -> [.., n2, n1]: transforms of length n1 along n1.
    Value* a = Transpose(Reshape(y, with({n1, n2})), swap_last_two);
    a = AlongLast(a, n1, inverse);
    // Twiddles w_n^(+-n2 k1), then [.., k1, n2]: transforms of length n2.
    Value* c = Transpose(MultiplyByTwiddles(a, n2, n1, n, inverse), swap_last_two);
    c = AlongLast(c, n2, inverse);
    // [.., k1, k2] -> [.., k2, k1] -> k = k1 + n1 k2.
    return Reshape(Transpose(c, swap_last_two), with({n}));
  }

  // a [.., rows, cols] times w_n^(+-r c) at [.., r, c] (r c < n).
  //
  // A grid of n twiddles computed per element would cost every element the exact reduction and
  // a sine and cosine, and its shared steps would be stored as tensors as large as the data. So
  // one axis is factored, r = r1 s + r0 with s the divisor of `rows` nearest below its square
  // root: w^(r c) = w^(r1 s c) w^(r0 c), two small grids computed once, each element multiplied
  // by one entry of each (a rounding more than one table; far below the transforms' own).
  Value* MultiplyByTwiddles(Value* a, int64_t rows, int64_t cols, int64_t n, bool inverse) {
    const std::vector<int64_t> dims = a->type().dims();
    const int64_t batch_rank = static_cast<int64_t>(dims.size()) - 2;
    std::vector<int64_t> batch(dims.begin(), dims.end() - 2);
    const int64_t s_rows = SplitFactor(rows), s_cols = SplitFactor(cols);
    if (s_rows == 1 && s_cols == 1) {
      return b_.Mul(a, b_.BroadcastInDim(Twiddles(rows, cols, 1, 1, n, inverse), a->type(),
                                         {batch_rank, batch_rank + 1}));
    }
    const bool by_rows = s_rows > 1;
    const int64_t s = by_rows ? s_rows : s_cols;
    // [.., rows / s, s, cols] or [.., rows, cols / s, s].
    std::vector<int64_t> split = batch;
    if (by_rows) {
      split.insert(split.end(), {rows / s, s, cols});
    } else {
      split.insert(split.end(), {rows, cols / s, s});
    }
    Value* y = Reshape(a, split);
    const ir::Type& type = y->type();
    Value* coarse = by_rows ? Twiddles(rows / s, cols, s, 1, n, inverse) : Twiddles(rows, cols / s, 1, s, n, inverse);
    Value* fine = by_rows ? Twiddles(s, cols, 1, 1, n, inverse) : Twiddles(rows, s, 1, 1, n, inverse);
    const int64_t r = batch_rank;
    y = b_.Mul(y, b_.BroadcastInDim(coarse, type, by_rows ? std::vector<int64_t>{r, r + 2} : std::vector<int64_t>{r, r + 1}));
    y = b_.Mul(y, b_.BroadcastInDim(fine, type, by_rows ? std::vector<int64_t>{r + 1, r + 2} : std::vector<int64_t>{r, r + 2}));
    return Reshape(y, dims);
  }

  // complex [rows, cols]: w_n^(+-(r row_step)(c col_step)), that product below n.
  Value* Twiddles(int64_t rows, int64_t cols, int64_t row_step, int64_t col_step, int64_t n, bool inverse) {
    const ir::Type int_type = ir::Type::Tensor(IndexTypeFor(n), {rows, cols});
    Value* r = b_.Iota(int_type, 0);
    Value* c = b_.Iota(int_type, 1);
    if (row_step != 1) r = b_.Mul(r, b_.Splat(int_type, static_cast<double>(row_step)));
    if (col_step != 1) c = b_.Mul(c, b_.Splat(int_type, static_cast<double>(col_step)));
    return Rotation(b_.Mul(r, c), n, inverse);
  }

  // The integer type Rotation reduces multiples of 1/n of a turn in (4n must not wrap).
  static ElementType IndexTypeFor(int64_t n) {
    return 4 * n < (int64_t{1} << 31) ? ElementType::kS32 : ElementType::kS64;
  }

  // w_n^(+-m) = exp(-+2 pi i m / n) for the integers 0 <= m < n (of type IndexTypeFor(n)),
  // exactly reduced: the quadrant and the residue in integers, one angle in [0, pi/4].
  Value* Rotation(Value* m, int64_t n, bool inverse) {
    const ElementType part = s_.real_type;
    const ir::Type& int_type = m->type();
    const ir::Type real_type = ir::Type::Tensor(part, int_type.dims());
    auto integer = [&](int64_t v) { return b_.Splat(int_type, static_cast<double>(v)); };
    Value* m4 = b_.Mul(m, integer(4));
    Value* quadrant = b_.Div(m4, integer(n));
    Value* rho = b_.Sub(m4, b_.Mul(quadrant, integer(n)));
    Value* upper = b_.Compare("GT", b_.Mul(rho, integer(2)), integer(n));
    Value* a = b_.Select(upper, b_.Sub(integer(n), rho), rho);
    const long double step = std::numbers::pi_v<long double> / (2.0L * static_cast<long double>(n));
    Value* angle = b_.Mul(b_.Convert(a, part), b_.Splat(real_type, static_cast<double>(step)));
    Value* cos_a = b_.Unary(OpCode::kCosine, angle);
    Value* sin_a = b_.Unary(OpCode::kSine, angle);
    // cos and sin of (pi/2) rho / n.
    Value* x = b_.Select(upper, sin_a, cos_a);
    Value* y = b_.Select(upper, cos_a, sin_a);
    // Turned by quadrant * (pi / 2): an odd quadrant turns by a quarter, the upper two by a half.
    Value* odd = b_.Compare("EQ", b_.And(quadrant, integer(1)), integer(1));
    Value* half = b_.Compare("GE", quadrant, integer(2));
    Value* cos_q = b_.Select(odd, b_.Neg(y), x);
    Value* sin_q = b_.Select(odd, x, y);
    Value* cos_t = b_.Select(half, b_.Neg(cos_q), cos_q);
    Value* sin_t = b_.Select(half, b_.Neg(sin_q), sin_q);
    return b_.Binary(OpCode::kComplex, cos_t, inverse ? sin_t : b_.Neg(sin_t));
  }

  // Bluestein's transform of the complex y along its last axis, of prime length n too long for
  // one transform: with j k = (j^2 + k^2 - (k - j)^2) / 2 and the chirp c_j = w_2n^(+-j^2),
  //   X[k] = c_k sum_j (x_j c_j) conj(c_(k - j)),
  // a convolution, computed cyclically with transforms of a 7-smooth length m >= 2n - 1 (which
  // the four-step split takes apart): the chirped input padded with zeros to m, times the
  // transform of the filter (conj c_0 .. conj c_(n-1), zeros, conj c_(n-1) .. conj c_1),
  // transformed back; the first n outputs, chirped. An inverse uses the conjugate chirp and
  // scales by 1/n.
  Value* Bluestein(Value* y, int64_t n, bool inverse) {
    const int64_t m = SmoothAtLeast(2 * n - 1);
    const ir::Type& type = y->type();
    const int64_t last = type.rank() - 1;
    std::vector<int64_t> padded_dims = type.dims();
    padded_dims.back() = m - n;
    auto concatenate = [&](std::vector<Value*> parts, int64_t dimension) {
      return b_.Create(OpCode::kConcatenate, std::move(parts), {{"dimension", ir::Attribute::Int(dimension)}})->result(0);
    };
    Value* chirp = b_.BroadcastInDim(Chirp(n, inverse), type, {last});
    Value* a = b_.Mul(y, chirp);
    a = concatenate({a, b_.Splat(ir::Type::Tensor(s_.complex_type, padded_dims), 0.0)}, last);
    Value* conjugate = Conjugate(Chirp(n, inverse));
    Value* filter = conjugate;
    if (n > 1) {
      Value* mirrored = b_.Create(OpCode::kReverse, {b_.Slice(conjugate, {1}, {n})},
                                  {{"dimensions", ir::Attribute::I64Array({0})}})->result(0);
      std::vector<Value*> parts = {conjugate};
      if (m > 2 * n - 1) parts.push_back(b_.Splat(ir::Type::Tensor(s_.complex_type, {m - 2 * n + 1}), 0.0));
      parts.push_back(mirrored);
      filter = concatenate(std::move(parts), 0);
    }
    filter = AlongLast(filter, m, false);
    Value* product = b_.Mul(AlongLast(a, m, false), b_.BroadcastInDim(filter, a->type(), {last}));
    Value* convolution = AlongLast(product, m, true);
    std::vector<int64_t> start(type.dims().size(), 0);
    Value* out = b_.Mul(b_.Slice(convolution, start, type.dims()), chirp);
    if (inverse) out = b_.Mul(out, b_.Splat(type, 1.0 / static_cast<double>(n)));
    return out;
  }

  // The chirp [n]: c_j = w_2n^(+-j^2). One table of n entries would cost every entry the
  // reduction and a sine and cosine, and fusion would store its shared steps as tensors of n
  // elements; so it is a product of small tables, each element three complex products of
  // entries (cheap enough for fusion to recompute in each user, stored nowhere). With j = a S + b
  // (S = ceil(sqrt n)) and a = a1 s + a0 (s = ceil(sqrt(rows))):
  //   j^2 = (a S)^2 + 2 S s a1 b + 2 S a0 b + b^2,
  // tables P[a1, a0], T1[a1, b], T2[a0, b], Q[b], every exponent reduced mod 2n exactly in i64
  // (operands below 2n <= 2^31, so products stay below 2^62), then the grid's first n entries.
  Value* Chirp(int64_t n, bool inverse) {
    const int64_t mod = 2 * n;
    const int64_t cols = CeilSqrt(n), rows = (n + cols - 1) / cols;
    const int64_t s = CeilSqrt(rows), outer = (rows + s - 1) / s;
    auto table = [&](std::vector<int64_t> dims, const std::function<Value*(const ir::Type&)>& exponent) {
      const ir::Type wide = ir::Type::Tensor(ElementType::kS64, std::move(dims));
      Value* t = exponent(wide);
      if (IndexTypeFor(mod) != ElementType::kS64) t = b_.Convert(t, IndexTypeFor(mod));
      return Rotation(t, mod, inverse);
    };
    auto integer = [&](const ir::Type& type, int64_t v) { return b_.Splat(type, static_cast<double>(v)); };
    auto mul_mod = [&](Value* x, Value* y) { return b_.Binary(OpCode::kRemainder, b_.Mul(x, y), integer(x->type(), mod)); };
    Value* p = table({outer, s}, [&](const ir::Type& t) {
      Value* a = b_.Add(b_.Mul(b_.Iota(t, 0), integer(t, s)), b_.Iota(t, 1));
      Value* as = mul_mod(a, integer(t, cols % mod));
      return mul_mod(as, as);
    });
    Value* t1 = table({outer, cols}, [&](const ir::Type& t) {
      return mul_mod(mul_mod(b_.Iota(t, 0), integer(t, MulMod(2 * cols % mod, s % mod, mod))), b_.Iota(t, 1));
    });
    Value* t2 = table({s, cols}, [&](const ir::Type& t) {
      return mul_mod(mul_mod(b_.Iota(t, 0), integer(t, 2 * cols % mod)), b_.Iota(t, 1));
    });
    Value* q = table({cols}, [&](const ir::Type& t) {
      Value* b = b_.Iota(t, 0);
      return mul_mod(b, b);
    });
    const ir::Type grid = ir::Type::Tensor(s_.complex_type, {outer, s, cols});
    Value* c = b_.Mul(b_.Mul(b_.BroadcastInDim(p, grid, {0, 1}), b_.BroadcastInDim(t1, grid, {0, 2})),
                      b_.Mul(b_.BroadcastInDim(t2, grid, {1, 2}), b_.BroadcastInDim(q, grid, {2})));
    return b_.Slice(Reshape(c, {outer * s * cols}), {0}, {n});
  }

  Value* Conjugate(Value* z) {
    return b_.Binary(OpCode::kComplex, b_.Unary(OpCode::kReal, z), b_.Neg(b_.Unary(OpCode::kImag, z)));
  }

  // RFFT along the last axis of the real y (length n): n / 2 + 1 complex outputs.
  Value* RealToComplexLast(Value* y, int64_t n) {
    if (n == 1) return b_.Convert(y, s_.complex_type);
    const ir::Type& type = y->type();
    std::vector<int64_t> dims = type.dims();
    dims.back() = n / 2 + 1;
    const ir::Type result = ir::Type::Tensor(s_.complex_type, dims);
    if (Fits(n * RealBytes(), TensorBytes(type)) && Fits((n / 2 + 1) * ComplexBytes(), TensorBytes(result))) {
      return Fft(y, "RFFT", n, result);
    }
    Value* full = AlongLast(b_.Convert(y, s_.complex_type), n, false);
    std::vector<int64_t> start(dims.size(), 0);
    return b_.Slice(full, start, dims);
  }

  // IRFFT along the last axis of the complex y (length n / 2 + 1): n real outputs.
  Value* ComplexToRealLast(Value* y, int64_t n) {
    if (n == 1) return b_.Unary(OpCode::kReal, y);
    const ir::Type& type = y->type();
    std::vector<int64_t> dims = type.dims();
    dims.back() = n;
    const ir::Type result = ir::Type::Tensor(s_.real_type, dims);
    if (Fits(n * RealBytes(), TensorBytes(result)) && Fits((n / 2 + 1) * ComplexBytes(), TensorBytes(type))) {
      return Fft(y, "IRFFT", n, result);
    }
    // X[n - k] = conj(X[k]) for k = 1 .. n - n/2 - 1, appended in reverse.
    Value* full = y;
    const int64_t mirrored = n - n / 2 - 1, last = type.rank() - 1;
    if (mirrored > 0) {
      std::vector<int64_t> start(dims.size(), 0), limit = type.dims();
      start.back() = 1;
      limit.back() = 1 + mirrored;
      Value* tail = b_.Slice(y, start, limit);
      tail = Conjugate(tail);
      tail = b_.Create(OpCode::kReverse, {tail}, {{"dimensions", ir::Attribute::I64Array({last})}})->result(0);
      full = b_.Create(OpCode::kConcatenate, {y, tail}, {{"dimension", ir::Attribute::Int(last)}})->result(0);
    }
    return b_.Unary(OpCode::kReal, AlongLast(full, n, true));
  }

  OpBuilder& b_;
  const FftShape& s_;
  FftSplitLimits limits_;
  std::string dialect_;
};

class SplitLargeFfts : public Pass {
 public:
  explicit SplitLargeFfts(FftSplitLimits limits) : limits_(limits) {}
  std::string_view name() const override { return "split-large-ffts"; }
  StatusOr<bool> Run(ir::Module& module) override {
    return RewriteOnce(module, [this](ir::Operation& op, OpBuilder& b) -> RewriteResult {
      if (!FftTransformExceeds(op, limits_)) return std::nullopt;
      const std::optional<FftShape> shape = ReadFft(op);
      std::string dialect = "stablehlo";
      if (auto* e = op.attribute("fft_type")->as<ir::EnumValue>()) dialect = e->dialect;
      Value* y = Splitter(b, *shape, limits_, dialect).Run(op.operand(0));
      VKHLO_RETURN_IF_ERROR(b.status());
      if (y->type() != op.result(0)->type()) {
        return InternalError("split-large-ffts built " + y->type().ToString() + " for " +
                             op.result(0)->type().ToString());
      }
      return std::vector<Value*>{y};
    });
  }

 private:
  FftSplitLimits limits_;
};

}  // namespace

bool FftTransformExceeds(const ir::Operation& op, const FftSplitLimits& limits) {
  const std::optional<FftShape> s = ReadFft(op);
  if (!s) return false;
  const uint64_t complex_bytes = ir::StorageBytes(s->complex_type), real_bytes = ir::StorageBytes(s->real_type);
  uint64_t others = 1;
  for (size_t i = 0; i + 1 < s->lengths.size(); ++i) others *= static_cast<uint64_t>(s->lengths[i]);
  const int64_t last = s->lengths.back();
  const bool real = s->kind == "RFFT" || s->kind == "IRFFT";
  // One transform's bytes on each side (IRFFT's complex scratch is its input's size).
  const uint64_t full = others * static_cast<uint64_t>(last) * (real ? real_bytes : complex_bytes);
  const uint64_t half = others * static_cast<uint64_t>(real ? last / 2 + 1 : last) * complex_bytes;
  const uint64_t in_whole = TensorBytes(op.operand(0)->type()), out_whole = TensorBytes(op.result(0)->type());
  const uint64_t in_per = s->kind == "IRFFT" ? half : full, out_per = s->kind == "RFFT" ? half : full;
  if (!SideFits(limits, in_per, in_whole) || !SideFits(limits, out_per, out_whole)) {
    // Only where splitting gets somewhere: more than one transformed axis, a last length that
    // factors or (Bluestein) is a prime beyond the smallest, or 1 for the real kinds.
    return s->lengths.size() > 1 || (last > kLargestSmoothPrime && last <= kLongestBluestein) || SplitFactor(last) > 1 ||
           (real && last == 1);
  }
  // A real innermost length of 1 runs a conversion kernel over whole tensors.
  return real && last == 1 && (in_whole > limits.binding_bytes || out_whole > limits.binding_bytes);
}

std::unique_ptr<Pass> CreateSplitLargeFftsPass(const FftSplitLimits& limits) {
  return std::make_unique<SplitLargeFfts>(limits);
}

}  // namespace vkhlo::passes
