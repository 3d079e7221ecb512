// stablehlo.triangular_solve as a device kernel: every option (left_side, lower,
// unit_diagonal, transpose_a NO_TRANSPOSE/TRANSPOSE/ADJOINT), batch dimensions, f32/f64/narrow
// floats/complex.
//
// The algorithm is the interpreter's (src/interp/library_linalg.cc, which is XLA's
// TriangularSolveExpander): the diagonal blocks of a (128 x 128) are inverted row by row, then
// x is solved block by block, each block's remainder b - (coupling) x_solved multiplied by the
// inverted block with the last product in two interleaved partial sums; the same operations in
// the same order, so results round as the interpreter's do (bit for bit where the device's fma
// is fused). Spread over the device as
//   invert     one workgroup per diagonal block (all blocks at once): XLA's InvertDiagonalBlocks
//              row by row, the workgroup's invocations sharing each row;
//   remainder  per block step, a GEMM-like dispatch of register tiles: the block's rows (left
//              side) or columns (right side) of b minus the coupling product with the part of
//              x solved before, each dot in index order;
//   apply      per block step, likewise: x's block = the inverted block times the remainder;
// then one dispatch writes x in the result type. The block step's index is a push word, so
// every step shares its two pipelines. Workspaces (scratch, in the arithmetic type): the
// inverted blocks, the inversion's temporaries, the remainder of one step, and x.
#include <fmt/format.h>

#include <algorithm>

#include "ir/op_attributes.h"
#include "codegen/device_kernel.h"
#include "codegen/linalg/linalg_glsl.h"

