// The library op group (library_*.cc): each file registers its ops through one function below;
// RegisterLibraryOps (library_ops.cc) calls them all.
#pragma once

#include "interp/op_registry.h"

namespace vkhlo::interp {

void RegisterDotOps(OpRegistry& registry);          // dot_general, dot (library_dot.cc)
void RegisterConvolutionOps(OpRegistry& registry);  // convolution (library_convolution.cc)
void RegisterFftOps(OpRegistry& registry);          // fft (library_fft.cc)
void RegisterLinalgOps(OpRegistry& registry);       // triangular_solve, cholesky (library_linalg.cc)
void RegisterBatchNormOps(OpRegistry& registry);    // batch_norm_* (library_batch_norm.cc)

}  // namespace vkhlo::interp
