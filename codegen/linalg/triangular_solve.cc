// stablehlo.triangular_solve as a device kernel: every option (left_side, lower,
// unit_diagonal, transpose_a NO_TRANSPOSE/TRANSPOSE/ADJOINT), batch dimensions, f32/f64/narrow
// floats/complex. The algorithm is the interpreter's (XLA's TriangularSolveExpander), written in
// shaders/linalg/triangular_solve.comp: the diagonal blocks inverted (one dispatch), op(a)
// prepared, then per block step a remainder and an apply dispatch of register tiles (the step is
// a push word, so every step shares their two pipelines), then the result written. This file
// chooses the variant, sizes the workspaces and the grids.
#include <fmt/format.h>

#include <algorithm>

#include "ir/op_attributes.h"
#include "codegen/device_kernel.h"
#include "codegen/fixed_kernel.h"
#include "codegen/linalg/linalg_glsl.h"

namespace vkhlo::codegen {
namespace {

constexpr int64_t kSolveBlock = 128;  // XLA's TriangularSolveExpander default, as the interpreter
constexpr uint32_t kGroup = 64;
// Register tiles of the remainder and apply dispatches (shaders/linalg/register_tile.glsl): a
// 16 x 4 workgroup, each invocation 4 x 4 elements: 16 rows by 64 columns per workgroup.
constexpr uint32_t kTileWx = 16, kTileWy = 4;

using ir::AttrBool;  // read as the interpreter reads them (ir/op_attributes.h)

int64_t RoundUp4(int64_t v) { return (v + 3) / 4 * 4; }

StatusOr<DeviceKernel> EmitTriangularSolve(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  const ir::Operation& op = *fusion.device_op;
  const ir::Type& at = op.operand(0)->type();
  const ir::Type& bt = op.operand(1)->type();
  const int64_t rank = at.rank();
  if (rank < 2 || bt.rank() != rank) return InvalidArgumentError(fmt::format("'{}' needs operands of rank >= 2", op.name()));
  const bool left = AttrBool(op, "left_side"), lower = AttrBool(op, "lower"), unit = AttrBool(op, "unit_diagonal");
  std::string transpose = "NO_TRANSPOSE";
  if (const ir::Attribute* a = op.attribute("transpose_a")) transpose = a->AsEnum("transpose").value_or(transpose);
  if (transpose != "NO_TRANSPOSE" && transpose != "TRANSPOSE" && transpose != "ADJOINT") {
    return InvalidArgumentError(fmt::format("'{}' has unknown transpose_a {}", op.name(), transpose));
  }
  const int64_t m = at.dims()[static_cast<size_t>(rank - 1)];
  const int64_t rows = bt.dims()[static_cast<size_t>(rank - 2)], cols = bt.dims()[static_cast<size_t>(rank - 1)];
  int64_t batch = 1;
  for (int64_t d = 0; d + 2 < rank; ++d) batch *= at.dims()[static_cast<size_t>(d)];
  const ir::Value* out = fusion.outputs.at(0);
  VKHLO_ASSIGN_OR_RETURN(LinalgSource src, EmitLinalgPrelude(op, fusion.inputs, out, target, options));

  const int64_t sb = std::min(m, kSolveBlock);
  const int64_t blocks = (m + kSolveBlock - 1) / kSolveBlock;
  const int64_t n = rows * cols;
  const bool empty = batch * n == 0 || m == 0;
  // Workspaces per batch item, in T units: per block its inverse (sb x sb) and op(inverse)
  // (sb rows of SP), the inversion's temporaries per block (scaled block, diagonal, row
  // update), one step's remainder, x (rows of XLD), op(a) (m rows of LDA). Rows that a tile
  // reads as vectors are padded to multiples of 4 elements (SP, XLD, LDA) and start 4-aligned.
  const bool vec = src.T == "float";
  const int64_t sp = RoundUp4(sb), xld = RoundUp4(cols), lda = RoundUp4(m);
  const int64_t inv_slot = RoundUp4(sb * sb) + sb * sp;
  const int64_t inv_per = blocks * inv_slot, tmp_per = blocks * (sb * sb + 2 * sb);
  const int64_t rem_ld = left ? xld : sp;
  const int64_t rem_per = left ? sb * xld : rows * sp, x_per = rows * xld, opa_per = m * lda;
  const std::vector<int64_t> per = {inv_per, tmp_per, rem_per, x_per, opa_per};
  DeviceKernel k;
  for (int64_t p : per) {
    const uint64_t bytes = static_cast<uint64_t>(batch * p) * static_cast<uint64_t>(src.words) * 4;
    // Beyond the range, the runtime reaches a workspace by its device address where it can.
    if (bytes > target.max_storage_buffer_range && !target.buffer_device_address) {
      return ResourceExhaustedError(fmt::format(
          "'{}' on {} and {} needs a {}-byte workspace, more than the device's maxStorageBufferRange = {}, and the "
          "device lacks bufferDeviceAddress", op.name(),
          at.ToString(), bt.ToString(), bytes, target.max_storage_buffer_range));
    }
    k.scratch_bytes.push_back(std::max<uint64_t>(4, bytes));
  }
  if (batch > 65535) {
    return ResourceExhaustedError(fmt::format("'{}' on {}: more than 65535 matrices", op.name(), at.ToString()));
  }

  auto index_of = [&](const ir::Value* v) { return std::find(fusion.inputs.begin(), fusion.inputs.end(), v) - fusion.inputs.begin(); };
  const size_t num_inputs = fusion.inputs.size();
  k.summary = fmt::format("triangular_solve of {} items: {}x{} a, {}x{} b, blocks of {} (inverted, as XLA), {} steps", batch,
                          m, m, rows, cols, sb, blocks);
  std::vector<KernelBuffer> bindings;
  for (const ir::Value* v : fusion.inputs) bindings.push_back(KernelBuffer::Read(v));
  for (int i = 0; i < 5; ++i) bindings.push_back(KernelBuffer::Scratch(i, true));
  // The variant: sizes, options, binding names and the element functions; each pass adds its flag.
  FixedKernelSource base;
  base.file = "linalg/triangular_solve.comp";
  for (size_t i = 0; i < num_inputs; ++i) base.NameBinding(fmt::format("in{}", i), i);
  // ws (x) is what the write dispatch reads; the others have accessors of their own.
  base.NameBinding("inv_buf", num_inputs)
      .NameBinding("tmp_buf", num_inputs + 1)
      .NameBinding("rem_buf", num_inputs + 2)
      .NameBinding("ws", num_inputs + 3)
      .NameBinding("opa_buf", num_inputs + 4)
      .NameBinding("result_words", num_inputs + 5)
      .DefineUint("M", static_cast<uint64_t>(m))
      .DefineUint("ROWS", static_cast<uint64_t>(rows))
      .DefineUint("COLS", static_cast<uint64_t>(cols))
      .DefineUint("SB", kSolveBlock)
      .DefineUint("SBS", static_cast<uint64_t>(sb))
      .DefineUint("BLOCKS", static_cast<uint64_t>(blocks))
      .DefineUint("BATCH", static_cast<uint64_t>(batch))
      .Define("LEFT", left ? "true" : "false")
      .Define("LOWER", lower ? "true" : "false")
      .Define("UNIT", unit ? "true" : "false")
      .Define("TRANS", transpose != "NO_TRANSPOSE" ? "true" : "false")
      .Define("CONJ", transpose == "ADJOINT" ? "true" : "false")
      .DefineUint("INV_PER", static_cast<uint64_t>(inv_per))
      .DefineUint("TMP_PER", static_cast<uint64_t>(tmp_per))
      .DefineUint("REM_PER", static_cast<uint64_t>(rem_per))
      .DefineUint("X_PER", static_cast<uint64_t>(x_per))
      .DefineUint("OPA_PER", static_cast<uint64_t>(opa_per))
      .DefineUint("SP", static_cast<uint64_t>(sp))
      .DefineUint("XLD", static_cast<uint64_t>(xld))
      .DefineUint("LDA", static_cast<uint64_t>(lda))
      .DefineUint("REM_LD", static_cast<uint64_t>(rem_ld))
      .DefineUint("INV_SLOT", static_cast<uint64_t>(inv_slot))
      .DefineUint("OPINV_OFF", static_cast<uint64_t>(RoundUp4(sb * sb)))
      .DefineUint("WG", kGroup)
      .DefineUint("GROUP", kGroup)
      .DefineUint("TOTAL", static_cast<uint64_t>(batch * n))
      .Define("load_a", fmt::format("load_in{}", index_of(op.operand(0))))
      .Define("load_b", fmt::format("load_in{}", index_of(op.operand(1))))
      .DefineFlag("TILE_VEC", vec);
  AddLinalgTypes(src, target, base);
  base.Describe(fusion.name, op, options.source_name).Config(k.summary);

  // uvec4 views of the workspaces the tiles read as vectors.
  std::string views;
  if (vec) {
    for (const char* v : {"inv", "rem", "x", "opa"}) {
      const size_t slot = std::string(v) == "inv" ? 0 : std::string(v) == "rem" ? 2 : std::string(v) == "x" ? 3 : 4;
      views += fmt::format("layout(set = 0, binding = {}) restrict buffer View_{} {{ uvec4 {}_vec[]; }};\n", num_inputs + slot,
                           v, v);
    }
    k.binding_alignment = 16;
  }
  VKHLO_ASSIGN_OR_RETURN(const std::string invert_glsl,
                         LinalgPassGlsl(base, src, "TRSM_INVERT", bindings, {kGroup, 1, 1}, ""));
  VKHLO_ASSIGN_OR_RETURN(const std::string prepare_glsl,
                         LinalgPassGlsl(base, src, "TRSM_PREPARE", bindings, {kGroup, 1, 1}, ""));
  VKHLO_ASSIGN_OR_RETURN(const std::string rem_glsl, LinalgPassGlsl(base, src, "TRSM_REMAINDER", bindings,
                                                                    {kTileWx, kTileWy, 1}, "uint step;", views));
  VKHLO_ASSIGN_OR_RETURN(const std::string apply_glsl, LinalgPassGlsl(base, src, "TRSM_APPLY", bindings,
                                                                      {kTileWx, kTileWy, 1}, "uint step;", views));

  const uint32_t b32 = static_cast<uint32_t>(batch);
  if (!empty) {
    KernelDispatch invert;
    invert.name = fusion.name + ".invert_blocks";
    invert.summary = "invert the diagonal blocks";
    invert.bindings = bindings;
    invert.glsl = invert_glsl;
    invert.grid = {static_cast<uint32_t>(blocks), b32, 1};
    k.dispatches.push_back(std::move(invert));
    KernelDispatch prepare;
    prepare.name = fusion.name + ".prepare_a";
    prepare.summary = "op(a)'s triangle into the workspace";
    prepare.bindings = bindings;
    prepare.glsl = prepare_glsl;
    prepare.grid = {static_cast<uint32_t>((batch * opa_per + kGroup - 1) / kGroup), 1, 1};
    k.dispatches.push_back(std::move(prepare));
    for (int64_t step = 0; step < blocks; ++step) {
      const int64_t jb = (left ? lower == (transpose != "NO_TRANSPOSE") : lower != (transpose != "NO_TRANSPOSE"))
                             ? blocks - 1 - step
                             : step;
      const int64_t s = std::min(m, (jb + 1) * kSolveBlock) - jb * kSolveBlock;
      const int64_t out_rows = left ? s : rows, out_cols = left ? cols : s;
      const std::array<uint32_t, 3> grid = {static_cast<uint32_t>((out_cols + 63) / 64),
                                            static_cast<uint32_t>((out_rows + 15) / 16), b32};
      for (const auto& [what, glsl] : {std::pair<const char*, const std::string*>{"remainder", &rem_glsl},
                                       std::pair<const char*, const std::string*>{"apply", &apply_glsl}}) {
        KernelDispatch d;
        d.name = fusion.name + ".solve_" + what;
        d.summary = fmt::format("{} of block {} (step {})", what, jb, step);
        d.bindings = bindings;
        d.glsl = *glsl;
        d.grid = grid;
        d.push_words = {static_cast<uint32_t>(step)};
        k.dispatches.push_back(std::move(d));
      }
    }
  }

  KernelDispatch write;
  write.name = fusion.name + ".write";
  write.summary = k.summary;
  write.bindings = bindings;
  write.bindings.push_back(KernelBuffer::Write(out));
  const uint32_t per_word = src.out_storage_bits < 32 ? static_cast<uint32_t>(32 / src.out_storage_bits) : 1;
  write.grid = {static_cast<uint32_t>(((batch * n + per_word - 1) / per_word + kGroup - 1) / kGroup), 1, 1};
  // No equations (m = 0): b has no rows or no columns, so the result is empty too.
  if (empty) write.grid = {0, 1, 1};
  VKHLO_ASSIGN_OR_RETURN(write.glsl, LinalgPassGlsl(base, src, "TRSM_WRITE", write.bindings, {kGroup, 1, 1}, ""));
  k.dispatches.push_back(std::move(write));
  return k;
}

bool AcceptsTriangularSolve(const ir::Operation& op) { return op.num_operands() == 2 && op.num_results() == 1; }

}  // namespace

void RegisterTriangularSolveKernel(DeviceKernelTable& table) {
  table.Register(ir::OpCode::kTriangularSolve, {&EmitTriangularSolve, &AcceptsTriangularSolve});
}

}  // namespace vkhlo::codegen
