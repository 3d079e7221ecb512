// The shared-memory tiled matmul (GPUs): a workgroup of WGX x WGY invocations computes a
// BM x BN block of C; each K step of BK stages A[BM x BK] and B[BK x BN] in shared memory
// through the load functions (consecutive invocations read consecutive elements of the
// contiguous axis when there is one), then every invocation accumulates its TM x TN outputs,
// strided by the workgroup size so that neighbouring invocations touch neighbouring shared
// words (no bank conflicts on the B reads).
#include <fmt/format.h>

#include "codegen/library/kernel_writer.h"
#include "codegen/library/matmul_variants.h"

namespace vkhlo::codegen::library {

StatusOr<LibraryDispatch> EmitSharedTiled(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                          const TileConfig& c, uint32_t split, const std::string& name) {
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclareMatmul(split <= 1));
  const uint32_t bm = c.bm(), bn = c.bn(), bk = c.bk, nt = c.invocations();
  const std::string acc = w.acc();
  // The packed integer path (matmul_dot4.cc) stages words of four k.
  const bool dot4 = p.quant && p.quant->dot4;
  if (dot4 && bk % 4 != 0) return InternalError(p.what + ": packed integer path with a K step not a multiple of 4");
  const uint32_t bk4 = bk / 4;
  if (dot4) {
    w.AddFunction(Dot4Functions(p));
    w.AddShared(fmt::format("shared uint As[{}];\nshared uint Bs[{}];\n", bm * bk4, bk4 * bn));
  } else {
    w.AddShared(fmt::format("shared {} As[{}];\nshared {} Bs[{}];\n", acc, bm * bk, acc, bk * bn));
  }
  std::string body;
  if (split > 1) {
    const int64_t chunk = SplitKChunk(p.k, split, bk);
    body += fmt::format("  uint s = wg.z % {0}u, b = wg.z / {0}u;\n", split);
    body += fmt::format("  uint kbeg = s * {0}u, kend = min(K, kbeg + {0}u);\n", chunk);
  } else {
    body += "  uint b = wg.z;\n  uint kbeg = 0u, kend = K;\n";
  }
  body += fmt::format("  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y, tid = ty * {}u + tx;\n", c.wg_x);
  body += fmt::format("  uint mb = wg.y * {}u, nb = wg.x * {}u;\n", bm, bn);
  for (uint32_t i = 0; i < c.tm; ++i) {
    std::string line = "  " + acc;
    for (uint32_t j = 0; j < c.tn; ++j) line += fmt::format("{} c{}_{} = {}(0)", j ? "," : "", i, j, acc);
    body += line + ";\n";
  }
  if (dot4) {
    for (uint32_t i = 0; i < c.tm; ++i) body += fmt::format("  int sa{} = 0;\n", i);
    for (uint32_t j = 0; j < c.tn; ++j) body += fmt::format("  int sb{} = 0;\n", j);
    body += fmt::format("  for (uint k0 = kbeg; k0 < kend; k0 += {}u) {{\n", bk);
    // Words of four k; positions from kend on pack as 0.
    body += fmt::format(
        "    for (uint e = tid; e < {0}u; e += {1}u) {{\n      uint r = e / {2}u, kq = e % {2}u;\n"
        "      uint m = mb + r, k = k0 + 4u * kq;\n"
        "      As[kq * {3}u + r] = m < M && k < kend ? q_word_a(b, m, k, kend - k) : 0u;\n    }}\n",
        bm * bk4, nt, bk4, bm);
    body += fmt::format(
        "    for (uint e = tid; e < {0}u; e += {1}u) {{\n      uint kq = e / {2}u, cc = e % {2}u;\n"
        "      uint k = k0 + 4u * kq, n = nb + cc;\n"
        "      Bs[kq * {2}u + cc] = n < N && k < kend ? q_word_b(b, k, n, kend - k) : 0u;\n    }}\n",
        bk4 * bn, nt, bn);
    body += "    barrier();\n";
    body += fmt::format("    for (uint kq = 0u; kq < {}u; ++kq) {{\n", bk4);
    for (uint32_t i = 0; i < c.tm; ++i) {
      body += fmt::format("      uint a{0} = As[kq * {1}u + ty + {2}u]; sa{0} += q_sum4_a(a{0});\n", i, bm, i * c.wg_y);
    }
    for (uint32_t j = 0; j < c.tn; ++j) {
      body += fmt::format("      uint b{0} = Bs[kq * {1}u + tx + {2}u]; sb{0} += q_sum4_b(b{0});\n", j, bn, j * c.wg_x);
    }
    for (uint32_t i = 0; i < c.tm; ++i) {
      for (uint32_t j = 0; j < c.tn; ++j) body += fmt::format("      c{0}_{1} += q_dot4(a{0}, b{1});\n", i, j);
    }
    body += "    }\n    barrier();\n  }\n  uint kn = kend > kbeg ? kend - kbeg : 0u;  // an empty last split-K slice starts past K\n";
    for (uint32_t j = 0; j < c.tn; ++j) {
      body += fmt::format("  int zb{} = q_zb(q_channel(b, min(nb + tx + {}u, N - 1u)));\n", j, j * c.wg_x);
    }
    for (uint32_t i = 0; i < c.tm; ++i) {
      for (uint32_t j = 0; j < c.tn; ++j) {
        const std::string cij = fmt::format("c{}_{}", i, j);
        body += fmt::format("  {} = {};\n", cij,
                            Dot4Correct(cij, fmt::format("sa{}", i), fmt::format("sb{}", j), fmt::format("zb{}", j),
                                        "kn", p.quant->lhs_zero_point));
      }
    }
  } else {
  body += fmt::format("  for (uint k0 = kbeg; k0 < kend; k0 += {}u) {{\n", bk);
    // Staging: A with k fastest across invocations, B with n fastest.
    body += fmt::format(
        "    for (uint e = tid; e < {0}u; e += {1}u) {{\n      uint r = e / {2}u, kk = e % {2}u;\n"
        "      uint m = mb + r, k = k0 + kk;\n"
        "      {3} v = load_a(b, min(m, M - 1u), min(k, K - 1u));\n"
        "      As[kk * {4}u + r] = (m < M && k < kend) ? v : {3}(0);\n    }}\n",
        bm * bk, nt, bk, acc, bm);
    body += fmt::format(
        "    for (uint e = tid; e < {0}u; e += {1}u) {{\n      uint kk = e / {2}u, cc = e % {2}u;\n"
        "      uint k = k0 + kk, n = nb + cc;\n"
        "      {3} v = load_b(b, min(k, K - 1u), min(n, N - 1u));\n"
        "      Bs[kk * {2}u + cc] = (n < N && k < kend) ? v : {3}(0);\n    }}\n",
        bk * bn, nt, bn, acc);
    body += "    barrier();\n";
    body += fmt::format("    for (uint kk = 0u; kk < {}u; ++kk) {{\n", bk);
    for (uint32_t i = 0; i < c.tm; ++i) body += fmt::format("      {} a{} = As[kk * {}u + ty + {}u];\n", acc, i, bm, i * c.wg_y);
    for (uint32_t j = 0; j < c.tn; ++j) body += fmt::format("      {} b{} = Bs[kk * {}u + tx + {}u];\n", acc, j, bn, j * c.wg_x);
    for (uint32_t i = 0; i < c.tm; ++i) {
      for (uint32_t j = 0; j < c.tn; ++j) {
        body += "      " + w.Mac(fmt::format("c{}_{}", i, j), fmt::format("a{}", i), fmt::format("b{}", j)) + "\n";
      }
    }
    body += "    }\n    barrier();\n  }\n";
  }
  std::vector<KernelWriter::TileElement> tile;
  for (uint32_t i = 0; i < c.tm; ++i) {
    for (uint32_t j = 0; j < c.tn; ++j) {
      const std::string m = fmt::format("mb + ty + {}u", i * c.wg_y), n = fmt::format("nb + tx + {}u", j * c.wg_x);
      if (split > 1) {
        body += fmt::format("  if ({0} < M && {1} < N) store_partial(s, b, {0}, {1}, c{2}_{3});\n", m, n, i, j);
      } else {
        tile.push_back({fmt::format("c{}_{}", i, j), "b", m, n, fmt::format("{} < M && {} < N", m, n)});
      }
    }
  }
  body += w.StoreTile(tile);
  LibraryDispatch d;
  d.name = name + (split > 1 ? ".shared_partial" : ".shared");
  d.glsl = w.Assemble(c.wg_x, c.wg_y, 1, body);
  d.workgroup_size = {c.wg_x, c.wg_y, 1};
  d.grid = {static_cast<uint32_t>((p.n + bn - 1) / bn), static_cast<uint32_t>((p.m + bm - 1) / bm),
            static_cast<uint32_t>(p.batch * std::max<uint32_t>(split, 1))};
  d.bindings = w.bindings();
  return d;
}

