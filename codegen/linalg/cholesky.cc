// stablehlo.cholesky as a device kernel (lower or upper, batch dimensions, f32/f64/narrow
// floats/complex), blocked and left-looking with the interpreter's rounding: the algorithm is
// shaders/linalg/cholesky.comp (per block column an update and a panel dispatch, or one
// invocation per matrix for small ones, then the result written; bit for bit the interpreter's).
// This file chooses the variant, the workspace (the factor in the arithmetic type, column-major
// per matrix) and the grids. Every step's dispatches share their GLSL (the step's columns are
// push words): three pipelines in all, whatever the size.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/device_kernel.h"
#include "codegen/fixed_kernel.h"
#include "codegen/linalg/linalg_glsl.h"

namespace vkhlo::codegen {
namespace {

constexpr uint32_t kGroup = 64;
constexpr int64_t kSmall = 16;  // matrices up to this size: one invocation each
// NB, the columns of one step (the diagonal block is NB x NB): 64 for f32 arithmetic, 32 for
// the wider types (whose 8 x 8 tiles of complex or double accumulators would make large
// shaders, slow to compile).
int64_t BlockColumns(bool vec) { return vec ? 64 : 32; }

StatusOr<DeviceKernel> EmitCholesky(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  const ir::Operation& op = *fusion.device_op;
  const ir::Type& at = op.operand(0)->type();
  const int64_t rank = at.rank();
  if (rank < 2) return InvalidArgumentError(fmt::format("'{}' needs an operand of rank >= 2", op.name()));
  const ir::Attribute* lower_attr = op.attribute("lower");
  const bool lower = lower_attr != nullptr && lower_attr->AsBool().value_or(false);
  const int64_t m = at.dims()[static_cast<size_t>(rank - 1)];
  int64_t batch = 1;
  for (int64_t d = 0; d + 2 < rank; ++d) batch *= at.dims()[static_cast<size_t>(d)];
  const ir::Value* out = fusion.outputs.at(0);
  VKHLO_ASSIGN_OR_RETURN(LinalgSource src, EmitLinalgPrelude(op, fusion.inputs, out, target, options));
  const int64_t n = m * m;
  const bool empty = batch * n == 0;
  // The workspace: per matrix, m columns of LD elements (m rounded up to 8, so that an f32
  // column's start is 32-byte aligned for the update's vector reads).
  const bool vec = src.T == "float";
  const int64_t ld = (m + 7) / 8 * 8;
  const uint64_t ws_bytes = static_cast<uint64_t>(batch * ld * m) * static_cast<uint64_t>(src.words) * 4;
  // Beyond the range, the runtime reaches the workspace by its device address where it can.
  if (ws_bytes > target.max_storage_buffer_range && !target.buffer_device_address) {
    return ResourceExhaustedError(fmt::format(
        "'{}' on {} needs a {}-byte workspace, more than the device's maxStorageBufferRange = {}, and the device "
        "lacks bufferDeviceAddress", op.name(),
        at.ToString(), ws_bytes, target.max_storage_buffer_range));
  }
  const int64_t kBlock = BlockColumns(vec);
  const int64_t blocks = (m + kBlock - 1) / kBlock;
  if (batch > 65535) {
    return ResourceExhaustedError(fmt::format("'{}' on {}: more than 65535 matrices", op.name(), at.ToString()));
  }

  DeviceKernel k;
  k.summary = fmt::format("cholesky ({}) of {} items of {}x{}, blocked left-looking ({} blocks of {} columns)",
                          lower ? "lower" : "upper", batch, m, m, blocks, kBlock);
  k.scratch_bytes = {std::max<uint64_t>(4, ws_bytes)};
  k.binding_alignment = 16;  // the update's uvec4 view
  const size_t num_inputs = fusion.inputs.size();
  std::vector<KernelBuffer> bindings;
  for (const ir::Value* v : fusion.inputs) bindings.push_back(KernelBuffer::Read(v));
  bindings.push_back(KernelBuffer::Scratch(0, true));
  // The variant: sizes, binding names and the element functions; each pass adds its flag.
  FixedKernelSource base;
  base.file = "linalg/cholesky.comp";
  for (size_t i = 0; i < num_inputs; ++i) base.NameBinding(fmt::format("in{}", i), i);
  base.NameBinding("ws", num_inputs)
      .NameBinding("result_words", num_inputs + 1)
      .DefineUint("M", static_cast<uint64_t>(m))
      .DefineUint("LD", static_cast<uint64_t>(ld))
      .Define("LOWER", lower ? "true" : "false")
      .DefineUint("NB", static_cast<uint64_t>(kBlock))
      .DefineUint("BATCH", static_cast<uint64_t>(batch))
      .DefineUint("GROUP", kGroup)
      .DefineUint("TOTAL", static_cast<uint64_t>(batch * n))
      .DefineFlag("CHOL_VEC", vec)
      // A single block has nothing to update (and its shader compiles faster without).
      .DefineFlag("CHOL_UPDATE_TILES", blocks > 1);
  AddLinalgTypes(src, target, base);
  base.Describe(fusion.name, op, options.source_name).Config(k.summary);

  const std::string push = "uint j0; uint j1;";
  // The update's uvec4 view of the workspace.
  const std::string ws_view =
      vec ? fmt::format("layout(set = 0, binding = {}) restrict buffer WsVec {{ uvec4 wsv[]; }};\n", num_inputs) : "";
  // Small matrices (m <= kSmall): one invocation per matrix, column by column without
  // barriers (a workgroup per matrix would spend its time at them).
  const bool small = m <= kSmall;
  std::string update_glsl, panel_glsl, small_glsl;
  if (small) {
    VKHLO_ASSIGN_OR_RETURN(small_glsl, LinalgPassGlsl(base, src, "CHOL_SMALL", bindings, {kGroup, 1, 1}, push));
  } else {
    VKHLO_ASSIGN_OR_RETURN(update_glsl, LinalgPassGlsl(base, src, "CHOL_UPDATE", bindings, {8, 8, 1}, push, ws_view));
    VKHLO_ASSIGN_OR_RETURN(panel_glsl, LinalgPassGlsl(base, src, "CHOL_PANEL", bindings, {kGroup, 1, 1}, push));
  }
  if (small && !empty) {
    KernelDispatch d;
    d.name = fusion.name + ".cholesky_small";
    d.summary = "cholesky, one invocation per matrix";
    d.bindings = bindings;
    d.glsl = small_glsl;
    d.grid = {static_cast<uint32_t>((batch + kGroup - 1) / kGroup), 1, 1};
    d.push_words = {0, static_cast<uint32_t>(m)};
    k.dispatches.push_back(std::move(d));
  }
  for (int64_t jb = 0; jb < blocks && !empty && !small; ++jb) {
    const uint32_t j0 = static_cast<uint32_t>(jb * kBlock), j1 = static_cast<uint32_t>(std::min(m, (jb + 1) * kBlock));
    auto dispatch = [&](const char* what, const std::string& glsl, std::array<uint32_t, 3> grid) {
      KernelDispatch d;
      d.name = fusion.name + ".cholesky_" + what;
      d.summary = fmt::format("cholesky {} of columns {}..{}", what, j0, j1);
      d.bindings = bindings;
      d.glsl = glsl;
      d.grid = grid;
      d.push_words = {j0, j1};
      k.dispatches.push_back(std::move(d));
    };
    const uint32_t b = static_cast<uint32_t>(batch);
    // The first step has nothing to update: its one workgroup per matrix factors the block.
    dispatch("update", update_glsl,
             {j0 == 0 ? 1u : static_cast<uint32_t>((m - j0 + kBlock - 1) / kBlock), 1, b});
    if (j1 < m) dispatch("panel", panel_glsl, {static_cast<uint32_t>((m - j1 + kGroup - 1) / kGroup), b, 1});
  }

  KernelDispatch write;
  write.name = fusion.name + ".write";
  write.summary = k.summary;
  write.bindings = bindings;
  write.bindings.push_back(KernelBuffer::Write(out));
  const uint32_t per = src.out_storage_bits < 32 ? static_cast<uint32_t>(32 / src.out_storage_bits) : 1;
  write.grid = {static_cast<uint32_t>(((batch * n + per - 1) / per + kGroup - 1) / kGroup), 1, 1};
  VKHLO_ASSIGN_OR_RETURN(write.glsl, LinalgPassGlsl(base, src, "CHOL_WRITE", write.bindings, {kGroup, 1, 1}, ""));
  k.dispatches.push_back(std::move(write));
  return k;
}

bool AcceptsCholesky(const ir::Operation& op) { return op.num_operands() == 1 && op.num_results() == 1; }

}  // namespace

void RegisterTriangularSolveKernel(DeviceKernelTable& table);

void RegisterLinalgKernels(DeviceKernelTable& table) {
  RegisterTriangularSolveKernel(table);
  table.Register(ir::OpCode::kCholesky, {&EmitCholesky, &AcceptsCholesky});
}

}  // namespace vkhlo::codegen
