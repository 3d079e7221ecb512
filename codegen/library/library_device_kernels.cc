// dot_general, dot and convolution as device kernels (device_kernel.h): the library's plans
// (library_kernel.h) adapted to what the runtime records.
//
// A LibraryPlan names its buffers by role; here they become the fusion's values:
//   kOperand i        -> the op's operand i (a fusion input)
//   kEpilogueInput i  -> MatchEpilogue's input i (a fusion input: the bias before its broadcast)
//   kResult           -> the fusion's one output (the op's result, or the end of the absorbed chain)
//   kScratch i        -> DeviceKernel scratch buffer i (split-K partial sums, a quantized
//                        contraction's per-channel table)
// Plans read operands as 32-byte vectors, hence binding_alignment = 32 (the runtime binds such
// kernels' buffers whole: the allocator rounds every buffer up to its 32-byte alignment).
//
// Epilogue fusion is opt-in through `absorb_epilogue`: the fusion planner asks which
// element-wise ops after the op the kernel computes itself (MatchEpilogue's chain: bias add,
// relu, scale, convert), and the emitter re-derives the same Epilogue from the Fusion's ops.
#include <fmt/format.h>

#include "codegen/device_kernel.h"
#include "codegen/library/epilogue_match.h"
#include "codegen/library/library_kernel.h"

namespace vkhlo::codegen {
namespace {

using library::BufferRole;
using library::LibraryPlan;

StatusOr<LibraryPlan> Plan(const ir::Operation& op, const TargetInfo& target, const library::Epilogue& epilogue,
                           const std::string& name) {
  library::PlanOptions options;
  options.name = name;
  if (op.code() == ir::OpCode::kConvolution) return library::PlanConvolution(op, target, epilogue, options);
  return library::PlanDotGeneral(op, target, epilogue, options);
}

// The epilogue the fusion's ops after the device op stand for (the chain absorb_epilogue chose).
StatusOr<library::FusedEpilogue> EpilogueOf(const Fusion& fusion) {
  const ir::Operation& op = *fusion.device_op;
  library::FusedEpilogue none;
  none.result = op.result(0);
  if (fusion.ops.size() <= 1) return none;
  if (op.parent_block() == nullptr) return InternalError(fmt::format("{}: epilogue without a block", fusion.name));
  library::FusedEpilogue match = library::MatchEpilogue(*op.parent_block(), op);
  std::vector<const ir::Operation*> chain(fusion.ops.begin() + 1, fusion.ops.end());
  if (match.fused != chain) {
    return InternalError(fmt::format("{}: the fused ops are not the epilogue {} can absorb", fusion.name, op.name()));
  }
  return match;
}

StatusOr<DeviceKernel> EmitLibrary(const Fusion& fusion, const TargetInfo& target, const KernelOptions&) {
  const ir::Operation& op = *fusion.device_op;
  VKHLO_ASSIGN_OR_RETURN(library::FusedEpilogue epilogue, EpilogueOf(fusion));
  if (fusion.outputs.size() != 1 || fusion.outputs[0] != epilogue.result) {
    return InternalError(fmt::format("{}: expected one output, the result of its last fused op", fusion.name));
  }
  VKHLO_ASSIGN_OR_RETURN(LibraryPlan plan, Plan(op, target, epilogue.epilogue, fusion.name));
  DeviceKernel kernel;
  kernel.summary = plan.summary;
  for (size_t i = 1; i < fusion.ops.size(); ++i) kernel.summary += "\n  epilogue " + std::string(fusion.ops[i]->name());
  kernel.scratch_bytes = plan.scratch_bytes;
  kernel.binding_alignment = plan.binding_alignment;
  for (library::LibraryDispatch& d : plan.dispatches) {
    KernelDispatch dispatch;
    dispatch.name = d.name;
    dispatch.glsl = std::move(d.glsl);
    dispatch.grid = d.grid;
    dispatch.required_subgroup_size = d.required_subgroup_size;
    dispatch.config = plan.config.name;
    // The product's FLOPs belong to the dispatch that multiplies: not the operand packs before
    // it (".pack_a/b") nor split-K's sum of slices after it.
    const bool product = d.name.find(".pack_") == std::string::npos && d.name.find(".split_k_reduce") == std::string::npos &&
                         d.name.find(".quant_constants") == std::string::npos;
    if (product) dispatch.flops = static_cast<uint64_t>(plan.problem.flops());
    for (const library::BufferRef& ref : d.bindings) {
      const size_t i = static_cast<size_t>(ref.index);
      switch (ref.role) {
        case BufferRole::kOperand:
          if (i >= op.num_operands()) return InternalError(fmt::format("{}: operand {} out of range", d.name, i));
          dispatch.bindings.push_back(KernelBuffer::Read(op.operand(i)));
          break;
        case BufferRole::kEpilogueInput:
          if (i >= epilogue.inputs.size()) return InternalError(fmt::format("{}: epilogue input {} out of range", d.name, i));
          dispatch.bindings.push_back(KernelBuffer::Read(epilogue.inputs[i]));
          break;
        case BufferRole::kResult:
          dispatch.bindings.push_back(KernelBuffer::Write(epilogue.result));
          break;
        case BufferRole::kScratch:
          dispatch.bindings.push_back(KernelBuffer::Scratch(ref.index, ref.written));
          break;
      }
      // A read-write binding of a value (none today) keeps the plan's flag.
      dispatch.bindings.back().written = dispatch.bindings.back().written || ref.written;
    }
    kernel.dispatches.push_back(std::move(dispatch));
  }
  return kernel;
}

// The chain MatchEpilogue finds, when the plan takes it (an epilogue in a type the device lacks,
// or one binding too many buffers, leaves the ops to loop kernels).
bool AbsorbEpilogue(const ir::Operation& op, const TargetInfo& target, std::vector<const ir::Operation*>& ops,
                    std::vector<const ir::Value*>& inputs) {
  if (op.parent_block() == nullptr) return false;
  library::FusedEpilogue match = library::MatchEpilogue(*op.parent_block(), op);
  if (match.fused.empty()) return false;
  if (!Plan(op, target, match.epilogue, "probe").ok()) return false;
  ops = match.fused;
  inputs = match.inputs;
  return true;
}

}  // namespace

void RegisterLibraryKernels(DeviceKernelTable& table) {
  const DeviceKernelEmitter emitter{&EmitLibrary, nullptr, &AbsorbEpilogue};
  table.Register(ir::OpCode::kDotGeneral, emitter);
  table.Register(ir::OpCode::kDot, emitter);
  table.Register(ir::OpCode::kConvolution, emitter);
}

}  // namespace vkhlo::codegen
