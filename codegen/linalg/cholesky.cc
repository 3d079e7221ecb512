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
constexpr int64_t kSmall = 16;  // matrices up to this size: one invocation each
// NB, the columns of one step (the diagonal block is NB x NB): 64 for f32 arithmetic, 32 for
// the wider types (whose 8 x 8 tiles of complex or double accumulators would make large
// shaders, slow to compile).
int64_t BlockColumns(bool vec) { return vec ? 64 : 32; }
// The update's register tile: each invocation of an 8 x 8 workgroup computes NB / 8 rows by
// NB / 8 columns of the block column, so that the first workgroup's tile is the diagonal block.

// The update's inner product as straight-line code, one variable per accumulator (llvmpipe
// keeps private arrays in memory and indexes them lane by lane). With `vec` (T float) an
// invocation's rows (and columns) are consecutive and read as two uvec4 each per k, through
// the `wsv` view of the workspace (LD, the column stride, is a multiple of 8); otherwise they
// are 8 apart, so that neighbouring invocations read neighbouring words.
std::string UpdateBody(bool vec) {
  const int kTile = static_cast<int>(BlockColumns(vec) / 8);
  std::string g;
  auto row = [&](int a) { return vec ? fmt::format("8u * x + {}u", a) : fmt::format("x + {}u", 8 * a); };
  auto col = [&](int b) { return vec ? fmt::format("8u * y + {}u", b) : fmt::format("y + {}u", 8 * b); };
  if (vec) {
    // Tiles beyond LD read the last 8 rows instead (their results are never stored).
    g += "    uint r0 = min(j0 + base + 8u * x, LD - 8u), c0 = min(j0 + 8u * y, LD - 8u);\n";
  } else {
    for (int a = 0; a < kTile; ++a) g += fmt::format("    uint r{0} = min(j0 + base + {1}, M - 1u);\n", a, row(a));
    for (int b = 0; b < kTile; ++b) g += fmt::format("    uint c{0} = min(j0 + {1}, M - 1u);\n", b, col(b));
  }
  for (int a = 0; a < kTile; ++a) {
    for (int b = 0; b < kTile; ++b) g += fmt::format("    T acc{}_{} = t_zero();\n", a, b);
  }
  g += "    for (uint kk = 0u; kk < j0; ++kk) {\n";
  if (vec) {
    g += "      uint ri = (wb + kk * LD + r0) >> 2u, ci = (wb + kk * LD + c0) >> 2u;\n"
         "      uvec4 ra = wsv[ri], rb = wsv[ri + 1u], ca = wsv[ci], cb = wsv[ci + 1u];\n";
    for (int a = 0; a < kTile; ++a) g += fmt::format("      T li{} = uintBitsToFloat(r{}[{}]);\n", a, a < 4 ? "a" : "b", a % 4);
    for (int b = 0; b < kTile; ++b) g += fmt::format("      T lj{} = uintBitsToFloat(c{}[{}]);\n", b, b < 4 ? "a" : "b", b % 4);
  } else {
    for (int a = 0; a < kTile; ++a) g += fmt::format("      T li{0} = L(r{0}, kk);\n", a);
    for (int b = 0; b < kTile; ++b) g += fmt::format("      T lj{0} = t_conj(L(c{0}, kk));\n", b);
  }
  for (int a = 0; a < kTile; ++a) {
    for (int b = 0; b < kTile; ++b) g += fmt::format("      acc{0}_{1} = t_muladd(acc{0}_{1}, li{0}, lj{1});\n", a, b);
  }
  g += "    }\n";
  for (int a = 0; a < kTile; ++a) {
    g += fmt::format("    {{\n      uint i = j0 + base + {};\n", row(a));
    for (int b = 0; b < kTile; ++b) {
      g += fmt::format("      {{ uint j = j0 + {}; if (i < M && j < j1 && j <= i) SetL(i, j, acc{}_{}); }}\n", col(b), a, b);
    }
    g += "    }\n";
  }
  return g;
}

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
  std::string names;
  for (size_t i = 0; i < num_inputs; ++i) names += fmt::format("#define in{0} b{0}\n", i);
  names += fmt::format("#define ws b{}\n#define result_words b{}\n", num_inputs, num_inputs + 1);
  std::vector<KernelBuffer> bindings;
  for (const ir::Value* v : fusion.inputs) bindings.push_back(KernelBuffer::Read(v));
  bindings.push_back(KernelBuffer::Scratch(0, true));
  const std::string common =
      names + src.globals +
      fmt::format("#define M {}u\n#define LD {}u\n#define LOWER {}\n#define NB {}u\n#define T {}\n#define R {}\n", m, ld,
                  lower ? "true" : "false", kBlock, src.T, src.real) +
      // l[i][j] of this matrix (column-major), and h(i, k), i >= k: the lower triangle of the
      // Hermitian matrix a stands for.
      "uint wb, a_base;\n"
      "T L(uint i, uint j) { return ws_ld(wb + j * LD + i); }\n"
      "void SetL(uint i, uint j, T v) { ws_st(wb + j * LD + i, v); }\n"
      "T H(uint i, uint k) { return LOWER ? load_in0(a_base + i * M + k) : t_conj(load_in0(a_base + k * M + i)); }\n";
  const std::string push = "uint j0; uint j1;";
  auto main_start = [&](const char* batch_index) {
    return "void main() {\n  " + KeepBindingsStatement(bindings.size()) + "\n" +
           fmt::format("  uint bi = {};\n  wb = bi * LD * M; a_base = bi * M * M;\n  uint j0 = pc.j0, j1 = pc.j1;\n",
                       batch_index);
  };

  // The update (and, in its first workgroup, the diagonal block): rows j0 + base + 8 a + x,
  // columns j0 + 8 b + y of an 8 x 8 workgroup, so that the first workgroup's tile is the
  // diagonal block.
  std::string update_glsl =
      DeviceKernelHeader(bindings, {8, 8, 1}, push, src.extensions) +
      (vec ? fmt::format("layout(set = 0, binding = {}) restrict buffer WsVec {{ uvec4 wsv[]; }};\n", num_inputs) : "") +
      common + main_start("vkhlo_workgroup_id(pc).z") +
      R"(  uint base = vkhlo_workgroup_id(pc).x * NB, x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
  if (j0 > 0u) {
    // The dots over k < j0 of every element of the tile on or below the diagonal.
UPDATE_BODY  }
  if (vkhlo_workgroup_id(pc).x != 0u) return;
  // The diagonal block, column by column, each dot continued over j0 <= k < j (w holds the
  // part over k < j0 when j0 > 0).
  memoryBarrierBuffer();
  barrier();
  uint t = gl_LocalInvocationIndex;
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
    uint i = j + 1u + t;
    if (i < j1) {
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
  {
    const size_t at_body = update_glsl.find("UPDATE_BODY");
    // A single block has nothing to update (and its shader compiles faster without).
    update_glsl.replace(at_body, 11, blocks > 1 ? UpdateBody(vec) : "");
  }
  const std::string panel_glsl =
      DeviceKernelHeader(bindings, {kGroup, 1, 1}, push, src.extensions) + common + main_start("vkhlo_workgroup_id(pc).y") +
      fmt::format("  uint i = j1 + vkhlo_workgroup_id(pc).x * {}u + gl_LocalInvocationID.x;\n", kGroup) +
      R"(  // Row i below the diagonal block: its columns j0..j1 in order, each dot continued (the
  // row's new elements kept in registers).
  if (i >= M) return;
  T row[NB];
  for (uint j = j0; j < j1; ++j) {
    T row_dot = j0 > 0u ? L(i, j) : t_zero();
    for (uint kk = j0; kk < j; ++kk) row_dot = t_muladd(row_dot, row[kk - j0], t_conj(L(j, kk)));
    precise T num = H(i, j) - row_dot;
    T v = t_div(num, L(j, j));
    row[j - j0] = v;
    SetL(i, j, v);
  }
}
)";
  // Small matrices (m <= kSmall): one invocation per matrix, column by column without
  // barriers (a workgroup per matrix would spend its time at them).
  const bool small = m <= kSmall;
  const std::string small_glsl =
      DeviceKernelHeader(bindings, {kGroup, 1, 1}, push, src.extensions) + common +
      main_start(fmt::format("vkhlo_workgroup_id(pc).x * {}u + gl_LocalInvocationID.x", kGroup).c_str()) +
      fmt::format("  if (bi >= {}u) return;\n", batch) +
      R"(  for (uint j = 0u; j < M; ++j) {
    T dot = t_zero();
    for (uint kk = 0u; kk < j; ++kk) { T v = L(j, kk); dot = t_muladd(dot, v, t_conj(v)); }
    precise R d = t_re(H(j, j)) - t_re(dot);
    T pivot = t_real(hlo_sqrt(d));
    SetL(j, j, pivot);
    for (uint i = j + 1u; i < M; ++i) {
      T row_dot = t_zero();
      for (uint kk = 0u; kk < j; ++kk) row_dot = t_muladd(row_dot, L(i, kk), t_conj(L(j, kk)));
      precise T num = H(i, j) - row_dot;
      SetL(i, j, t_div(num, pivot));
    }
  }
}
)";
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
  // Element (i, j) of the result: l[i][j] (lower) or conj(l[j][i]) (upper) on its triangle, zero off it.
  const std::string x_at = fmt::format(
      "{T} x_at(uint l) {{\n"
      "  uint bi = l / {n}u, q = l - bi * {n}u, i = q / {m}u, j = q - i * {m}u;\n"
      "  if ({lower}) return j <= i ? ws_ld(bi * {pb}u + j * {ld}u + i) : t_zero();\n"
      "  return i <= j ? t_conj(ws_ld(bi * {pb}u + i * {ld}u + j)) : t_zero();\n"
      "}}\n",
      fmt::arg("T", src.T), fmt::arg("n", n), fmt::arg("m", m), fmt::arg("pb", ld * m), fmt::arg("ld", ld), fmt::arg("lower", lower ? "true" : "false"));
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
