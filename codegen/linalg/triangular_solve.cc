// stablehlo.triangular_solve as a device kernel: every option (left_side, lower,
// unit_diagonal, transpose_a NO_TRANSPOSE/TRANSPOSE/ADJOINT), batch dimensions, f32/f64/narrow
// floats/complex.
//
// The algorithm is the interpreter's (src/interp/library_linalg.cc, which is XLA's
// TriangularSolveExpander): the diagonal blocks of a (128 x 128) are inverted row by row, then
// x is solved block by block, each block's remainder b - (coupling) x_solved multiplied by the
// inverted block with the last product in two interleaved partial sums; the same operations in
// the same order, so results round as the interpreter's do (bit for bit where the device's fma
// is fused). One workgroup per batch item; its invocations share each step's independent
// elements (a row of the inverse, the elements of a block of x) and meet at barriers between
// steps. The matrices live in a scratch workspace in the arithmetic type.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/device_kernel.h"
#include "codegen/linalg/linalg_glsl.h"

namespace vkhlo::codegen {
namespace {

constexpr int64_t kSolveBlock = 128;  // XLA's TriangularSolveExpander default, as the interpreter
constexpr uint32_t kGroup = 64;

std::string Defines(const std::vector<std::pair<std::string, std::string>>& names) {
  std::string s;
  for (const auto& [name, value] : names) s += fmt::format("#define {} {}\n", name, value);
  return s;
}

bool AttrBool(const ir::Operation& op, const char* name) {
  const ir::Attribute* a = op.attribute(name);
  return a != nullptr && a->AsBool().value_or(false);
}

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

  const int64_t s = std::min(m, kSolveBlock);
  const int64_t blocks = (m + kSolveBlock - 1) / kSolveBlock;
  // Workspace per batch item, in T units.
  const uint64_t off_a = 0, off_sc = off_a + m * m, off_inv = off_sc + s * s, off_rem = off_inv + s * s;
  const uint64_t off_x = off_rem + std::max(s * cols, rows * s), off_upd = off_x + rows * cols, off_diag = off_upd + s;
  const uint64_t per_batch = off_diag + s;
  const int64_t n = rows * cols;
  const bool empty = batch * n == 0;

  auto index_of = [&](const ir::Value* v) { return std::find(fusion.inputs.begin(), fusion.inputs.end(), v) - fusion.inputs.begin(); };
  const size_t num_inputs = fusion.inputs.size();
  DeviceKernel k;
  k.summary = fmt::format("triangular_solve of {} items: {}x{} a, {}x{} b, blocks of {} (inverted, as XLA)", batch, m, m,
                          rows, cols, s);
  k.scratch_bytes = {std::max<uint64_t>(4, static_cast<uint64_t>(batch) * per_batch * src.words * 4)};
  std::string names;
  for (size_t i = 0; i < num_inputs; ++i) names += fmt::format("#define in{0} b{0}\n", i);
  names += fmt::format("#define ws b{}\n#define result_words b{}\n", num_inputs, num_inputs + 1);