// One output per workgroup: its invocations stride over K, then a tree reduction in shared
// memory (a fixed order, so results do not depend on timing). Matrix-vector products on GPUs.
StatusOr<LibraryDispatch> EmitDotPerOutput(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                           const TileConfig& c, const std::string& name) {
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclareMatmul(true));
  const uint32_t nt = c.wg_x;
  const std::string acc = w.acc();
  w.AddShared(fmt::format("shared {} red[{}];\n", acc, nt));
  std::string body;
  body += "  uint n = wg.x, m = wg.y, b = wg.z, tid = gl_LocalInvocationID.x;\n";
  body += fmt::format("  {} s = {}(0);\n", acc, acc);
  body += fmt::format("  for (uint k = tid; k < K; k += {}u) {{ {} x = load_a(b, m, k); {} y = load_b(b, k, n); {} }}\n", nt,
                      acc, acc, w.Mac("s", "x", "y"));
  body += "  red[tid] = s;\n  barrier();\n";
  for (uint32_t half = nt / 2; half >= 1; half /= 2) {
    body += fmt::format("  if (tid < {0}u) red[tid] = {1};\n  barrier();\n", half,
                        w.Add("red[tid]", fmt::format("red[tid + {}u]", half)));
  }
  body += "  if (tid == 0u) store_c(b, m, n, red[0]);\n";
  LibraryDispatch d;
  d.name = name + ".dot_per_output";
  d.glsl = w.Assemble(nt, 1, 1, body);
  d.workgroup_size = {nt, 1, 1};
  d.grid = {static_cast<uint32_t>(p.n), static_cast<uint32_t>(p.m), static_cast<uint32_t>(p.batch)};
  d.bindings = w.bindings();
  return d;
}

