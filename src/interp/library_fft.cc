// fft: FFT, IFFT, RFFT and IRFFT over the last size(fft_length) dimensions, in complex<double>.
//
// A multi-dimensional DFT is separable, so each type is a series of 1-D transforms along the
// transformed axes. 1-D transforms use an iterative radix-2 FFT for power-of-two lengths and a
// direct O(n^2) DFT with an exact twiddle table (index k*j mod n) otherwise. Inverse transforms
// scale by 1/n. IRFFT rebuilds the Hermitian-symmetric spectrum from the first n/2+1 elements
// (the imaginary parts of the DC and, for even n, Nyquist terms have no effect on a real
// result) and keeps the real part.
#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "interp/library_common.h"
#include "interp/library_ops.h"

namespace vkhlo::interp {
namespace {

using ir::Operation;
using lib::Complex;

// exp(sign * 2*pi*i * k / n) for k in [0, n).
std::vector<Complex> Twiddles(int64_t n, int sign) {
  std::vector<Complex> w(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const double angle = 2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
    w[static_cast<size_t>(k)] = Complex(std::cos(angle), sign * std::sin(angle));
  }
  return w;
}

// In-place 1-D DFT of x (forward: sign -1; inverse: sign +1, unscaled).
void Dft(std::vector<Complex>& x, const std::vector<Complex>& w) {
  const int64_t n = static_cast<int64_t>(x.size());
  if (n <= 1) return;
  if ((n & (n - 1)) == 0) {
    // Bit-reversal permutation, then butterflies.
    for (int64_t i = 1, j = 0; i < n; ++i) {
      int64_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(x[static_cast<size_t>(i)], x[static_cast<size_t>(j)]);
    }
    for (int64_t len = 2; len <= n; len <<= 1) {
      const int64_t step = n / len;
      for (int64_t i = 0; i < n; i += len) {
        for (int64_t k = 0; k < len / 2; ++k) {
          const Complex t = w[static_cast<size_t>(k * step)] * x[static_cast<size_t>(i + k + len / 2)];
          const Complex u = x[static_cast<size_t>(i + k)];
          x[static_cast<size_t>(i + k)] = u + t;
          x[static_cast<size_t>(i + k + len / 2)] = u - t;
        }
      }
    }
    return;
  }
  std::vector<Complex> out(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    Complex sum = 0;
    int64_t index = 0;  // k * j mod n
    for (int64_t j = 0; j < n; ++j) {
      sum += x[static_cast<size_t>(j)] * w[static_cast<size_t>(index)];
      index += k;
      if (index >= n) index -= n;
    }
    out[static_cast<size_t>(k)] = sum;
  }
  x = std::move(out);
}

// Applies `transform(line)` to every 1-D line of `data` (shape `dims`) along `axis`.
template <typename F>
void ForEachLine(std::vector<Complex>& data, const std::vector<int64_t>& dims, int64_t axis, F transform) {
  const int64_t n = dims[axis];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  for (int64_t d = axis + 1; d < static_cast<int64_t>(dims.size()); ++d) inner *= dims[d];
  std::vector<Complex> line(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      for (int64_t j = 0; j < n; ++j) line[static_cast<size_t>(j)] = data[static_cast<size_t>(base + j * inner)];
      transform(line);
      for (int64_t j = 0; j < n; ++j) data[static_cast<size_t>(base + j * inner)] = line[static_cast<size_t>(j)];
    }
  }
}

void TransformAxis(std::vector<Complex>& data, const std::vector<int64_t>& dims, int64_t axis, bool inverse) {
  const int64_t n = dims[axis];
  if (n == 0) return;
  const auto w = Twiddles(n, inverse ? 1 : -1);
  const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
  ForEachLine(data, dims, axis, [&](std::vector<Complex>& line) {
    Dft(line, w);
    if (inverse) {
      for (auto& v : line) v *= scale;
    }
  });
}

// Copies `data` (shape `dims`) into shape `new_dims` (same rank; only the last dim differs),
// truncating or zero-filling the last dimension.
std::vector<Complex> ResizeLast(const std::vector<Complex>& data, const std::vector<int64_t>& dims,
                                const std::vector<int64_t>& new_dims) {
  const int64_t old_n = dims.empty() ? 1 : dims.back(), new_n = new_dims.empty() ? 1 : new_dims.back();
  const int64_t rows = new_n == 0 ? 0 : lib::Product(new_dims) / new_n;
  std::vector<Complex> out(static_cast<size_t>(lib::Product(new_dims)));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < std::min(old_n, new_n); ++j) {
      out[static_cast<size_t>(r * new_n + j)] = data[static_cast<size_t>(r * old_n + j)];
    }
  }
  return out;
}

