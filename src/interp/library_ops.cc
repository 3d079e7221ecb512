// Library ops: matrix products, convolution, FFT, triangular solve, Cholesky, batch norm.
#include "interp/library_ops.h"

namespace vkhlo::interp {

void RegisterLibraryOps(OpRegistry& registry) {
  RegisterDotOps(registry);
  RegisterConvolutionOps(registry);
  RegisterFftOps(registry);
  RegisterLinalgOps(registry);
  RegisterBatchNormOps(registry);
}

}  // namespace vkhlo::interp
