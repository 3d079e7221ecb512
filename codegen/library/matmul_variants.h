// The variant emitters of the matmul family. Each writes one dispatch (GLSL, workgroup size,
// grid, bindings); PlanMatmul (library.cc) picks and combines them.
#pragma once

#include <string>

#include "codegen/library/epilogue.h"
#include "codegen/library/library_kernel.h"
#include "codegen/library/matmul_problem.h"
#include "codegen/library/tile_config.h"
#include "codegen/target.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen::library {

// The device can run `p` with epilogue `e`: element types and features, storage-buffer count.
Status CheckPlanSupport(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t);

// With split > 1 the kernel sums K slice `wg.z % split` and writes partial sums to scratch;
// EmitSplitKReduce then adds the slices in order and applies the epilogue.
StatusOr<LibraryDispatch> EmitRegisterTiled(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                            const TileConfig& c, uint32_t split, const std::string& name);
StatusOr<LibraryDispatch> EmitSharedTiled(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                          const TileConfig& c, uint32_t split, const std::string& name);
StatusOr<LibraryDispatch> EmitDotPerOutput(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                           const TileConfig& c, const std::string& name);
StatusOr<LibraryDispatch> EmitCooperativeMatrix(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                                const TileConfig& c, const std::string& name);
StatusOr<LibraryDispatch> EmitSplitKReduce(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                           uint32_t split, const std::string& name);

// The packed matmul for CPU drivers (matmul_packed.cc): panel sizes of `p` under config `c`.
struct PackedShape {
  uint32_t lanes = 8, tm = 8;  // subgroup lanes (4 columns each), rows per invocation
  int64_t row_groups = 0;      // texels of A along M (4 rows each), padded to a multiple of tm
  int64_t panels = 0;          // B panels of 4 * lanes columns
  int64_t kp = 0;              // K padded to a multiple of lanes
  uint64_t a_texels = 0, b_texels = 0;
};
PackedShape PackedShapeOf(const MatmulProblem& p, const TileConfig& c);
// The device offers what the kernel uses (rgba32f texel buffers, shuffles, subgroup = wg_x).
bool PackedFits(const TileConfig& c, const TargetInfo& t, std::string* why);
// The problem suits it: f32 accumulation of float operands read affinely, panels within limits.
bool PackedApplies(const MatmulProblem& p, const TileConfig& c, const TargetInfo& t, std::string* why);
// Whether the product can read B in place (TileConfig::direct_b): an f32 B whose columns run in
// aligned fours (the panel texels are texels of B), K a multiple of the lanes (no padded k) and
// B's texel view within the device's limits.
bool PackedDirectB(const MatmulProblem& p, const TileConfig& c, const TargetInfo& t);
// Copies operand `x` ('a' or 'b') into its panels (scratch 0 or 1).
StatusOr<LibraryDispatch> EmitPackOperand(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                          const TileConfig& c, char x, const std::string& name);
// The product of the panels with the epilogue.
StatusOr<LibraryDispatch> EmitPackedProduct(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                            const TileConfig& c, const std::string& name);

// The packed integer path (matmul_dot4.cc): GLSL functions q_word_a(b, m, k, count) and
// q_word_b(b, k, n, count) packing four raw values from k (positions from k + count on pack as
// 0), q_word4_a / q_word4_b packing all four, for a kernel declared with p.quant->dot4; and the zero-point correction of accumulator
// `c` from the sums of the raw values of its row and column over `count` values of k.
std::string Dot4Functions(const MatmulProblem& p);
std::string Dot4Correct(const std::string& c, const std::string& sum_a, const std::string& sum_b,
                        const std::string& zb, const std::string& count, int32_t za);

// K = 0: writes the epilogue of zero to every output (the operands are not bound).
StatusOr<LibraryDispatch> EmitZeroContraction(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                              const std::string& name);

// The K range of split slice `s` (a GLSL expression pair): slices are multiples of `unroll`.
int64_t SplitKChunk(int64_t k, uint32_t split, uint32_t unroll);

}  // namespace vkhlo::codegen::library
