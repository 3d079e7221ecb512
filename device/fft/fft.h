// FFT on the Vulkan device (through VkFFT): what one transform is, as plain data.
//
// An FftDescriptor is a stablehlo.fft seen from the device: the kind, the precision, the
// transformed lengths (StableHLO's fft_length: the innermost 1 to 3 dimensions, outermost
// first) and how many such transforms are stored one after another (the product of the leading
// dimensions). Tensors are dense row-major; complex<f32> is an interleaved float pair (8 bytes),
// complex<f64> a double pair (16 bytes).
//
// Semantics (StableHLO spec, fft):
//   FFT    complex -> complex, forward, unnormalized
//   IFFT   complex -> complex, inverse, scaled by 1/N (N = product of fft_length)
//   RFFT   real [.., n] -> complex [.., n/2+1], forward, unnormalized
//   IRFFT  complex [.., n/2+1] -> real [.., n], inverse, scaled by 1/N
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo::device::fft {

enum class FftKind { kFft, kIfft, kRfft, kIrfft };
std::string_view FftKindName(FftKind kind);  // "FFT", "IFFT", "RFFT", "IRFFT"

// The floating-point type of both sides: f32 / complex<f32>, or f64 / complex<f64>.
enum class FftPrecision { kF32, kF64 };

struct FftDescriptor {
  FftKind kind = FftKind::kFft;
  FftPrecision precision = FftPrecision::kF32;
  std::vector<uint64_t> lengths;  // fft_length, outermost first; real lengths for RFFT/IRFFT
  uint64_t batch = 1;             // product of the dimensions before the transformed ones

  bool operator==(const FftDescriptor&) const = default;

  bool inverse() const { return kind == FftKind::kIfft || kind == FftKind::kIrfft; }
  bool real() const { return kind == FftKind::kRfft || kind == FftKind::kIrfft; }
  // True when there is nothing to compute (a zero batch or length).
  bool empty() const;
  // Bytes of one real / complex element.
  uint64_t real_bytes() const { return precision == FftPrecision::kF64 ? 8 : 4; }
  uint64_t complex_bytes() const { return 2 * real_bytes(); }
  // Elements of the real side ([batch, lengths...]) and of the complex side (the same, with
  // n/2+1 innermost for RFFT/IRFFT).
  uint64_t real_elements() const;
  uint64_t complex_elements() const;
  // Bytes of the operand and of the result.
  uint64_t input_bytes() const;
  uint64_t output_bytes() const;

  // OK if the transform is well-formed: 1 to 3 lengths, and the sizes fit in 64 bits.
  Status Validate() const;
  std::string ToString() const;  // "RFFT f32 [4, 6] x 3"
};

}  // namespace vkhlo::device::fft
