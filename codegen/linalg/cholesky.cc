// stablehlo.cholesky as a device kernel (lower or upper, batch dimensions, f32/f64/narrow
// floats/complex), blocked and left-looking, with the interpreter's rounding
// (src/interp/library_linalg.cc, as XLA's Cholesky expander): l[j][j] = sqrt(a[j][j] -
// dot(l[j][:j], conj(l[j][:j]))) and l[i][j] = (a[i][j] - dot(l[i][:j], conj(l[j][:j]))) /
// l[j][j], each dot a chain of products then sums in index order, correctly rounded sqrt and
// division. Blocking does not reorder those chains, it splits them: for the block column
// [j0, j1) (NB columns),
//   update  (many workgroups, register tiles, skipped for the first block): the dots' first
//           part, over k < j0, for every element of the block column on or below the diagonal
//           (a GEMM-like product of the finished columns with themselves);
//   diag    (one workgroup per matrix): the diagonal block, column by column, continuing each
//           dot over j0 <= k < j;
//   panel   (one invocation per row below the block): the rows below it likewise;
// then one dispatch writes the result. So the result is the interpreter's bit for bit (as the
// unblocked kernel's was), and the work is spread over the device. Only the `lower` (upper)
// triangle of a is read; the other triangle of the result is zero (as the interpreter; the
// spec leaves it implementation-defined). A matrix that is not positive definite gives NaN
// from the first negative pivot on, as the interpreter.
//
// The factor lives in a scratch workspace in the arithmetic type, column-major per matrix
// (w[j * M + i] = l[i][j]), so that invocations of neighbouring rows read neighbouring words.
// Every step's dispatches share their GLSL (the step's j0 is a push word): three pipelines in
// all, whatever the size.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/device_kernel.h"
#include "codegen/linalg/linalg_glsl.h"

namespace vkhlo::codegen {
namespace {

constexpr uint32_t kGroup = 64;
constexpr int64_t kBlock = 64;  // NB: the columns of one step (the diagonal block is NB x NB)
// The update's register tile: each invocation of an 8 x 8 workgroup computes kTileRows rows
// (8 apart, so that neighbouring invocations read neighbouring words) by NB / 8 columns.
constexpr int64_t kTileRows = 4;

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
  const uint64_t ws_bytes = static_cast<uint64_t>(batch * n) * static_cast<uint64_t>(src.words) * 4;
  if (ws_bytes > target.max_storage_buffer_range) {
    return ResourceExhaustedError(fmt::format(
        "'{}' on {} needs a {}-byte workspace, more than the device's maxStorageBufferRange = {}", op.name(),
        at.ToString(), ws_bytes, target.max_storage_buffer_range));
  }
  const int64_t blocks = (m + kBlock - 1) / kBlock;
  if (m > kBlock && batch > 65535) {
    return ResourceExhaustedError(fmt::format("'{}' on {}: more than 65535 matrices larger than {}", op.name(),
                                              at.ToString(), kBlock));
  }

  DeviceKernel k;
  k.summary = fmt::format("cholesky ({}) of {} items of {}x{}, blocked left-looking ({} blocks of {} columns)",
                          lower ? "lower" : "upper", batch, m, m, blocks, kBlock);
  k.scratch_bytes = {std::max<uint64_t>(4, ws_bytes)};
  const size_t num_inputs = fusion.inputs.size();
  std::string names;
  for (size_t i = 0; i < num_inputs; ++i) names += fmt::format("#define in{0} b{0}\n", i);
  names += fmt::format("#define ws b{}\n#define result_words b{}\n", num_inputs, num_inputs + 1);
  std::vector<KernelBuffer> bindings;
  for (const ir::Value* v : fusion.inputs) bindings.push_back(KernelBuffer::Read(v));
  bindings.push_back(KernelBuffer::Scratch(0, true));
  const std::string common =
      names + src.globals +
      fmt::format("#define M {}u\n#define LOWER {}\n#define NB {}u\n#define T {}\n#define R {}\n", m,
                  lower ? "true" : "false", kBlock, src.T, src.real) +
      // l[i][j] of this matrix (column-major), and h(i, k), i >= k: the lower triangle of the
      // Hermitian matrix a stands for.
      "uint wb, a_base;\n"
      "T L(uint i, uint j) { return ws_ld(wb + j * M + i); }\n"
      "void SetL(uint i, uint j, T v) { ws_st(wb + j * M + i, v); }\n"
      "T H(uint i, uint k) { return LOWER ? load_in0(a_base + i * M + k) : t_conj(load_in0(a_base + k * M + i)); }\n";
  const std::string push = "uint j0; uint j1;";
  auto main_start = [&](const char* batch_index) {
    return "void main() {\n  " + KeepBindingsStatement(bindings.size()) + "\n" +
           fmt::format("  uint bi = {};\n  wb = bi * M * M; a_base = bi * M * M;\n  uint j0 = pc.j0, j1 = pc.j1;\n",
                       batch_index);
  };

