// What profiles say about compiled kernels and ops (profile_describe.h), made by the compiler
// from the IR: the runtime reads it from the plan (plan::KernelProfile) and never sees the IR.
#include <fmt/format.h>

#include "runtime/profile_describe.h"

namespace vkhlo::runtime {

std::string DescribeOp(const ir::Module& module, const ir::Operation& op) {
  return fmt::format("{} at {}", op.name(), ir::FormatLocation(module.source_name(), op.location()));
}

std::string KernelClass(const ir::Operation* device_op) {
  if (device_op == nullptr) return "loop fusion";
  switch (device_op->code()) {
    case ir::OpCode::kDot:
    case ir::OpCode::kDotGeneral:
      return "matmul";
    case ir::OpCode::kConvolution:
      return "convolution";
    case ir::OpCode::kReduce:
      return "reduction";
    default:
      break;
  }
  // The op's own name without its dialect: "sort", "scatter", "reduce_window", "cholesky", ...
  std::string name(device_op->name());
  const size_t dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

KernelProfile DescribeKernel(const ir::Module& module, const codegen::Fusion& fusion, std::string loop_config,
                             std::string detail) {
  KernelProfile info;
  info.detail = std::move(detail);
  info.kernel = fusion.name;
  info.kernel_class = KernelClass(fusion.device_op);
  info.config = std::move(loop_config);
  for (const ir::Operation* op : fusion.ops) info.fused_ops.push_back(DescribeOp(module, *op));
  // A device kernel's time is its op's; a loop fusion's is charged to its last op (a root).
  const ir::Operation* charged = fusion.device_op;
  if (charged == nullptr && !fusion.ops.empty()) charged = fusion.ops.back();
  info.source_op = charged != nullptr ? DescribeOp(module, *charged) : fusion.name;
  return info;
}

}  // namespace vkhlo::runtime