  KernelDispatch solve;
  solve.name = fusion.name + ".triangular_solve";
  solve.summary = k.summary;
  for (const ir::Value* v : fusion.inputs) solve.bindings.push_back(KernelBuffer::Read(v));
  solve.bindings.push_back(KernelBuffer::Scratch(0, true));
  solve.grid = {empty || m == 0 ? 0u : static_cast<uint32_t>(batch), 1, 1};
  const std::string defines = Defines({
      {"M", fmt::format("{}u", m)}, {"ROWS", fmt::format("{}u", rows)}, {"COLS", fmt::format("{}u", cols)},
      {"SB", fmt::format("{}u", kSolveBlock)}, {"BLOCKS", fmt::format("{}u", blocks)},
      {"LEFT", left ? "true" : "false"}, {"LOWER", lower ? "true" : "false"}, {"UNIT", unit ? "true" : "false"},
      {"TRANS", transpose != "NO_TRANSPOSE" ? "true" : "false"}, {"CONJ", transpose == "ADJOINT" ? "true" : "false"},
      {"PER_BATCH", fmt::format("{}u", per_batch)}, {"OFF_A", fmt::format("{}u", off_a)},
      {"OFF_SC", fmt::format("{}u", off_sc)}, {"OFF_INV", fmt::format("{}u", off_inv)},
      {"OFF_REM", fmt::format("{}u", off_rem)}, {"OFF_X", fmt::format("{}u", off_x)},
      {"OFF_UPD", fmt::format("{}u", off_upd)}, {"OFF_DIAG", fmt::format("{}u", off_diag)},
      {"WG", fmt::format("{}u", kGroup)}, {"T", src.T},
      {"load_a", fmt::format("load_in{}", index_of(op.operand(0)))},
      {"load_b", fmt::format("load_in{}", index_of(op.operand(1)))}});
  solve.glsl = DeviceKernelHeader(solve.bindings, {kGroup, 1, 1}, "", src.extensions) + names + src.globals + defines +
               "uint wb;  // this item's workspace\n"
               "T W(uint off, uint i) { return ws_ld(wb + off + i); }\n"
               "void S(uint off, uint i, T v) { ws_st(wb + off + i, v); }\n"
               "// op(matrix)[r][c] of a size x size matrix at `off`\n"
               "T opm(uint off, uint size, uint r, uint c) {\n"
               "  if (!TRANS) return W(off, r * size + c);\n"
               "  T v = W(off, c * size + r);\n"
               "  return CONJ ? t_conj(v) : v;\n"
               "}\n"
               "void main() {\n  " + KeepBindingsStatement(solve.bindings.size()) + "\n" +
               R"(  uint bi = vkhlo_workgroup_id(pc).x, t = gl_LocalInvocationID.x;
  wb = bi * PER_BATCH;
  uint a_base = bi * M * M, b_base = bi * ROWS * COLS;
  // The triangle of a that is read, with the unit diagonal when asked.
  for (uint q = t; q < M * M; q += WG) {
    uint i = q / M, j = q % M;
    T v = t_zero();
    if (!(LOWER ? j > i : j < i)) v = (i == j && UNIT) ? t_one() : load_a(a_base + q);
    S(OFF_A, q, v);
  }
  barrier();
  bool backward = LEFT ? (LOWER == TRANS) : (LOWER != TRANS);
  for (uint step = 0u; step < BLOCKS; ++step) {
    uint jb = backward ? BLOCKS - 1u - step : step;
    uint j0 = jb * SB, j1 = min(M, j0 + SB), s = j1 - j0;
    uint solved0 = backward ? j1 : 0u, solved1 = backward ? M : j0;
    // Invert the diagonal block (XLA's InvertDiagonalBlocks).
    for (uint c = t; c < s; c += WG) {
      T d = W(OFF_A, (j0 + c) * M + j0 + c);
      S(OFF_DIAG, c, d == t_zero() ? t_one() : d);
    }
    barrier();
    for (uint q = t; q < s * s; q += WG) {
      uint r = q / s, c = q % s;
      T v = t_zero();
      if (!(LOWER ? c > r : c < r)) v = t_div(W(OFF_A, (j0 + r) * M + j0 + c), W(OFF_DIAG, c));
      S(OFF_SC, q, v);
      uint corner = LOWER ? 0u : s - 1u;
      S(OFF_INV, q, r == c ? (r == corner ? t_one() : -t_one()) : t_zero());
    }
    barrier();
    for (uint i = 1u; i < s; ++i) {
      uint j = LOWER ? i : s - 1u - i;
      for (uint c = t; c < s; c += WG) {
        T dot = t_zero();
        for (uint kk = 0u; kk < s; ++kk) dot = t_fma(dot, W(OFF_SC, j * s + kk), W(OFF_INV, kk * s + c));
        S(OFF_UPD, c, -dot);
      }
      barrier();
      for (uint c = t; c < s; c += WG) S(OFF_INV, j * s + c, W(OFF_UPD, c));
      barrier();
    }
    for (uint q = t; q < s * s; q += WG) S(OFF_INV, q, t_div(W(OFF_INV, q), W(OFF_DIAG, q / s)));
    barrier();
    if (LEFT) {
      // op(a) x = b: rows j0..j1 of x.
      for (uint q = t; q < s * COLS; q += WG) {
        uint r = j0 + q / COLS, c = q % COLS;
        T dot = t_zero();
        for (uint kk = solved0; kk < solved1; ++kk) dot = t_fma(dot, opm(OFF_A, M, r, kk), W(OFF_X, kk * COLS + c));
        T bv = load_b(b_base + r * COLS + c);
        S(OFF_REM, q, step == 0u ? bv : bv - dot);
      }
      barrier();
      for (uint q = t; q < s * COLS; q += WG) {
        uint r = q / COLS, c = q % COLS;
        T dot = t_zero(), dot2 = t_zero();
        for (uint kk = 0u; kk < s; ++kk) {
          if ((kk & 1u) == 0u) dot = t_fma(dot, opm(OFF_INV, s, r, kk), W(OFF_REM, kk * COLS + c));
          else dot2 = t_fma(dot2, opm(OFF_INV, s, r, kk), W(OFF_REM, kk * COLS + c));
        }
        precise T sum = dot + dot2;
        S(OFF_X, (j0 + r) * COLS + c, sum);
      }
      barrier();
    } else {
      // x op(a) = b: columns j0..j1 of x.
      for (uint q = t; q < ROWS * s; q += WG) {
        uint r = q / s, c = j0 + q % s;
        T dot = t_zero();
        for (uint kk = solved0; kk < solved1; ++kk) dot = t_fma(dot, W(OFF_X, r * COLS + kk), opm(OFF_A, M, kk, c));
        T bv = load_b(b_base + r * COLS + c);
        S(OFF_REM, q, step == 0u ? bv : bv - dot);
      }
      barrier();
      for (uint q = t; q < ROWS * s; q += WG) {
        uint r = q / s, c = q % s;
        T dot = t_zero(), dot2 = t_zero();
        for (uint kk = 0u; kk < s; ++kk) {
          if ((kk & 1u) == 0u) dot = t_fma(dot, W(OFF_REM, r * s + kk), opm(OFF_INV, s, kk, c));
          else dot2 = t_fma(dot2, W(OFF_REM, r * s + kk), opm(OFF_INV, s, kk, c));
        }
        precise T sum = dot + dot2;
        S(OFF_X, r * COLS + j0 + c, sum);
      }
      barrier();
    }
  }
}
)";
  k.dispatches.push_back(std::move(solve));

  KernelDispatch write;
  write.name = fusion.name + ".write";
  write.summary = k.summary;
  for (const ir::Value* v : fusion.inputs) write.bindings.push_back(KernelBuffer::Read(v));
  write.bindings.push_back(KernelBuffer::Scratch(0, true));  // read-write: ws_st is declared
  write.bindings.push_back(KernelBuffer::Write(out));
  const uint32_t per = src.out_storage_bits < 32 ? static_cast<uint32_t>(32 / src.out_storage_bits) : 1;
  write.grid = {static_cast<uint32_t>(((batch * n + per - 1) / per + kGroup - 1) / kGroup), 1, 1};
  if (m == 0) {
    // No equations: x = b (an empty a means b has no rows or no columns).
    write.grid = {0, 1, 1};
  }
  write.glsl = DeviceKernelHeader(write.bindings, {kGroup, 1, 1}, "", src.extensions) + names + src.globals +
               LinalgWriteOut(src, batch, n, per_batch, off_x, KeepBindingsStatement(write.bindings.size()));
  k.dispatches.push_back(std::move(write));
  return k;
}

bool AcceptsTriangularSolve(const ir::Operation& op) { return op.num_operands() == 2 && op.num_results() == 1; }

}  // namespace

void RegisterTriangularSolveKernel(DeviceKernelTable& table) {
  table.Register(ir::OpCode::kTriangularSolve, {&EmitTriangularSolve, &AcceptsTriangularSolve});
}

}  // namespace vkhlo::codegen
