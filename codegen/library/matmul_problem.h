// The normalized form every library matmul kernel computes:
//
//   C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]      (b < batch, m < M, n < N, k < K)
//
// with A and B read in place through index functions (no transposed or im2col copies) and C
// written through an affine map. dot_general (any batching/contracting dimensions, several of
// each, any order) and convolution (implicit GEMM: the im2col index is computed on the fly) both
// normalize to it; see dot_general.cc and convolution.cc.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/library/element_io.h"
#include "codegen/library/index_map.h"
#include "codegen/library/quantized.h"
#include "codegen/target.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen::library {

// How one operand is read. A is indexed (b, row = m, col = k); B is indexed (b, row = k, col = n).
struct OperandAccess {
  // Affine operands: element offset = batch.Offset(b) + rows.Offset(r) + cols.Offset(c).
  bool affine = true;
  AxisMap batch, rows, cols;
  // Non-affine operands (convolution inputs): GLSL statements computing `uint idx` and
  // `bool valid` from `uint b, r, c` (an invalid element reads as zero: padding, dilation holes).
  std::string custom_index;
  // Vector runs: the largest power of two v <= 8 such that every aligned run of v consecutive
  // column (row) indices reads v consecutive elements starting at a multiple of v, all valid or
  // all invalid together. 1: no vector loads along that axis.
  int col_run = 1, row_run = 1;
  // The operand's element count (0: unknown). Texel-buffer views (KernelWriter::DeclareTexelView)
  // need it to stay within the device's maxTexelBufferElements.
  int64_t elements = 0;
  // Non-affine operands whose index separates into a row part and a column part (convolution
  // inputs without lhs dilation, at most 4 spatial dimensions): element index = row base +
  // column base, valid when every spatial position (row pos + column pos) lies in
  // [0, split_bounds). `split_row`: GLSL statements setting `int base; ivec4 pos` from
  // `uint b, r`; `split_col`: the same from `uint c`. Kernels compute the row part once per row
  // and the column part once per k, instead of the custom index's divisions per element.
  // Empty: not separable.
  std::string split_row, split_col;
  std::array<int64_t, 4> split_bounds = {1, 1, 1, 1};
};

struct MatmulProblem {
  std::string what;  // "stablehlo.dot_general at 3:5 (tensor<...> x tensor<...>)": for messages
  int64_t batch = 1, m = 1, n = 1, k = 1;
  ir::ElementType a_type = ir::ElementType::kF32, b_type = ir::ElementType::kF32;
  ir::ElementType c_type = ir::ElementType::kF32;  // the op's result element type
  AccKind acc = AccKind::kF32;
  OperandAccess a, b;
  // Output element offset = c_batch.Offset(b) + c_rows.Offset(m) + c_cols.Offset(n).
  AxisMap c_batch, c_rows, c_cols;
  std::vector<int64_t> result_dims;  // the op's result shape (epilogue broadcasts use it)
  // dot_general: how many of result_dims are batch dims, and lhs free dims (rows) after them.
  int64_t result_batch_dims = 0, result_row_dims = 0;
  // Set by StoreTransposed: the product's own row-major maps (c_* then describe the stored
  // transpose), by which the epilogue's inputs are indexed.
  std::optional<std::array<AxisMap, 3>> product_maps;
  // Set by GroupColumns (Epilogue::groups): the kernel's column n < N = groups * width is the
  // product's column g * stride + jb * per_block + jj for n = (jb * groups + g) * per_block + jj,
  // so a tile of groups * per_block columns holds the same per_block columns of every group.
  // B's column map reads that order; product_maps index the product's element (b, m, n); the
  // c_* maps place the stored roots' element (b, m, j) of [batch, M, width].
  struct GroupedColumns {
    int64_t groups = 1, width = 0, stride = 0, per_block = 1;
  };
  std::optional<GroupedColumns> grouped;
  // Set for an op with ir::kQuantizedTypesAttribute (quantized.h): a_type / b_type / c_type
  // are then the storage types, `acc` i32 (integer path) or the expressed type's (hybrid).
  std::optional<QuantizedContraction> quant;

  int64_t flops() const { return 2 * batch * m * n * k; }
  bool empty() const { return batch == 0 || m == 0 || n == 0; }
};

// dot_general (and the legacy dot) as a MatmulProblem: batch = the batching dims (in lhs
// order), M = lhs free dims, N = rhs free dims, K = the contracting dims (pairs in order). The
// result is [batch..., lhs free..., rhs free...], so C is row-major [B, M, N].
StatusOr<MatmulProblem> NormalizeDotGeneral(const ir::Operation& op);
// The result maps of `p` (from NormalizeDotGeneral) for storing transpose(result, permutation)
// instead of the result (Epilogue::store_permutation).
Status StoreTransposed(MatmulProblem& p, const std::vector<int64_t>& permutation);

// The maps of `p` (from NormalizeDotGeneral, one rhs free dimension) for computing its columns
// in column groups of `per_block` (MatmulProblem::grouped) and storing roots of `width` columns.
Status GroupColumns(MatmulProblem& p, int64_t groups, int64_t width, int64_t stride, int64_t per_block);

// convolution as an implicit GEMM per group (feature_group_count or batch_group_count):
// batch = groups, M = output batch x output spatial, N = output features per group,
// K = window positions x input features per group (features innermost, the interpreter's order).
StatusOr<MatmulProblem> NormalizeConvolution(const ir::Operation& op);

// Sets col_run / row_run of an affine operand from its maps.
void SetVectorRuns(OperandAccess& x);

// "'stablehlo.dot_general'" (messages; the runtime prefixes "file:line:col: error: ").
std::string DescribeOp(const ir::Operation& op);

}  // namespace vkhlo::codegen::library
