// Shared GLSL for the linear-algebra kernels (triangular_solve.cc, cholesky.cc): the arithmetic
// type they work in and typed access to inputs, outputs and a scratch workspace.
//
// As the interpreter (src/interp/library_linalg.cc), they compute in f32 for f32 and narrower
// floats, f64 for f64, and complex<f32>/complex<f64> likewise; `T` is float, double, vec2 or
// dvec2. Functions defined (W: words per T):
//   T load_in<i>(uint l)       element l of input binding i, converted to T
//   RAW store_out(T v)         T rounded to the result's element type, as storage bits
//   T ws_ld(uint i) / void ws_st(uint i, T v)   the workspace (binding `ws`), in T units
//   T t_fma(T acc, T a, T b)   acc + a * b: fused for reals (fma), the interpreter's MulAdd for complex
//   T t_muladd(T acc, T a, T b) acc + a * b rounded twice (products then sums)
//   T t_div(T a, T b)          correctly rounded (hlo_divide / hlo_complex_divide)
//   T t_conj(T a), t_zero(), t_one(), T t_real(real r), real t_re(T a)
#pragma once

#include <string>
#include <vector>

#include "codegen/device_kernel.h"

namespace vkhlo::codegen {

struct LinalgSource {
  std::string T;          // "float", "double", "vec2", "dvec2"
  std::string real;       // "float" or "double"
  int words = 1;          // per T in the workspace
  std::vector<std::string> extensions;
  std::string globals;    // after the bindings (expects macros in<i>, ws and result_words defined)
  int out_storage_bits = 32;
  std::string out_raw;    // "uint", "uvec2", "uvec4"
};

// For `op` (triangular_solve or cholesky) whose kernel binds `inputs` as in<i>: fails with the
// missing-feature error when the device cannot compute in the type.
StatusOr<LinalgSource> EmitLinalgPrelude(const ir::Operation& op, const std::vector<const ir::Value*>& inputs,
                                         const ir::Value* output, const TargetInfo& target,
                                         const KernelOptions& options);

// The final dispatch body: out = X (workspace words [x_offset, ...) per batch item of
// `per_batch` T units, `n` elements per item, `batch` items), packing narrow elements per word;
// `keep`: the KeepBindingsStatement. Workgroups of 64.
std::string LinalgWriteOut(const LinalgSource& s, int64_t batch, int64_t n, uint64_t per_batch, uint64_t x_offset,
                           const std::string& keep);

// The same with the element function given: `x_at` defines `T x_at(uint l)` (element l of the
// `total` result elements, row-major over the batch).
std::string LinalgWriteElements(const LinalgSource& s, int64_t total, const std::string& x_at, const std::string& keep);

// Accessors `T <prefix>_ld(uint i)` / `void <prefix>_st(uint i, T v)` of a `uint[]` binding
// named `buffer`, in T units (as ws_ld / ws_st for `ws`).
std::string LinalgAccessors(const LinalgSource& s, const std::string& prefix, const std::string& buffer);

}  // namespace vkhlo::codegen
