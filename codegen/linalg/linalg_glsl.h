// The generated half of the linear-algebra kernels (triangular_solve.cc, cholesky.cc; the
// algorithms are shaders/linalg/*.comp): typed access to the inputs and the result through the
// elemental emitter, and the defines of the arithmetic type (shaders/linalg/linalg_types.glsl).
//
// As the interpreter (src/interp/library_linalg.cc), they compute in f32 for f32 and narrower
// floats, f64 for f64, and complex<f32>/complex<f64> likewise; `T` is float, double, vec2 or
// dvec2. Generated functions:
//   T load_in<i>(uint l)       element l of input binding i (named in<i>), converted to T
//   RAW store_out(T v)         T rounded to the result's element type, as storage bits
#pragma once

#include <string>
#include <vector>

#include "codegen/device_kernel.h"
#include "codegen/fixed_kernel.h"

namespace vkhlo::codegen {

struct LinalgSource {
  std::string T;          // "float", "double", "vec2", "dvec2"
  std::string real;       // "float" or "double"
  bool complex = false;
  bool wide = false;      // f64 / c128
  int words = 1;          // per T in a workspace
  std::vector<std::string> extensions;
  std::string generated;  // includes, helpers, load_in<i>, store_out (after the bindings)
  int out_storage_bits = 32;
  std::string out_raw;    // "uint", "uvec2", "uvec4"
};

// For `op` (triangular_solve or cholesky) whose kernel binds `inputs` as in<i>: fails with the
// missing-feature error when the device cannot compute in the type.
StatusOr<LinalgSource> EmitLinalgPrelude(const ir::Operation& op, const std::vector<const ir::Value*>& inputs,
                                         const ir::Value* output, const TargetInfo& target,
                                         const KernelOptions& options);

// The defines linalg_types.glsl and linalg_write.glsl read (T, R, LINALG_COMPLEX, LINALG_WIDE,
// HAS_FLOAT64, OUT_RAW, OUT_STORAGE_BITS) and the generated functions, into `kernel`.
void AddLinalgTypes(const LinalgSource& s, const TargetInfo& target, FixedKernelSource& kernel);

// The GLSL of one pass of a linear-algebra kernel: `base` (the variant, with AddLinalgTypes)
// with `pass` defined to 1 and `views` (extra binding declarations) before the generated code.
StatusOr<std::string> LinalgPassGlsl(const FixedKernelSource& base, const LinalgSource& s, const char* pass,
                                     const std::vector<KernelBuffer>& bindings, std::array<uint32_t, 3> workgroup_size,
                                     const std::string& push_fields, const std::string& views = "");

}  // namespace vkhlo::codegen