  const uint32_t tile_cols = static_cast<uint32_t>(kBlock / 8);
  const std::string update_glsl =
      DeviceKernelHeader(bindings, {8, 8, 1}, push, src.extensions) + common +
      fmt::format("#define TM {}\n#define TN {}\n", kTileRows, tile_cols) + main_start("vkhlo_workgroup_id(pc).z") +
      R"(  // Rows j0 + base + 8 a + x, columns j0 + 8 b + y: the dots over k < j0.
  uint base = vkhlo_workgroup_id(pc).x * (8u * TM), x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
  uint rows[TM], cols[TN];
  for (int a = 0; a < TM; ++a) rows[a] = min(j0 + base + 8u * uint(a) + x, M - 1u);
  for (int b = 0; b < TN; ++b) cols[b] = min(j0 + 8u * uint(b) + y, M - 1u);
  T acc[TM][TN];
  for (int a = 0; a < TM; ++a) for (int b = 0; b < TN; ++b) acc[a][b] = t_zero();
  for (uint kk = 0u; kk < j0; ++kk) {
    T li[TM], lj[TN];
    for (int a = 0; a < TM; ++a) li[a] = L(rows[a], kk);
    for (int b = 0; b < TN; ++b) lj[b] = t_conj(L(cols[b], kk));
    for (int a = 0; a < TM; ++a) for (int b = 0; b < TN; ++b) acc[a][b] = t_muladd(acc[a][b], li[a], lj[b]);
  }
  for (int a = 0; a < TM; ++a) {
    uint i = j0 + base + 8u * uint(a) + x;
    for (int b = 0; b < TN; ++b) {
      uint j = j0 + 8u * uint(b) + y;
      if (i < M && j < j1 && j <= i) SetL(i, j, acc[a][b]);
    }
  }
}
)";
  const std::string diag_glsl =
      DeviceKernelHeader(bindings, {kGroup, 1, 1}, push, src.extensions) + common + main_start("vkhlo_workgroup_id(pc).x") +
      fmt::format("  uint t = gl_LocalInvocationID.x;\n  const uint WG = {}u;\n", kGroup) +
      R"(  // The diagonal block, column by column; w holds the dots over k < j0 there (j0 > 0).
  for (uint j = j0; j < j1; ++j) {
    if (t == 0u) {
      T dot = j0 > 0u ? L(j, j) : t_zero();
      for (uint kk = j0; kk < j; ++kk) { T v = L(j, kk); dot = t_muladd(dot, v, t_conj(v)); }
      precise R d = t_re(H(j, j)) - t_re(dot);
      SetL(j, j, t_real(hlo_sqrt(d)));
    }
    memoryBarrierBuffer();
    barrier();
    T pivot = L(j, j);
    for (uint i = j + 1u + t; i < j1; i += WG) {
      T row_dot = j0 > 0u ? L(i, j) : t_zero();
      for (uint kk = j0; kk < j; ++kk) row_dot = t_muladd(row_dot, L(i, kk), t_conj(L(j, kk)));
      precise T num = H(i, j) - row_dot;
      SetL(i, j, t_div(num, pivot));
    }
    memoryBarrierBuffer();
    barrier();
  }
}
)";
  const std::string panel_glsl =
      DeviceKernelHeader(bindings, {kGroup, 1, 1}, push, src.extensions) + common + main_start("vkhlo_workgroup_id(pc).y") +
      fmt::format("  uint i = j1 + vkhlo_workgroup_id(pc).x * {}u + gl_LocalInvocationID.x;\n", kGroup) +
      R"(  // Row i below the diagonal block: its columns j0..j1 in order, each dot continued.
  if (i >= M) return;
  for (uint j = j0; j < j1; ++j) {
    T row_dot = j0 > 0u ? L(i, j) : t_zero();
    for (uint kk = j0; kk < j; ++kk) row_dot = t_muladd(row_dot, L(i, kk), t_conj(L(j, kk)));
    precise T num = H(i, j) - row_dot;
    SetL(i, j, t_div(num, L(j, j)));
  }
}
)";
  for (int64_t jb = 0; jb < blocks && !empty; ++jb) {
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
    if (j0 > 0) {
      dispatch("update", update_glsl,
               {static_cast<uint32_t>((m - j0 + 8 * kTileRows - 1) / (8 * kTileRows)), 1, b});
    }
    dispatch("diag", diag_glsl, {b, 1, 1});
    if (j1 < m) dispatch("panel", panel_glsl, {static_cast<uint32_t>((m - j1 + kGroup - 1) / kGroup), b, 1});
  }

  KernelDispatch write;
  write.name = fusion.name + ".write";
  write.summary = k.summary;
  write.bindings = bindings;
  write.bindings.push_back(KernelBuffer::Write(out));
  const uint32_t per = src.out_storage_bits < 32 ? static_cast<uint32_t>(32 / src.out_storage_bits) : 1;
  write.grid = {static_cast<uint32_t>(((batch * n + per - 1) / per + kGroup - 1) / kGroup), 1, 1};
  // Element (i, j) of the result: l[i][j] (lower) or conj(l[j][i]) (upper) on its triangle, zero off it.
  const std::string x_at = fmt::format(
      "{T} x_at(uint l) {{\n"
      "  uint bi = l / {n}u, q = l - bi * {n}u, i = q / {m}u, j = q - i * {m}u;\n"
      "  if ({lower}) return j <= i ? ws_ld(bi * {n}u + j * {m}u + i) : t_zero();\n"
      "  return i <= j ? t_conj(ws_ld(bi * {n}u + i * {m}u + j)) : t_zero();\n"
      "}}\n",
      fmt::arg("T", src.T), fmt::arg("n", n), fmt::arg("m", m), fmt::arg("lower", lower ? "true" : "false"));
  write.glsl = DeviceKernelHeader(write.bindings, {kGroup, 1, 1}, "", src.extensions) + names + src.globals +
               LinalgWriteElements(src, batch * n, x_at, KeepBindingsStatement(write.bindings.size()));
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
