// The attributes of a stablehlo.convolution, read and checked once (shared by the implicit-GEMM
// normalization and the direct depthwise kernel). Defaults as the spec: strides and dilations
// 1, padding 0, no reversal, one group.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/library/matmul_problem.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen::library {

struct ConvParams {
  std::string what;  // DescribeOp plus the types, for messages
  ir::ConvDimensionNumbers dn;
  std::vector<int64_t> lhs_dims, rhs_dims, out_dims;
  ir::ElementType lhs_type, rhs_type, out_type;
  std::vector<int64_t> strides, pad_low, pad_high, lhs_dilation, rhs_dilation;
  std::vector<bool> reversal;
  int64_t feature_groups = 1, batch_groups = 1;
  int64_t out_batch = 0;               // output batch size (input batch / batch_groups)
  int64_t in_features_per_group = 0;   // the kernel's input feature size
  int64_t out_features = 0;            // the kernel's output feature size
  // ir::kQuantizedTypesAttribute read (quantized.h): channels are the output features.
  std::optional<QuantizedContraction> quant;

  size_t spatial() const { return strides.size(); }
};

StatusOr<ConvParams> ReadConvParams(const ir::Operation& op);

// The implicit GEMM of the convolution (NormalizeConvolution without the op).
StatusOr<MatmulProblem> ConvolutionAsMatmul(const ConvParams& params);

}  // namespace vkhlo::codegen::library
