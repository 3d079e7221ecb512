// stablehlo.cholesky as a device kernel (lower or upper, batch dimensions, f32/f64/narrow
// floats/complex), with the interpreter's algorithm (src/interp/library_linalg.cc, as XLA's
// Cholesky expander): column by column, l[j][j] = sqrt(a[j][j] - dot(l[j][:j], conj(l[j][:j])))
// and l[i][j] = (a[i][j] - dot(l[i][:j], conj(l[j][:j]))) / l[j][j], dots in index order with
// the interpreter's rounding (products, then sums), correctly rounded sqrt and division. Only
// the `lower` (upper) triangle of a is read; the other triangle of the result is zero. A matrix
// that is not positive definite gives NaN from the first negative pivot on, as the interpreter.
// One workgroup per batch item: column j's pivot, then its elements below in parallel.
#include <fmt/format.h>

#include "codegen/device_kernel.h"
#include "codegen/linalg/linalg_glsl.h"

namespace vkhlo::codegen {
namespace {

constexpr uint32_t kGroup = 64;

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
  const uint64_t off_l = 0, off_x = static_cast<uint64_t>(m * m), per_batch = 2 * off_x;
  const int64_t n = m * m;
  const bool empty = batch * n == 0;

  DeviceKernel k;
  k.summary = fmt::format("cholesky ({}) of {} items of {}x{}, column by column", lower ? "lower" : "upper", batch, m, m);
  k.scratch_bytes = {std::max<uint64_t>(4, static_cast<uint64_t>(batch) * per_batch * src.words * 4)};
  const size_t num_inputs = fusion.inputs.size();
  std::string names;
  for (size_t i = 0; i < num_inputs; ++i) names += fmt::format("#define in{0} b{0}\n", i);
  names += fmt::format("#define ws b{}\n#define result_words b{}\n", num_inputs, num_inputs + 1);

  KernelDispatch factor;
  factor.name = fusion.name + ".cholesky";
  factor.summary = k.summary;
  for (const ir::Value* v : fusion.inputs) factor.bindings.push_back(KernelBuffer::Read(v));
  factor.bindings.push_back(KernelBuffer::Scratch(0, true));
  factor.grid = {empty ? 0u : static_cast<uint32_t>(batch), 1, 1};
  factor.glsl =
      DeviceKernelHeader(factor.bindings, {kGroup, 1, 1}, "", src.extensions) + names + src.globals +
      fmt::format("#define M {}u\n#define LOWER {}\n#define OFF_L {}u\n#define OFF_X {}u\n#define PER_BATCH {}u\n"
                  "#define WG {}u\n#define T {}\n#define R {}\n",
                  m, lower ? "true" : "false", off_l, off_x, per_batch, kGroup, src.T, src.real) +
      "uint wb;\n"
      "T L(uint i, uint j) { return ws_ld(wb + OFF_L + i * M + j); }\n"
      "void SetL(uint i, uint j, T v) { ws_st(wb + OFF_L + i * M + j, v); }\n"
      "void main() {\n  " + KeepBindingsStatement(factor.bindings.size()) + "\n" +
      R"(  uint bi = vkhlo_workgroup_id(pc).x, t = gl_LocalInvocationID.x;
  wb = bi * PER_BATCH;
  uint a_base = bi * M * M;
  // h(i, k), i >= k: the lower triangle of the Hermitian matrix a stands for.
  #define H(i, k) (LOWER ? load_in0(a_base + (i) * M + (k)) : t_conj(load_in0(a_base + (k) * M + (i))))
  for (uint j = 0u; j < M; ++j) {
    if (t == 0u) {
      T dot = t_zero();
      for (uint kk = 0u; kk < j; ++kk) { T v = L(j, kk); dot = t_muladd(dot, v, t_conj(v)); }
      precise R d = t_re(H(j, j)) - t_re(dot);
      SetL(j, j, t_real(hlo_sqrt(d)));
    }
    barrier();
    T pivot = L(j, j);
    for (uint i = j + 1u + t; i < M; i += WG) {
      T row_dot = t_zero();
      for (uint kk = 0u; kk < j; ++kk) row_dot = t_muladd(row_dot, L(i, kk), t_conj(L(j, kk)));
      precise T num = H(i, j) - row_dot;
      SetL(i, j, t_div(num, pivot));
    }
    barrier();
  }
  for (uint q = t; q < M * M; q += WG) {
    uint i = q / M, j = q % M;
    T v = t_zero();
    if (LOWER && j <= i) v = L(i, j);
    if (!LOWER && i <= j) v = t_conj(L(j, i));
    ws_st(wb + OFF_X + q, v);
  }
}
)";
  k.dispatches.push_back(std::move(factor));

  KernelDispatch write;
  write.name = fusion.name + ".write";
  write.summary = k.summary;
  for (const ir::Value* v : fusion.inputs) write.bindings.push_back(KernelBuffer::Read(v));
  write.bindings.push_back(KernelBuffer::Scratch(0, true));  // read-write: ws_st is declared
  write.bindings.push_back(KernelBuffer::Write(out));
  const uint32_t per = src.out_storage_bits < 32 ? static_cast<uint32_t>(32 / src.out_storage_bits) : 1;
  write.grid = {static_cast<uint32_t>(((batch * n + per - 1) / per + kGroup - 1) / kGroup), 1, 1};
  write.glsl = DeviceKernelHeader(write.bindings, {kGroup, 1, 1}, "", src.extensions) + names + src.globals +
               LinalgWriteOut(src, batch, n, per_batch, off_x, KeepBindingsStatement(write.bindings.size()));
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