StatusOr<LibraryDispatch> EmitZeroContraction(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                              const std::string& name) {
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclareFill());
  const uint32_t nt = 64;
  const uint64_t outputs = static_cast<uint64_t>(p.batch * p.m * p.n);
  std::string body = fmt::format("  uint o = wg.x * {}u + gl_LocalInvocationID.x;\n  if (o >= {}u) return;\n", nt, outputs);
  body += fmt::format("  store_c(o / (N * M), (o / N) % M, o % N, {}(0));\n", w.acc());
  LibraryDispatch d;
  d.name = name + ".zero_contraction";
  d.glsl = w.Assemble(nt, 1, 1, body);
  d.workgroup_size = {nt, 1, 1};
  d.grid = {static_cast<uint32_t>((outputs + nt - 1) / nt), 1, 1};
  d.bindings = w.bindings();
  return d;
}

// Sums the split-K slices in slice order, then the epilogue: one output per invocation.
StatusOr<LibraryDispatch> EmitSplitKReduce(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                           uint32_t split, const std::string& name) {
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclareReduce(split));
  const uint32_t nt = 64;
  const std::string acc = w.acc();
  std::string body;
  body += fmt::format("  uint o = wg.x * {}u + gl_LocalInvocationID.x;\n  if (o >= {}u) return;\n", nt,
                      static_cast<uint64_t>(p.batch * p.m * p.n));
  body += "  uint n = o % N, m = (o / N) % M, b = o / (N * M);\n";
  body += fmt::format("  {} s = load_partial(0u, o);\n", acc);
  body += fmt::format("  for (uint i = 1u; i < {}u; ++i) s = {};\n", split, w.Add("s", "load_partial(i, o)"));
  body += "  store_c(b, m, n, s);\n";
  LibraryDispatch d;
  d.name = name + ".split_k_reduce";
  d.glsl = w.Assemble(nt, 1, 1, body);
  d.workgroup_size = {nt, 1, 1};
  const uint64_t outputs = static_cast<uint64_t>(p.batch * p.m * p.n);
  d.grid = {static_cast<uint32_t>((outputs + nt - 1) / nt), 1, 1};
  d.bindings = w.bindings();
  return d;
}

}  // namespace vkhlo::codegen::library
