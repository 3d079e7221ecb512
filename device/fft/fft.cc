#include "device/fft/fft.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace vkhlo::device::fft {

std::string_view FftKindName(FftKind kind) {
  switch (kind) {
    case FftKind::kFft: return "FFT";
    case FftKind::kIfft: return "IFFT";
    case FftKind::kRfft: return "RFFT";
    case FftKind::kIrfft: return "IRFFT";
  }
  return "?";
}

bool FftDescriptor::empty() const {
  if (batch == 0) return true;
  for (uint64_t n : lengths) {
    if (n == 0) return true;
  }
  return false;
}

uint64_t FftDescriptor::real_elements() const {
  uint64_t n = batch;
  for (uint64_t d : lengths) n *= d;
  return n;
}

uint64_t FftDescriptor::complex_elements() const {
  if (!real() || lengths.empty()) return real_elements();
  uint64_t n = batch;
  for (size_t i = 0; i + 1 < lengths.size(); ++i) n *= lengths[i];
  return n * (lengths.back() == 0 ? 0 : lengths.back() / 2 + 1);
}

uint64_t FftDescriptor::input_bytes() const {
  return kind == FftKind::kRfft ? real_elements() * real_bytes()
                                : complex_elements() * complex_bytes();
}

uint64_t FftDescriptor::output_bytes() const {
  return kind == FftKind::kIrfft ? real_elements() * real_bytes()
                                 : complex_elements() * complex_bytes();
}

Status FftDescriptor::Validate() const {
  if (lengths.empty() || lengths.size() > 3) {
    return InvalidArgumentError(fmt::format(
        "{}: transforms 1 to 3 innermost dimensions, found {}", ToString(), lengths.size()));
  }
  // Element counts (times 16 bytes) must not overflow.
  unsigned __int128 total = batch;
  for (uint64_t n : lengths) total *= n;
  if (total * 16 > ~uint64_t{0}) {
    return InvalidArgumentError(fmt::format("{}: too many elements", ToString()));
  }
  return OkStatus();
}

std::string FftDescriptor::ToString() const {
  return fmt::format("{} {} [{}] x {}", FftKindName(kind),
                     precision == FftPrecision::kF64 ? "f64" : "f32",
                     fmt::join(lengths, ", "), batch);
}

}  // namespace vkhlo::device::fft