namespace vkhlo::codegen {
namespace {

constexpr int64_t kSolveBlock = 128;  // XLA's TriangularSolveExpander default, as the interpreter
constexpr uint32_t kGroup = 64;
// Register tiles of the remainder and apply dispatches: a 16 x 4 workgroup, each invocation
// kTile rows (4 apart) by kTile columns (16 apart, so that neighbouring invocations read
// neighbouring words): 16 rows by 64 columns per workgroup.
constexpr int kTile = 4;
constexpr uint32_t kTileWx = 16, kTileWy = 4;

std::string Defines(const std::vector<std::pair<std::string, std::string>>& names) {
  std::string s;
  for (const auto& [name, value] : names) s += fmt::format("#define {} {}\n", name, value);
  return s;
}

using ir::AttrBool;  // read as the interpreter reads them (ir/op_attributes.h)

// The body of a tile dispatch: out(i, j) for i < OUT_ROWS, j < OUT_COLS of the dot over
// K0 <= k < K1 of LHS(i, k) * RHS(k, j) in index order (t_fma chains), as straight-line code
// with one variable per accumulator (llvmpipe keeps private arrays in memory). With `split`,
// even and odd k go to two partial sums added at the end (XLA's last product). STORE(i, j, v)
// receives each result. An invocation's rows are 4 apart (the same for neighbouring
// invocations: LHS reads are uniform); its columns are 16 apart, or with `vec` (T float) 4
// consecutive ones read as one uvec4 RHS_VEC(k, j) (RHS rows are padded to 4 elements).
std::string TileBody(bool split, bool vec) {
  std::string g =
      "  uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;\n"
      "  uint r0 = vkhlo_workgroup_id(pc).y * 16u + y;\n";
  g += vec ? "  uint c0 = (vkhlo_workgroup_id(pc).x * 16u + x) * 4u, cv = min(c0, (OUT_COLS - 1u) & ~3u);\n"
           : "  uint c0 = vkhlo_workgroup_id(pc).x * 64u + x;\n";
  auto col = [&](int b) { return vec ? b : 16 * b; };
  for (int a = 0; a < kTile; ++a) g += fmt::format("  uint ti{0} = min(r0 + {1}u, OUT_ROWS - 1u);\n", a, 4 * a);
  if (!vec) {
    for (int b = 0; b < kTile; ++b) g += fmt::format("  uint tj{0} = min(c0 + {1}u, OUT_COLS - 1u);\n", b, col(b));
  }
  const int lanes = split ? 2 : 1;
  for (int l = 0; l < lanes; ++l) {
    for (int a = 0; a < kTile; ++a) {
      for (int b = 0; b < kTile; ++b) g += fmt::format("  T acc{}_{}_{} = t_zero();\n", l, a, b);
    }
  }
  auto step = [&](int l, const char* k) {
    std::string s;
    for (int a = 0; a < kTile; ++a) s += fmt::format("    T l{0} = LHS(ti{0}, {1});\n", a, k);
    if (vec) {
      s += fmt::format("    uvec4 rv = RHS_VEC({}, cv);\n", k);
      for (int b = 0; b < kTile; ++b) s += fmt::format("    T r{0} = uintBitsToFloat(rv[{0}]);\n", b);
    } else {
      for (int b = 0; b < kTile; ++b) s += fmt::format("    T r{0} = RHS({1}, tj{0});\n", b, k);
    }
    for (int a = 0; a < kTile; ++a) {
      for (int b = 0; b < kTile; ++b) s += fmt::format("    acc{0}_{1}_{2} = t_fma(acc{0}_{1}_{2}, l{1}, r{2});\n", l, a, b);
    }
    return s;
  };
  if (split) {
    g += "  for (uint k = K0; k < K1; k += 2u) {\n  {\n" + step(0, "k") + "  }\n  if (k + 1u < K1) {\n" + step(1, "k + 1u") +
         "  }\n  }\n";
  } else {
    g += "  for (uint k = K0; k < K1; ++k) {\n" + step(0, "k") + "  }\n";
  }
  for (int a = 0; a < kTile; ++a) {
    for (int b = 0; b < kTile; ++b) {
      g += fmt::format("  if (r0 + {0}u < OUT_ROWS && c0 + {1}u < OUT_COLS) {{\n", 4 * a, col(b));
      if (split) {
        g += fmt::format("    precise T sum = acc0_{0}_{1} + acc1_{0}_{1};\n    STORE(r0 + {2}u, c0 + {3}u, sum);\n", a, b, 4 * a,
                         col(b));
      } else {
        g += fmt::format("    STORE(r0 + {2}u, c0 + {3}u, acc0_{0}_{1});\n", a, b, 4 * a, col(b));
      }
      g += "  }\n";
    }
  }
  return g + "}\n";
}

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
  std::string names;
  for (size_t i = 0; i < num_inputs; ++i) names += fmt::format("#define in{0} b{0}\n", i);
  // ws (x) is what the write dispatch reads; the others have accessors of their own.
  names += fmt::format(
      "#define inv_buf b{}\n#define tmp_buf b{}\n#define rem_buf b{}\n#define ws b{}\n#define opa_buf b{}\n#define result_words b{}\n",
      num_inputs, num_inputs + 1, num_inputs + 2, num_inputs + 3, num_inputs + 4, num_inputs + 5);
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
  const std::string common =
      names + src.globals + LinalgAccessors(src, "inv", "inv_buf") + LinalgAccessors(src, "tmp", "tmp_buf") +
      LinalgAccessors(src, "rem", "rem_buf") + LinalgAccessors(src, "opa", "opa_buf") +
      Defines({{"M", fmt::format("{}u", m)}, {"ROWS", fmt::format("{}u", rows)}, {"COLS", fmt::format("{}u", cols)},
               {"SB", fmt::format("{}u", kSolveBlock)}, {"SBS", fmt::format("{}u", sb)}, {"BLOCKS", fmt::format("{}u", blocks)},
               {"LEFT", left ? "true" : "false"}, {"LOWER", lower ? "true" : "false"}, {"UNIT", unit ? "true" : "false"},
               {"TRANS", transpose != "NO_TRANSPOSE" ? "true" : "false"},
               {"CONJ", transpose == "ADJOINT" ? "true" : "false"}, {"INV_PER", fmt::format("{}u", inv_per)},
               {"TMP_PER", fmt::format("{}u", tmp_per)}, {"REM_PER", fmt::format("{}u", rem_per)},
               {"X_PER", fmt::format("{}u", x_per)}, {"OPA_PER", fmt::format("{}u", opa_per)},
               {"SP", fmt::format("{}u", sp)}, {"XLD", fmt::format("{}u", xld)}, {"LDA", fmt::format("{}u", lda)},
               {"REM_LD", fmt::format("{}u", rem_ld)}, {"INV_SLOT", fmt::format("{}u", inv_slot)},
               {"OPINV_OFF", fmt::format("{}u", RoundUp4(sb * sb))}, {"WG", fmt::format("{}u", kGroup)}, {"T", src.T},
               {"load_a", fmt::format("load_in{}", index_of(op.operand(0)))}, {"BATCH", fmt::format("{}u", batch)},
               {"load_b", fmt::format("load_in{}", index_of(op.operand(1)))}}) +
      R"(uint bi;  // the batch item
// a's triangle that is read, with the unit diagonal when asked (the interpreter's copy of a).
T A(uint i, uint j) {
  if (LOWER ? j > i : j < i) return t_zero();
  return (i == j && UNIT) ? t_one() : load_a(bi * M * M + i * M + j);
}
T opA_in(uint r, uint c) {
  if (!TRANS) return A(r, c);
  T v = A(c, r);
  return CONJ ? t_conj(v) : v;
}
// op(a), copied once into the workspace (rows of LDA).
uint opa_row(uint r) { return bi * OPA_PER + r * LDA; }
T opA(uint r, uint c) { return opa_ld(opa_row(r) + c); }
uint x_row(uint r) { return bi * X_PER + r * XLD; }
T X(uint r, uint c) { return ws_ld(x_row(r) + c); }
void SetX(uint r, uint c, T v) { ws_st(x_row(r) + c, v); }
bool backward() { return LEFT ? (LOWER == TRANS) : (LOWER != TRANS); }
// Block jb's rows/columns [j0, j1) and the part solved before it, [solved0, solved1).
void BlockRange(uint step, out uint jb, out uint j0, out uint j1, out uint solved0, out uint solved1) {
  jb = backward() ? BLOCKS - 1u - step : step;
  j0 = jb * SB; j1 = min(M, j0 + SB);
  solved0 = backward() ? j1 : 0u; solved1 = backward() ? M : j0;
}
)";
  const std::string keep = "  " + KeepBindingsStatement(bindings.size()) + "\n";

