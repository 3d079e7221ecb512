// FFT test programs and their checks, shared by the FFT tests (device, split pass on the
// interpreter and on the device): a one-op program per case, uniform random operands, and the
// error measure an FFT's rounding is judged by.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <complex>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "ir/literal.h"
#include "tests/support/program_text.h"

namespace vkhlo::testing {

struct FftCase {
  std::string kind;              // FFT, IFFT, RFFT, IRFFT
  std::vector<int64_t> batch;    // leading dims
  std::vector<int64_t> lengths;  // fft_length
};

// "func.func @<function>(%x: ...) { %r = stablehlo.fft %x, type = ..., length = [...] ... }";
// `input_type`, when given, receives the operand's type.
inline std::string FftProgram(const FftCase& c, bool f64, std::string_view function = "main",
                              ir::Type* input_type = nullptr) {
  std::vector<int64_t> real_dims = c.batch;
  real_dims.insert(real_dims.end(), c.lengths.begin(), c.lengths.end());
  std::vector<int64_t> complex_dims = real_dims;
  if (c.kind == "RFFT" || c.kind == "IRFFT") {
    complex_dims.back() = real_dims.back() == 0 ? 0 : real_dims.back() / 2 + 1;
  }
  if (input_type != nullptr) {
    *input_type = c.kind == "RFFT" ? ir::Type::Tensor(f64 ? ir::ElementType::kF64 : ir::ElementType::kF32, real_dims)
                                   : ir::Type::Tensor(f64 ? ir::ElementType::kC128 : ir::ElementType::kC64, complex_dims);
  }
  const std::string real = TensorType(real_dims, f64 ? "f64" : "f32");
  const std::string complex = TensorType(complex_dims, f64 ? "complex<f64>" : "complex<f32>");
  const std::string in = c.kind == "RFFT" ? real : complex;
  const std::string out = c.kind == "IRFFT" ? real : complex;
  std::string lengths;
  for (int64_t n : c.lengths) lengths += (lengths.empty() ? "" : ", ") + std::to_string(n);
  return fmt::format(
      "func.func @{4}(%x: {0}) -> {1} {{\n"
      "  %r = stablehlo.fft %x, type = {2}, length = [{3}] : ({0}) -> {1}\n"
      "  func.return %r : {1}\n"
      "}}\n",
      in, out, c.kind, lengths, function);
}

// Uniform in [-1, 1] per real component.
inline ir::Literal UniformLiteral(const ir::Type& type, std::mt19937_64& rng) {
  StatusOr<ir::Literal> literal = ir::Literal::Create(type);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (int64_t i = 0; i < type.num_elements(); ++i) {
    if (ir::IsComplex(type.element_type())) {
      const double re = dist(rng), im = dist(rng);
      literal->SetComplex(i, {re, im});
    } else {
      literal->SetFloat(i, dist(rng));
    }
  }
  return std::move(*literal);
}

// Largest |got - want| relative to the largest |want| (at least 1).
inline double FftRelativeError(const ir::Literal& got, const ir::Literal& want) {
  const bool complex = ir::IsComplex(want.type().element_type());
  double err = 0, scale = 1;
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    const std::complex<double> a = complex ? got.GetComplex(i) : got.GetFloat(i);
    const std::complex<double> b = complex ? want.GetComplex(i) : want.GetFloat(i);
    err = std::max(err, std::abs(a - b));
    scale = std::max(scale, std::abs(b));
  }
  return err / scale;
}

}  // namespace vkhlo::testing
