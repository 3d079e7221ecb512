// Helpers of the GLSL runtime library tests: run a test kernel (tests/codegen_glsl/shaders)
// over words in / words out, and measure errors in units in the last place.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "device/device.h"

namespace vkhlo::glsl_test {

// Runs `spirv` (a kernel using shaders/kernel_io.glsl) with specialization constant 0 = `op`
// over `count` elements; returns `out_words` words (empty after a test failure).
std::vector<uint32_t> RunKernel(device::Device& device, std::span<const uint32_t> spirv,
                                const std::string& name, uint32_t op,
                                std::span<const uint32_t> input, uint32_t count, size_t out_words);

// Whether the device (after the profile mask) runs f64 kernels.
bool HasFloat64(device::Device& device);

inline uint32_t Bits(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }
inline float FromBits(uint32_t b) { float f; std::memcpy(&f, &b, 4); return f; }
inline uint64_t Bits(double d) { uint64_t b; std::memcpy(&b, &d, 8); return b; }
inline double FromBits64(uint64_t b) { double d; std::memcpy(&d, &b, 8); return d; }

// Words of doubles (low word first, as packDouble2x32 reads them) and back.
std::vector<uint32_t> Words(std::span<const double> values);
std::vector<double> Doubles(std::span<const uint32_t> words);

// |got - exact| in units of the last place of `exact`'s binade in the result type (denormal
// ulp below the normal range; the largest finite binade's ulp beyond it). Infinite results and
// NaNs compare by identity: 0 if both agree (for zeros, including the sign), else infinity.
double UlpErrorF32(float got, double exact);
double UlpErrorF64(double got, long double exact);

// A deterministic generator (splitmix64) so failures reproduce.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t Next32() { return static_cast<uint32_t>(Next() >> 32); }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * (Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

}  // namespace vkhlo::glsl_test
