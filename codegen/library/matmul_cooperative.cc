// The cooperative-matrix matmul: each subgroup multiplies coop_m x coop_k by coop_k x coop_n
// f16 tiles into an f32 accumulator tile with the device's matrix units; the accumulator goes
// through shared memory to the ordinary epilogue and store (so every epilogue and output type
// works). Operands must be affine with a unit stride along rows or columns, and M, N, K
// multiples of the tile (the aligned variant; other shapes take the shared-memory kernel).
//
// GLSL: GL_KHR_cooperative_matrix with glslang >= 13. Debian 12's glslang 12 only knows
// GL_NV_cooperative_matrix; this file then emits the NV spelling of the same kernel, which the
// tests compile and spirv-val (the configuration is never chosen for a device with it, see
// ConfigFits).
#include <fmt/format.h>

#include "codegen/library/kernel_writer.h"
#include "codegen/library/matmul_variants.h"

namespace vkhlo::codegen::library {
namespace {

// Element offset, stride and column-majorness of an affine operand tile at (b, r, c).
struct TileAddress {
  std::string offset;
  int64_t stride = 0;
  bool col_major = false;
};

StatusOr<TileAddress> Address(const OperandAccess& x, const std::string& b, const std::string& r, const std::string& c,
                              const std::string& what) {
  const AxisMap rows = x.rows.Simplified(), cols = x.cols.Simplified();
  if (!x.affine || rows.parts.size() > 1 || cols.parts.size() > 1) {
    return UnimplementedError(what + ": cooperative matrices need operands with one stride per axis");
  }
  const int64_t rs = rows.parts.empty() ? 0 : rows.parts[0].stride, cs = cols.parts.empty() ? 0 : cols.parts[0].stride;
  TileAddress a;
  a.offset = fmt::format("({} + {} + {})", x.batch.Offset(b), x.rows.Offset(r), x.cols.Offset(c));
  if (cs == 1 || cols.parts.empty()) {
    a.stride = rs == 0 ? 1 : rs;
  } else if (rs == 1) {
    a.col_major = true;
    a.stride = cs;
  } else {
    return UnimplementedError(what + ": cooperative matrices need a unit stride along rows or columns");
  }
  return a;
}

}  // namespace

StatusOr<LibraryDispatch> EmitCooperativeMatrix(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                                const TileConfig& c, const std::string& name) {
  if (p.a_type != ir::ElementType::kF16 || p.b_type != ir::ElementType::kF16 || p.acc != AccKind::kF32) {
    return UnimplementedError(p.what + ": the cooperative-matrix kernel takes f16 x f16 with f32 accumulation");
  }
  const uint32_t tm = c.coop_m, tn = c.coop_n, tk = c.coop_k;
  if (p.m % tm != 0 || p.n % tn != 0 || p.k % tk != 0) {
    return UnimplementedError(fmt::format("{}: the cooperative-matrix kernel needs M, N, K multiples of {}x{}x{}", p.what,
                                          tm, tn, tk));
  }
  if (!t.storage_buffer_16bit) {
    return UnimplementedError(fmt::format("{} needs storageBuffer16BitAccess for cooperative matrices, which {} lacks",
                                          p.what, t.device_name));
  }
  const uint32_t subgroup = std::max<uint32_t>(t.subgroup_size, 1);
  const uint32_t sx = c.wg_x / subgroup, sy = c.wg_y;
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclareMatmul(true));
  const bool khr = CompilerHasKhrCooperativeMatrix();
  ShaderPrelude& pre = w.prelude();
  pre.Extension(khr ? "GL_KHR_cooperative_matrix" : "GL_NV_cooperative_matrix");
  pre.Extension("GL_KHR_memory_scope_semantics");
  pre.Extension("GL_EXT_shader_explicit_arithmetic_types_float16");
  pre.Extension("GL_EXT_shader_16bit_storage");
  pre.Extension("GL_KHR_shader_subgroup_basic");
  // f16 views of the operand buffers (the same bindings as the uint[] declarations).
  w.writer().StorageBuffer(0, "a_h", "float16_t", BufferAccess::kRead, /*restrict_=*/false);
  w.writer().StorageBuffer(1, "b_h", "float16_t", BufferAccess::kRead, /*restrict_=*/false);
  w.AddShared(fmt::format("shared float Cs[{}];\n", sx * sy * tm * tn));
  VKHLO_ASSIGN_OR_RETURN(TileAddress a, Address(p.a, "b", "m0", "k", p.what));
  VKHLO_ASSIGN_OR_RETURN(TileAddress bb, Address(p.b, "b", "k", "n0", p.what));
  auto type = [&](const char* component, const char* use, uint32_t rows, uint32_t cols) {
    return khr ? fmt::format("coopmat<{}, gl_ScopeSubgroup, {}, {}, {}>", component, rows, cols, use)
               : fmt::format("{}<{}, gl_ScopeSubgroup, {}, {}>", "fcoopmatNV",
                             std::string(component) == "float" ? 32 : 16, rows, cols);
  };
  auto layout = [&](bool col_major) {
    return khr ? std::string(col_major ? "gl_CooperativeMatrixLayoutColumnMajor" : "gl_CooperativeMatrixLayoutRowMajor")
               : std::string(col_major ? "true" : "false");
  };
  const std::string load = khr ? "coopMatLoad" : "coopMatLoadNV", store = khr ? "coopMatStore" : "coopMatStoreNV";
  const std::string mma = khr ? "coopMatMulAdd" : "coopMatMulAddNV";
  const std::string acc_t = type("float", "gl_MatrixUseAccumulator", tm, tn);
  std::string body;
  body += fmt::format("  uint sg = gl_SubgroupID, sx = sg % {}u, sy = sg / {}u, b = wg.z;\n", sx, sx);
  body += fmt::format("  uint m0 = (wg.y * {}u + sy) * {}u, n0 = (wg.x * {}u + sx) * {}u;\n", sy, tm, sx, tn);
  body += "  if (m0 >= M || n0 >= N) return;  // a whole subgroup past the edge\n";
  body += fmt::format("  {} acc = {}(0.0);\n", acc_t, acc_t);
  body += fmt::format("  for (uint k = 0u; k < K; k += {}u) {{\n", tk);
  body += fmt::format("    {} ma;\n    {} mb;\n", type("float16_t", "gl_MatrixUseA", tm, tk),
                      type("float16_t", "gl_MatrixUseB", tk, tn));
  body += fmt::format("    {}(ma, a_h, {}, {}u, {});\n", load, a.offset, a.stride, layout(a.col_major));
  body += fmt::format("    {}(mb, b_h, {}, {}u, {});\n", load, bb.offset, bb.stride, layout(bb.col_major));
  body += fmt::format("    acc = {}(ma, mb, acc);\n  }}\n", mma);
  body += fmt::format("  {}(acc, Cs, sg * {}u, {}u, {});\n", store, tm * tn, tn, layout(false));
  body += "  subgroupMemoryBarrierShared();\n  subgroupBarrier();\n";
  body += fmt::format("  for (uint e = gl_SubgroupInvocationID; e < {}u; e += gl_SubgroupSize) {{\n", tm * tn);
  body += fmt::format("    store_c(b, m0 + e / {0}u, n0 + e % {0}u, Cs[sg * {1}u + e]);\n  }}\n", tn, tm * tn);
  LibraryDispatch d;
  d.name = name + ".coopmat";
  d.glsl = w.Assemble(c.wg_x, c.wg_y, 1, body);
  d.workgroup_size = {c.wg_x, c.wg_y, 1};
  d.grid = {static_cast<uint32_t>((p.n + tn * sx - 1) / (tn * sx)), static_cast<uint32_t>((p.m + tm * sy - 1) / (tm * sy)),
            static_cast<uint32_t>(p.batch)};
  d.bindings = w.bindings();
  d.required_subgroup_size = subgroup;
  return d;
}

}  // namespace vkhlo::codegen::library
