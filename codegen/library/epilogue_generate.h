// The epilogue's GLSL (epilogue.h): the elemental emitter — the
// generator loop kernels use — evaluates the subgraph from the product to the root at the
// result element's row-major index, so every op rounds to its result type exactly as it does
// unfused (XLA's architecture: one element generator feeds loop fusions and the epilogues of
// dot emitters).
#pragma once

#include <string>
#include <vector>

#include "codegen/library/epilogue.h"
#include "codegen/target.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen::library {

// Slots of column values (Epilogue::column_values) a kernel holds: the distinct columns of the
// elements one StoreTile stores.
inline constexpr int kColumnValueSlots = 64;

struct GeneratedEpilogueGlsl {
  std::vector<std::string> extensions;  // besides GL_GOOGLE_include_directive
  std::vector<std::string> includes;    // GLSL library files
  std::string helpers;                  // helper functions and globals the body calls
  std::string function;                 // the epilogue function
  // Whether the epilogue itself (not the column values' fill) calls the GLSL library.
  bool element_calls = false;
};

// With column values the helpers define `hlo_cv_fill(uint slot, uint b, uint m, uint n)`, which
// the caller runs for the element's column before the epilogue, with `hlo_cv_slot` = slot.
//
// `<final_glsl> epilogue(<acc_glsl> acc, uint b, uint m, uint n)`, which calls
// `round_result(acc)` (the product rounded to its type, in `product_glsl`) and
// `product_index(b, m, n)` (the product's row-major index), and reads epilogue input i from the
// `uint[]` buffer member `in<i>`. `final_glsl`: the type the result's store takes.
StatusOr<GeneratedEpilogueGlsl> GenerateEpilogueGlsl(const Epilogue& g, const TargetInfo& target,
                                                     const std::string& acc_glsl, const std::string& product_glsl,
                                                     const std::string& final_glsl);

// Column groups (Epilogue::groups): `epilogue` as above for g.root (the value the slices read,
// returned as `sliced_glsl`), and `void store_group(uint b, uint m, uint j, <sliced_glsl> x0,
// ...)`, which computes every root at the element `out_index(b, m, j)` of the roots' shape from
// the slices' values x<s> there (the stage-one epilogue's results) and the inputs, and stores
// root r through `st_c<r>` (`st_c` for root 0) as `root_glsl[r]`.
StatusOr<GeneratedEpilogueGlsl> GenerateGroupedEpilogueGlsl(const Epilogue& g, const TargetInfo& target,
                                                            const std::string& acc_glsl, const std::string& product_glsl,
                                                            const std::string& sliced_glsl,
                                                            const std::vector<std::string>& root_glsl);

// Epilogue::scalars: `void hlo_store_scalars()`, which computes each from the inputs and stores
// scalar i through `st_s<i>(0u, value)` as `scalar_glsl[i]`.
StatusOr<GeneratedEpilogueGlsl> GenerateScalarsGlsl(const Epilogue& g, const TargetInfo& target,
                                                    const std::vector<std::string>& scalar_glsl);

}  // namespace vkhlo::codegen::library
