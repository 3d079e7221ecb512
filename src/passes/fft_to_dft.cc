// fft-to-dft: a stablehlo.fft whose lengths are short and include a prime factor above 13
// becomes dot_generals with constant DFT matrices.
//
// The device FFT (VkFFT, device/fft) runs lengths whose factors are 2..13 with radix kernels and
// every other length with Bluestein's algorithm: three padded transforms of length >= 2n - 1,
// whose rounding error on prime lengths is 2-3 times pocketfft's (JAX's CPU FFT). A direct DFT,
// x times the matrix of exp(-+2 pi i jk / n) computed on the host in long double and rounded
// once to the element type, is as accurate as pocketfft's generic pass, and for n <= 128 its n^2
// multiply-adds per transform cost less than Bluestein's three transforms of >= 2n.
//
// Per transformed axis, from the first: FFT/IFFT multiply by W (IFFT: conj(W) / n); RFFT
// converts to complex and multiplies the last axis by W's first n/2 + 1 columns first; IRFFT
// transforms the other axes, then takes the last one to reals with two real matrices
// (A = w_k cos(2 pi jk/n) / n for the real parts, B = -w_k sin(...) / n for the imaginary ones,
// w_k = 2 except for the DC and Nyquist terms, whose imaginary parts the spec ignores: their
// sines are exact zeros here). A transform along an axis other than the last is a dot_general
// contracting that axis and a transpose putting the axis back.
#include <cmath>
#include <complex>
#include <numbers>

#include "passes/fft_op.h"
#include "passes/passes.h"
#include "passes/rewrite_driver.h"
#include "verify/verifier.h"

namespace vkhlo::passes {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Value;

// Lengths above this keep the device FFT (the direct DFT's n^2 cost grows past Bluestein's).
constexpr int64_t kMaxDirectLength = 128;
// VkFFT's largest radix: lengths with larger prime factors go through Bluestein.
constexpr int64_t kLargestRadix = 13;

bool HasPrimeFactorAbove(int64_t n, int64_t limit) {
  for (int64_t p = 2; p <= limit && n > 1; ++p) {
    while (n % p == 0) n /= p;
  }
  return n > 1;
}

// exp(sign * 2 pi i t / n) for t in [0, n): exact at multiples of a quarter turn.
std::complex<long double> Twiddle(int64_t t, int64_t n, int sign) {
  if ((4 * t) % n == 0) {
    switch ((4 * t) / n) {
      case 0: return {1, 0};
      case 1: return {0, static_cast<long double>(sign)};
      case 2: return {-1, 0};
      default: return {0, static_cast<long double>(-sign)};
    }
  }
  const long double angle = 2 * std::numbers::pi_v<long double> * static_cast<long double>(t) / n;
  return {std::cos(angle), sign * std::sin(angle)};
}

class DirectDft {
 public:
  DirectDft(OpBuilder& b, ElementType complex_type) : b_(b), complex_(complex_type), real_(ir::ComplexPartType(complex_type)) {}

