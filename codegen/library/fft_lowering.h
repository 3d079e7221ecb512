// stablehlo.fft as plain parameters for the device's FFT (device/fft, through VkFFT).
//
// Codegen sees only the IR, so this returns plain data; the runtime turns it into a
// device::fft::FftDescriptor field by field (same names) and records the plan between the
// kernels of a command list:
//   kind    <- fft_type                   lengths <- fft_length (outermost first)
//   double_precision <- complex<f64>/f64  batch   <- product of the dims before the last
//                                                    size(fft_length) ones
// Operand and result are dense row-major tensors of input_bytes / output_bytes bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen {

enum class FftType { kFft, kIfft, kRfft, kIrfft };

struct FftLowering {
  FftType type = FftType::kFft;
  bool double_precision = false;  // complex<f64> / f64; else complex<f32> / f32
  std::vector<uint64_t> lengths;  // fft_length, 1 to 3 entries, outermost first
  uint64_t batch = 1;             // product of the untransformed leading dims
  uint64_t input_bytes = 0;       // of the operand
  uint64_t output_bytes = 0;      // of the result
  bool empty() const { return input_bytes == 0 || output_bytes == 0; }  // nothing to compute
};

// Reads fft_type, fft_length and the operand and result types of a stablehlo.fft and checks
// them against the spec (C1-C5): every valid fft lowers (complex types exist for f32 and f64
// only, so those are the only real types too). INVALID_ARGUMENT
// ("line:col: error: 'stablehlo.fft' ...") otherwise, e.g. for IR that skipped the verifier.
StatusOr<FftLowering> LowerFft(const ir::Operation& op);

}  // namespace vkhlo::codegen
