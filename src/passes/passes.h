// Factories of the built-in passes (each defined in its own file).
#pragma once

#include <cstdint>
#include <memory>

#include "passes/pass.h"

namespace vkhlo::passes {

// Removes ops whose results are unused and that have no side effects; unused private functions.
std::unique_ptr<Pass> CreateDeadCodeEliminationPass();

// Inlines every func.call (recursively, nested regions included) and removes the private
// functions left unreferenced; a recursive function is an error naming it.
std::unique_ptr<Pass> CreateInlinePass();

// Exact algebraic simplification to a fixpoint (x*1, x+(-0.0), double transposes, reshape
// chains, broadcasts of splats, no-op converts, ...).
std::unique_ptr<Pass> CreateCanonicalizePass();

struct FoldConstantsOptions {
  // Ops are evaluated when their results have at most this many elements in all...
  int64_t max_result_elements = 1024;
  // ...and each non-splat operand at most this many. (Element-wise ops of splats fold at any
  // size: one element is evaluated.)
  int64_t max_operand_elements = 1 << 16;
};
// Evaluates pure ops of constants with the reference interpreter and replaces them by constants.
std::unique_ptr<Pass> CreateFoldConstantsPass();
std::unique_ptr<Pass> CreateFoldConstantsPassWith(const FoldConstantsOptions& options);

// Merges identical pure ops (same operands, attributes and result types) within a scope.
std::unique_ptr<Pass> CreateCsePass();

// Rewrites batch_norm_{inference,training,grad} into element-wise ops, broadcasts and reduces.
std::unique_ptr<Pass> CreateBatchNormDecomposePass();

// Rewrites every chlo op into StableHLO (src/passes/chlo/).
std::unique_ptr<Pass> CreateChloDecomposePass();

// Rewrites a stablehlo.fft of lengths <= 128 with a prime factor above 13 into dot_generals with
// constant DFT matrices (more accurate than the device FFT's Bluestein path; fft_to_dft.cc).
std::unique_ptr<Pass> CreateFftToDftPass();

// What one binding of an FFT side may hold. A side (input, output) of at most `binding_bytes`
// is bound whole; a larger one is split along the batch, so one transform of it must take at
// most `transform_bytes` (device/fft/fft_split.h). The compile passes the device's
// maxStorageBufferRange and that range less the windows' alignment slack; zeros: nothing fits.
struct FftSplitLimits {
  uint64_t transform_bytes = 0;
  uint64_t binding_bytes = 0;
};

// Splits a stablehlo.fft that one binding cannot hold into smaller transforms: one axis at a
// time, and a too-long axis by the four-step split with device-computed twiddles
// (split_large_ffts.cc). Zero limits split every transform of a composite length (for tests).
std::unique_ptr<Pass> CreateSplitLargeFftsPass(const FftSplitLimits& limits);
// Whether the pass rewrites `op`: an fft with a side beyond both limits that can be split, or a
// real transform of innermost length 1 whose tensors exceed the binding limit.
bool FftTransformExceeds(const ir::Operation& op, const FftSplitLimits& limits);

// Rewrites programs on uniform-quantized tensors into integer/float ops on their storage
// (src/passes/quantized_decompose.cc).
std::unique_ptr<Pass> CreateQuantizedDecomposePass();

// Reduces whose rows pass 2^31 - 1 elements as two reduces (split_long_reductions.cc).
std::unique_ptr<Pass> CreateSplitLongReductionsPass();

// In a counted loop, products of a loop-invariant operand with one slice of a loop-invariant
// tensor per iteration (a scan's input projection) as one product before the loop
// (hoist_loop_products.cc).
std::unique_ptr<Pass> CreateHoistLoopProductsPass();

// Transposes folded into dot_general: transpose(dot_general(a, b)) to [batch, rhs free, lhs
// free] as dot_general(b, a) when the transpose is the product's only use; an operand's
// transpose that keeps its free dimensions in order by renumbering the dimension numbers
// (transposed_products.cc).
std::unique_ptr<Pass> CreateTransposedProductsPass();

}  // namespace vkhlo::passes