  // y transformed along `axis` (of length n) by the n x cols matrix W[j][c] = exp(-+2 pi i jc/n)
  // (inverse: conjugate, divided by n).
  Value* Along(Value* y, int64_t axis, int64_t n, bool inverse, int64_t cols) {
    ir::Literal w = NewLiteral(ir::Type::Tensor(complex_, {n, cols}));
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t c = 0; c < cols; ++c) {
        std::complex<long double> t = Twiddle((j * c) % n, n, inverse ? 1 : -1);
        if (inverse) t /= static_cast<long double>(n);
        w.SetComplex(j * cols + c, {static_cast<double>(t.real()), static_cast<double>(t.imag())});
      }
    }
    return Contract(y, b_.Constant(std::move(w)), axis, complex_);
  }

  // The last axis of complex y (length n / 2 + 1) to n reals, as IRFFT defines it.
  Value* ComplexToReal(Value* y, int64_t n) {
    const int64_t m = n / 2 + 1, axis = y->type().rank() - 1;
    ir::Literal a = NewLiteral(ir::Type::Tensor(real_, {m, n}));
    ir::Literal bm = NewLiteral(ir::Type::Tensor(real_, {m, n}));
    for (int64_t k = 0; k < m; ++k) {
      const long double weight = (k == 0 || 2 * k == n) ? 1 : 2;
      for (int64_t j = 0; j < n; ++j) {
        const std::complex<long double> t = Twiddle((j * k) % n, n, 1);
        a.SetFloat(k * n + j, static_cast<double>(weight * t.real() / n));
        bm.SetFloat(k * n + j, static_cast<double>(-weight * t.imag() / n));
      }
    }
    Value* re = Contract(b_.Unary(OpCode::kReal, y), b_.Constant(std::move(a)), axis, real_);
    Value* im = Contract(b_.Unary(OpCode::kImag, y), b_.Constant(std::move(bm)), axis, real_);
    return b_.Add(re, im);
  }

 private:
  ir::Literal NewLiteral(const ir::Type& type) {
    StatusOr<ir::Literal> literal = ir::Literal::Create(type);
    if (!literal.ok()) {
      b_.Fail(literal.status());
      return ir::Literal();
    }
    return std::move(*literal);
  }

  // dot_general(y, matrix) contracting y's `axis` with the matrix's rows, the new axis moved back
  // to `axis`.
  Value* Contract(Value* y, Value* matrix, int64_t axis, ElementType element) {
    const ir::Type& type = y->type();
    const int64_t rank = type.rank();
    std::vector<int64_t> dims;
    for (int64_t i = 0; i < rank; ++i) {
      if (i != axis) dims.push_back(type.dim(i));
    }
    dims.push_back(matrix->type().dim(1));
    ir::DotDimensionNumbers numbers{{}, {}, {axis}, {0}};
    ir::Operation* dot = b_.CreateWithTypes(OpCode::kDotGeneral, {y, matrix}, {ir::Type::Tensor(element, dims)},
                                            {{"dot_dimension_numbers", ir::Attribute(numbers)}});
    if (b_.ok()) {
      if (Status verified = verify::VerifyOperation(*dot); !verified.ok()) b_.Fail(verified);
    }
    Value* product = dot->result(0);
    if (axis == rank - 1) return product;
    std::vector<int64_t> permutation;
    for (int64_t i = 0; i < axis; ++i) permutation.push_back(i);
    permutation.push_back(rank - 1);
    for (int64_t i = axis; i < rank - 1; ++i) permutation.push_back(i);
    return b_.Create(OpCode::kTranspose, {product}, {{"permutation", ir::Attribute::I64Array(permutation)}})->result(0);
  }

  OpBuilder& b_;
  ElementType complex_, real_;
};

RewriteResult Rewrite(ir::Operation& op, OpBuilder& b) {
  std::optional<FftOp> fft = ReadFftOp(op);
  if (!fft) return std::nullopt;
  const std::string* fft_type = &fft->kind;
  const std::vector<int64_t>* lengths = &fft->lengths;
  const ir::Type& in = op.operand(0)->type();
  const ir::Type& out = op.result(0)->type();
  bool needs_bluestein = false;
  for (int64_t n : *lengths) {
    if (n < 1 || n > kMaxDirectLength) return std::nullopt;
    needs_bluestein |= HasPrimeFactorAbove(n, kLargestRadix);
  }
  if (!needs_bluestein) return std::nullopt;

  const bool rfft = *fft_type == "RFFT", irfft = *fft_type == "IRFFT";
  const ElementType complex_type = rfft ? out.element_type() : in.element_type();
  if (!ir::IsComplex(complex_type)) return std::nullopt;
  const int64_t rank = in.rank(), k = static_cast<int64_t>(lengths->size());
  const int64_t last = rank - 1;
  DirectDft dft(b, complex_type);
  Value* y = op.operand(0);
  if (*fft_type == "FFT" || *fft_type == "IFFT") {
    for (int64_t i = 0; i < k; ++i) y = dft.Along(y, rank - k + i, (*lengths)[i], *fft_type == "IFFT", (*lengths)[i]);
  } else if (rfft) {
    const int64_t n = lengths->back();
    y = dft.Along(b.Convert(y, complex_type), last, n, false, n / 2 + 1);
    for (int64_t i = 0; i + 1 < k; ++i) y = dft.Along(y, rank - k + i, (*lengths)[i], false, (*lengths)[i]);
  } else if (irfft) {
    for (int64_t i = 0; i + 1 < k; ++i) y = dft.Along(y, rank - k + i, (*lengths)[i], true, (*lengths)[i]);
    y = dft.ComplexToReal(y, lengths->back());
  } else {
    return std::nullopt;
  }
  VKHLO_RETURN_IF_ERROR(b.status());
  if (y->type() != out) return std::nullopt;  // a shape the verifier let through that we do not handle
  return std::vector<Value*>{y};
}

class FftToDft : public Pass {
 public:
  std::string_view name() const override { return "fft-to-dft"; }
  StatusOr<bool> Run(ir::Module& module) override { return RewriteOnce(module, Rewrite); }
};

}  // namespace

std::unique_ptr<Pass> CreateFftToDftPass() { return std::make_unique<FftToDft>(); }

}  // namespace vkhlo::passes