StatusOr<InterpValues> EvalFft(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* operand, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Type result_type, lib::TensorResultType(context, op, 0));
  auto type = lib::AttrEnum(op, "fft_type", "fft_type");
  auto lengths = lib::AttrInts(op, "fft_length");
  if (!type || !lengths) return context.OpError(op, "needs `fft_type` and `fft_length`");
  const std::vector<int64_t>& in_dims = operand->type().dims();
  const std::vector<int64_t>& out_dims = result_type.dims();
  const int64_t rank = static_cast<int64_t>(in_dims.size());
  const int64_t count = static_cast<int64_t>(lengths->size());
  if (count < 1 || count > 3 || count > rank || out_dims.size() != in_dims.size()) {
    return context.OpError(op, "has an fft_length of the wrong size for its operand");
  }
  // Real side's trailing dims must be fft_length; complex side of RFFT/IRFFT has n/2+1 last.
  const bool real_in = *type == "RFFT";
  const std::vector<int64_t>& complex_dims = real_in ? out_dims : in_dims;
  const std::vector<int64_t>& real_dims = real_in ? in_dims : out_dims;
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t f = i - (rank - count);
    const bool last = i == rank - 1;
    if (*type == "FFT" || *type == "IFFT") {
      if (in_dims[i] != out_dims[i] || (f >= 0 && in_dims[i] != (*lengths)[f])) {
        return context.OpError(op, "operand/result shapes do not match fft_length");
      }
    } else if (*type == "RFFT" || *type == "IRFFT") {
      if (f >= 0 && real_dims[i] != (*lengths)[f]) return context.OpError(op, "real side's shape does not end with fft_length");
      const int64_t want = last ? (real_dims[i] == 0 ? 0 : real_dims[i] / 2 + 1) : real_dims[i];
      if (complex_dims[i] != want) return context.OpError(op, "complex side's shape does not match fft_length");
    } else {
      return context.OpError(op, "has unknown fft_type " + *type);
    }
  }
  std::vector<Complex> data = lib::ToComplex(*operand);
  if (*type == "FFT") {
    for (int64_t axis = rank - 1; axis >= rank - count; --axis) TransformAxis(data, in_dims, axis, false);
  } else if (*type == "IFFT") {
    for (int64_t axis = rank - count; axis < rank; ++axis) TransformAxis(data, in_dims, axis, true);
  } else if (real_in) {
    for (int64_t axis = rank - 1; axis >= rank - count; --axis) TransformAxis(data, in_dims, axis, false);
    data = ResizeLast(data, in_dims, out_dims);
  } else {
    for (int64_t axis = rank - count; axis < rank - 1; ++axis) TransformAxis(data, in_dims, axis, true);
    // Last axis: Hermitian extension to n, inverse transform, real part.
    const int64_t n = out_dims.back();
    const int64_t half = in_dims.back();
    std::vector<Complex> full = ResizeLast(data, in_dims, out_dims);
    for (int64_t r = 0; n > 0 && r < lib::Product(out_dims) / n; ++r) {
      Complex* row = full.data() + r * n;
      for (int64_t k = half; k < n; ++k) row[k] = std::conj(row[n - k]);
    }
    TransformAxis(full, out_dims, rank - 1, true);
    data = std::move(full);
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, lib::FromComplex(result_type, data));
  return lib::One(std::move(out));
}

}  // namespace

void RegisterFftOps(OpRegistry& registry) { registry.Register(ir::OpCode::kFft, EvalFft); }

}  // namespace vkhlo::interp