  // Invert one diagonal block per workgroup (XLA's InvertDiagonalBlocks, as the interpreter).
  const std::string invert_glsl =
      DeviceKernelHeader(bindings, {kGroup, 1, 1}, "", src.extensions) + common + "void main() {\n" + keep +
      R"(  uint jb = vkhlo_workgroup_id(pc).x, t = gl_LocalInvocationID.x;
  bi = vkhlo_workgroup_id(pc).y;
  uint j0 = jb * SB, j1 = min(M, j0 + SB), s = j1 - j0;
  // Workspace slots are SBS = min(M, SB) on a side.
  uint inv = bi * INV_PER + jb * INV_SLOT;  // this block's inverse, s x s, then op(inverse)
  uint sc = bi * TMP_PER + jb * (SBS * SBS + 2u * SBS), dg = sc + SBS * SBS, upd = dg + SBS;
  for (uint c = t; c < s; c += WG) {
    T d = A(j0 + c, j0 + c);
    tmp_st(dg + c, d == t_zero() ? t_one() : d);
  }
  memoryBarrierBuffer();
  barrier();
  uint corner = LOWER ? 0u : s - 1u;
  for (uint q = t; q < s * s; q += WG) {
    uint r = q / s, c = q % s;
    T v = t_zero();
    if (!(LOWER ? c > r : c < r)) v = t_div(A(j0 + r, j0 + c), tmp_ld(dg + c));
    tmp_st(sc + q, v);
    inv_st(inv + q, r == c ? (r == corner ? t_one() : -t_one()) : t_zero());
  }
  memoryBarrierBuffer();
  barrier();
  for (uint i = 1u; i < s; ++i) {
    uint j = LOWER ? i : s - 1u - i;
    for (uint c = t; c < s; c += WG) {
      T dot = t_zero();
      for (uint kk = 0u; kk < s; ++kk) dot = t_fma(dot, tmp_ld(sc + j * s + kk), inv_ld(inv + kk * s + c));
      tmp_st(upd + c, -dot);
    }
    memoryBarrierBuffer();
    barrier();
    for (uint c = t; c < s; c += WG) inv_st(inv + j * s + c, tmp_ld(upd + c));
    memoryBarrierBuffer();
    barrier();
  }
  for (uint q = t; q < s * s; q += WG) inv_st(inv + q, t_div(inv_ld(inv + q), tmp_ld(dg + q / s)));
  memoryBarrierBuffer();
  barrier();
  // op(inverse) in rows of SP, for the apply step's (vector) reads.
  for (uint q = t; q < s * s; q += WG) {
    uint r = q / s, c = q % s;
    T v = TRANS ? inv_ld(inv + c * s + r) : inv_ld(inv + q);
    inv_st(inv + OPINV_OFF + r * SP + c, CONJ ? t_conj(v) : v);
  }
}
)";
  // op(a)'s read triangle into the workspace, once.
  const std::string prepare_glsl =
      DeviceKernelHeader(bindings, {kGroup, 1, 1}, "", src.extensions) + common + "void main() {\n" + keep +
      R"(  uint l = vkhlo_workgroup_id(pc).x * WG + gl_LocalInvocationID.x;
  bi = l / OPA_PER;
  uint q = l - bi * OPA_PER, r = q / LDA, c = q - r * LDA;
  if (bi >= BATCH) return;
  opa_st(l, c < M ? opA_in(r, c) : t_zero());
}
)";
  // One step's remainder: b's block minus the coupling product with x's solved part.
  const std::string step_head =
      DeviceKernelHeader(bindings, {kTileWx, kTileWy, 1}, "uint step;", src.extensions) + views + common + "void main() {\n" +
      keep +
      "  bi = vkhlo_workgroup_id(pc).z;\n"
      "  uint jb, j0, j1, solved0, solved1;\n"
      "  BlockRange(pc.step, jb, j0, j1, solved0, solved1);\n"
      "  uint s = j1 - j0;\n";
  const std::string rem_glsl =
      step_head +
      R"(  // Left: rows j0 + i of op(a) x = b, columns j of x. Right: row i of x op(a) = b, columns j0 + j.
  #define OUT_ROWS (LEFT ? s : ROWS)
  #define OUT_COLS (LEFT ? COLS : s)
  #define K0 solved0
  #define K1 solved1
  #define LHS(i, k) (LEFT ? opA(j0 + (i), (k)) : X((i), (k)))
  #define RHS(k, j) (LEFT ? X((k), (j)) : opA((k), j0 + (j)))
  #define B_AT(i, j) (LEFT ? load_b(bi * ROWS * COLS + (j0 + (i)) * COLS + (j)) : load_b(bi * ROWS * COLS + (i) * COLS + j0 + (j)))
  #define RHS_VEC(k, j) (LEFT ? x_vec[(x_row(k) + (j)) >> 2u] : opa_vec[(opa_row(k) + j0 + (j)) >> 2u])
  #define STORE(i, j, v) rem_st(bi * REM_PER + (i) * REM_LD + (j), pc.step == 0u ? B_AT(i, j) : B_AT(i, j) - (v))
)" + TileBody(false, vec);
  // One step's solution: the inverted block times the remainder (two interleaved partial sums).
  const std::string apply_glsl =
      step_head +
      R"(  uint inv = bi * INV_PER + jb * INV_SLOT;
  #define OUT_ROWS (LEFT ? s : ROWS)
  #define OUT_COLS (LEFT ? COLS : s)
  #define K0 0u
  #define K1 s
  #define OPINV(r, c) inv_ld(inv + OPINV_OFF + (r) * SP + (c))
  #define REM(r, c) rem_ld(bi * REM_PER + (r) * REM_LD + (c))
  #define RHS_VEC(k, j) (LEFT ? rem_vec[(bi * REM_PER + (k) * REM_LD + (j)) >> 2u] : inv_vec[(inv + OPINV_OFF + (k) * SP + (j)) >> 2u])
  #define LHS(i, k) (LEFT ? OPINV((i), (k)) : REM((i), (k)))
  #define RHS(k, j) (LEFT ? REM((k), (j)) : OPINV((k), (j)))
  #define STORE(i, j, v) if (LEFT) SetX(j0 + (i), (j), (v)); else SetX((i), j0 + (j), (v))
)" + TileBody(true, vec);

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
  write.glsl = DeviceKernelHeader(write.bindings, {kGroup, 1, 1}, "", src.extensions) + names + src.globals +
               LinalgWriteElements(src, batch * n,
                                   fmt::format("{T} x_at(uint l) {{ uint bi = l / {n}u, q = l - bi * {n}u, r = q / {cols}u;\n"
                                               "  return ws_ld(bi * {per}u + r * {xld}u + (q - r * {cols}u)); }}\n",
                                               fmt::arg("T", src.T), fmt::arg("n", n), fmt::arg("cols", cols),
                                               fmt::arg("per", x_per), fmt::arg("xld", xld)),
                                   KeepBindingsStatement(write.bindings.size()));
  k.dispatches.push_back(std::move(write));
  return k;
}

bool AcceptsTriangularSolve(const ir::Operation& op) { return op.num_operands() == 2 && op.num_results() == 1; }

}  // namespace

void RegisterTriangularSolveKernel(DeviceKernelTable& table) {
  table.Register(ir::OpCode::kTriangularSolve, {&EmitTriangularSolve, &AcceptsTriangularSolve});
}

}  // namespace vkhlo::codegen
