// What the FFT passes (fft-to-dft, split-large-ffts) read of a stablehlo.fft: its kind and
// lengths, for an op they can rewrite at all.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"

namespace vkhlo::passes {

struct FftOp {
  std::string kind;              // FFT, IFFT, RFFT, IRFFT (as the attribute spells it)
  std::vector<int64_t> lengths;  // fft_length, not empty
};

// nullopt unless `op` is a stablehlo.fft of one tensor operand and result, both with elements,
// with a type and at most rank lengths.
std::optional<FftOp> ReadFftOp(const ir::Operation& op);

}  // namespace vkhlo::passes
