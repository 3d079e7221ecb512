// The register-tiled matmul: each invocation owns a TM x TN tile of C in registers and reads
// its A and B fragments straight from the buffers, no shared memory. Fragments are read as
// vectors along whichever axis of an operand is contiguous (8 elements per two uvec4 loads), which
// is what makes this fast on CPU drivers (see tile_config.h); everything is unrolled into
// straight-line code with one variable per accumulator, because llvmpipe keeps private arrays
// in memory and indexes them lane by lane.
//
// Edges: rows/columns beyond M/N are clamped for loading (their values are never stored), K is
// covered by an unrolled main loop of KU steps and a scalar tail.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/library/kernel_writer.h"
#include "codegen/library/matmul_variants.h"

namespace vkhlo::codegen::library {

int64_t SplitKChunk(int64_t k, uint32_t split, uint32_t unroll) {
  int64_t chunk = (k + split - 1) / split;
  return (chunk + unroll - 1) / unroll * unroll;
}

namespace {

// The register tile of the packed integer path (matmul_dot4.cc): per step of 4 k one packed
// word per row of A and per column of B, TM x TN dot products and TM + TN byte sums.
std::string RegisterTiledDot4Body(const MatmulProblem& p, const TileConfig& c, uint32_t split) {
  const uint32_t tm = c.tm, tn = c.tn;
  std::string body;
  for (uint32_t i = 0; i < tm; ++i) {
    std::string line = "  int";
    for (uint32_t j = 0; j < tn; ++j) line += fmt::format("{} c{}_{} = 0", j ? "," : "", i, j);
    body += line + fmt::format(", sa{} = 0;\n", i);
  }
  for (uint32_t j = 0; j < tn; ++j) body += fmt::format("  int sb{} = 0;\n", j);
  body += "  uint k = kbeg;\n  for (; k + 4u <= kend; k += 4u) {\n";
  for (uint32_t i = 0; i < tm; ++i) {
    body += fmt::format("    uint pa{0} = q_word4_a(b, mr{0}, k); sa{0} += q_sum4_a(pa{0});\n", i);
  }
  for (uint32_t j = 0; j < tn; ++j) {
    body += fmt::format("    uint pb{0} = q_word4_b(b, k, nc{0}); sb{0} += q_sum4_b(pb{0});\n", j);
  }
  for (uint32_t i = 0; i < tm; ++i) {
    for (uint32_t j = 0; j < tn; ++j) body += fmt::format("    c{0}_{1} += q_dot4(pa{0}, pb{1});\n", i, j);
  }
  body += "  }\n  for (; k < kend; ++k) {\n";
  for (uint32_t i = 0; i < tm; ++i) body += fmt::format("    int ra{0} = load_a_raw(b, mr{0}, k); sa{0} += ra{0};\n", i);
  for (uint32_t j = 0; j < tn; ++j) body += fmt::format("    int rb{0} = load_b_raw(b, k, nc{0}); sb{0} += rb{0};\n", j);
  for (uint32_t i = 0; i < tm; ++i) {
    for (uint32_t j = 0; j < tn; ++j) body += fmt::format("    c{0}_{1} += ra{0} * rb{1};\n", i, j);
  }
  body += "  }\n  uint kn = kend > kbeg ? kend - kbeg : 0u;  // an empty last split-K slice starts past K\n";
  for (uint32_t i = 0; i < tm; ++i) {
    for (uint32_t j = 0; j < tn; ++j) {
      const std::string cij = fmt::format("c{}_{}", i, j);
      body += fmt::format("  {} = {};\n", cij,
                          Dot4Correct(cij, fmt::format("sa{}", i), fmt::format("sb{}", j), fmt::format("qc{}.w", j), "kn",
                                      p.quant->lhs_zero_point));
    }
  }
  (void)split;
  return body;
}

}  // namespace

StatusOr<LibraryDispatch> EmitRegisterTiled(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                            const TileConfig& c, uint32_t split, const std::string& name) {
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclareMatmul(split <= 1));
  const bool dot4 = p.quant && p.quant->dot4;
  if (dot4) w.AddFunction(Dot4Functions(p));
  const uint32_t tm = c.tm, tn = c.tn;
  const int cap = static_cast<int>(c.vec);
  // A: vectors along k (cols) or m (rows); B: along n (cols) or k (rows).
  int va = 1, vb = 1;
  LoadMode ma = LoadMode::kScalar, mb = LoadMode::kScalar;
  if (std::min(p.a.col_run, cap) >= 2 && w.DeclareVectorView('a', std::min(p.a.col_run, cap))) {
    ma = LoadMode::kVecInner;
    va = std::min(p.a.col_run, cap);
  } else if (std::min(p.a.row_run, cap) >= 2 && tm % std::min(p.a.row_run, cap) == 0 &&
             w.DeclareVectorView('a', std::min(p.a.row_run, cap))) {
    ma = LoadMode::kVecOuter;
    va = std::min(p.a.row_run, cap);
  }
  if (std::min(p.b.col_run, cap) >= 2 && tn % std::min(p.b.col_run, cap) == 0 &&
      w.DeclareVectorView('b', std::min(p.b.col_run, cap))) {
    mb = LoadMode::kVecInner;
    vb = std::min(p.b.col_run, cap);
  } else if (std::min(p.b.row_run, cap) >= 2 && w.DeclareVectorView('b', std::min(p.b.row_run, cap))) {
    mb = LoadMode::kVecOuter;
    vb = std::min(p.b.row_run, cap);
  }
  int ku = 1;
  if (ma == LoadMode::kVecInner) ku = std::max(ku, va);
  if (mb == LoadMode::kVecOuter) ku = std::max(ku, vb);
  if (ku == 1) ku = static_cast<int>(std::max<uint32_t>(1, std::min<uint32_t>(c.bk, 4)));
  if (dot4) ku = 4;  // split-K slices start at multiples of 4: aligned words
  // Texel-buffer loads for vectors of 4 and 8 f32 values where the config asks (CPU drivers),
  // used by the unrolled main loop only: declared only when that loop runs (K, or a split-K
  // slice, holds a whole step), else the optimizer drops the unused binding and the shader
  // would declare fewer bindings than the dispatch binds.
  const bool main_loop_runs = (split > 1 ? SplitKChunk(p.k, split, static_cast<uint32_t>(ku)) : p.k) >= ku;
  if (c.texel_loads && main_loop_runs && ma != LoadMode::kScalar && va >= 4) w.DeclareTexelView('a');
  if (c.texel_loads && main_loop_runs && mb != LoadMode::kScalar && vb >= 4) w.DeclareTexelView('b');
  // Scalar loads of a separable implicit operand (a convolution over 1-3 input features).
  if (c.texel_loads && main_loop_runs && ma == LoadMode::kScalar && w.HasSplitIndex('a') && !dot4) {
    w.DeclareScalarTexelView('a');
  }
  const std::string acc = w.acc();

  std::string body;
  if (split > 1) {
    const int64_t chunk = SplitKChunk(p.k, split, static_cast<uint32_t>(ku));
    body += fmt::format("  uint s = wg.z % {0}u, b = wg.z / {0}u;\n", split);
    body += fmt::format("  uint kbeg = s * {0}u, kend = min(K, kbeg + {0}u);\n", chunk);
  } else {
    body += "  uint b = wg.z;\n  uint kbeg = 0u, kend = K;\n";
  }
  // The invocation index along M / N: llvmpipe runs a workgroup's invocations as SIMD lanes
  // along local x only (y and z are a scalar loop), so with lanes_m the M side takes local x.
  const char* lm = c.lanes_m ? "gl_LocalInvocationID.x" : "gl_LocalInvocationID.y";
  const char* ln = c.lanes_m ? "gl_LocalInvocationID.y" : "gl_LocalInvocationID.x";
  body += fmt::format("  uint m0 = (wg.y * {}u + {}) * {}u;\n", c.wg_y, lm, tm);
  body += fmt::format("  uint n0 = (wg.x * {}u + {}) * {}u;\n", c.wg_x, ln, tn);
  for (uint32_t i = 0; i < tm; ++i) {
    body += fmt::format("  uint mr{0} = min(m0 + {0}u, M - 1u);\n", i);
  }
  for (uint32_t j = 0; j < tn; ++j) {
    body += fmt::format("  uint nc{0} = min(n0 + {0}u, N - 1u);\n", j);
  }
  // A separable implicit index (convolution inputs): each row's part once, here; the column
  // part once per k in the loop, shared by the rows.
  const bool split_a = !dot4 && w.HasSplitIndex('a') && (ma == LoadMode::kVecInner || ma == LoadMode::kScalar);
  for (uint32_t i = 0; split_a && i < tm; ++i) {
    body += fmt::format("  int ar{0}; ivec4 ap{0}; ixr_a(b, mr{0}, ar{0}, ap{0});\n", i);
  }
  // Integer quantized: each column's channel constants once (q_col), not per load and store.
  const bool qcols = p.quant && !p.quant->hybrid;
  for (uint32_t j = 0; qcols && j < tn; ++j) body += fmt::format("  ivec4 qc{0} = q_col(q_channel(b, nc{0}));\n", j);
  if (dot4) {
    body += RegisterTiledDot4Body(p, c, split);
  } else {
    for (uint32_t i = 0; i < tm; ++i) {
      std::string line = "  " + acc;
      for (uint32_t j = 0; j < tn; ++j) line += fmt::format("{} c{}_{} = {}(0)", j ? "," : "", i, j, acc);
      body += line + ";\n";
    }
    // One step of the main loop: KU values of k.
    body += fmt::format("  uint k = kbeg;\n  for (; k + {0}u <= kend; k += {0}u) {{\n", ku);
    // A fragments a<i>_<kk>.
    for (int q = 0; split_a && ma == LoadMode::kVecInner && q < ku / va; ++q) {
      body += fmt::format("    int ac{0}; ivec4 acp{0}; ixc_a(k + {1}u, ac{0}, acp{0});\n", q, q * va);
    }
    for (uint32_t i = 0; ma == LoadMode::kVecInner && i < tm; ++i) {
      for (int q = 0; q < ku / va; ++q) {
        std::vector<std::string> names;
        for (int t2 = 0; t2 < va; ++t2) names.push_back(fmt::format("a{}_{}", i, q * va + t2));
        if (split_a) {
          const std::string ix = fmt::format("si{}_{}", i, q), ok = fmt::format("sv{}_{}", i, q);
          body += w.SplitIndex('a', fmt::format("ar{}", i), fmt::format("ap{}", i), fmt::format("ac{}", q),
                               fmt::format("acp{}", q), ix, ok);
          body += w.VectorLoadAt('a', va, ix, ok, names);
        } else {
          body += w.VectorLoad('a', va, "b", fmt::format("mr{}", i), fmt::format("k + {}u", q * va), names);
        }
      }
    }
    for (int kk = 0; ma == LoadMode::kVecOuter && kk < ku; ++kk) {
      for (uint32_t r = 0; r < tm / static_cast<uint32_t>(va); ++r) {
        std::vector<std::string> names;
        for (int t2 = 0; t2 < va; ++t2) names.push_back(fmt::format("a{}_{}", r * va + t2, kk));
        body += w.VectorLoad('a', va, "b", fmt::format("min(m0 + {}u, M - {}u)", r * va, va), fmt::format("k + {}u", kk),
                             names);
      }
    }
    for (int kk = 0; ma == LoadMode::kScalar && kk < ku; ++kk) {
      if (split_a) body += fmt::format("    int ac{0}; ivec4 acp{0}; ixc_a(k + {0}u, ac{0}, acp{0});\n", kk);
      for (uint32_t i = 0; i < tm; ++i) {
        if (split_a) {
          const std::string ix = fmt::format("si{}_{}", i, kk), ok = fmt::format("sv{}_{}", i, kk);
          body += w.SplitIndex('a', fmt::format("ar{}", i), fmt::format("ap{}", i), fmt::format("ac{}", kk),
                               fmt::format("acp{}", kk), ix, ok);
          body += fmt::format("    {0} a{1}_{2} = {3} ? {4} : {0}(0);\n", acc, i, kk, ok, w.ScalarLoad('a', ix));
        } else {
          body += fmt::format("    {} a{}_{} = load_a(b, mr{}, k + {}u);\n", acc, i, kk, i, kk);
        }
      }
    }
    // B fragments b<kk>_<j>, loaded for all kk first when vectors run along k.
    for (uint32_t j = 0; mb == LoadMode::kVecOuter && j < tn; ++j) {
      for (int q = 0; q < ku / vb; ++q) {
        std::vector<std::string> names;
        for (int t2 = 0; t2 < vb; ++t2) names.push_back(fmt::format("b{}_{}", q * vb + t2, j));
        body += w.VectorLoad('b', vb, "b", fmt::format("k + {}u", q * vb), fmt::format("nc{}", j), names);
      }
    }
    for (int kk = 0; kk < ku; ++kk) {
      if (mb == LoadMode::kVecInner) {
        for (uint32_t q = 0; q < tn / static_cast<uint32_t>(vb); ++q) {
          std::vector<std::string> names;
          for (int t2 = 0; t2 < vb; ++t2) names.push_back(fmt::format("b{}_{}", kk, q * vb + t2));
          body += w.VectorLoad('b', vb, "b", fmt::format("k + {}u", kk), fmt::format("min(n0 + {}u, N - {}u)", q * vb, vb),
                               names);
        }
      } else if (mb == LoadMode::kScalar) {
        for (uint32_t j = 0; j < tn; ++j) {
          if (qcols) {
            body += fmt::format("    int b{0}_{1} = load_b_raw(b, k + {0}u, nc{1}) - qc{1}.w;\n", kk, j);
          } else {
            body += fmt::format("    {} b{}_{} = load_b(b, k + {}u, nc{});\n", acc, kk, j, kk, j);
          }
        }
      }
      for (uint32_t i = 0; i < tm; ++i) {
        for (uint32_t j = 0; j < tn; ++j) {
          body += "    " + w.Mac(fmt::format("c{}_{}", i, j), fmt::format("a{}_{}", i, kk), fmt::format("b{}_{}", kk, j)) + "\n";
        }
      }
    }
    body += "  }\n";
    // The K tail, one step at a time.
    body += "  for (; k < kend; ++k) {\n";
    for (uint32_t i = 0; i < tm; ++i) body += fmt::format("    {} a{} = load_a(b, mr{}, k);\n", acc, i, i);
    for (uint32_t j = 0; j < tn; ++j) {
      body += qcols ? fmt::format("    int b{0} = load_b_raw(b, k, nc{0}) - qc{0}.w;\n", j)
                    : fmt::format("    {} b{} = load_b(b, k, nc{});\n", acc, j, j);
    }
    for (uint32_t i = 0; i < tm; ++i) {
      for (uint32_t j = 0; j < tn; ++j) {
        body += "    " + w.Mac(fmt::format("c{}_{}", i, j), fmt::format("a{}", i), fmt::format("b{}", j)) + "\n";
      }
    }
    body += "  }\n";
  }
  if (p.grouped) {
    // Column groups: the tile holds whole blocks of groups * per_block columns; root column j
    // of block q takes column jj of each group (MatmulProblem::grouped's order).
    if (split > 1 || dot4 || qcols || !e.groups) {
      return InvalidArgumentError(p.what + ": column groups in a split or quantized product, or without their epilogue");
    }
    const uint32_t per_block = static_cast<uint32_t>(p.grouped->per_block);
    const uint32_t block = static_cast<uint32_t>(p.grouped->groups) * per_block;
    if (tn % block != 0) return InternalError(p.what + ": a grouped tile of partial column blocks");
    std::vector<KernelWriter::GroupElement> groups;
    for (uint32_t i = 0; i < tm; ++i) {
      for (uint32_t q = 0; q < tn / block; ++q) {
        for (uint32_t jj = 0; jj < per_block; ++jj) {
          KernelWriter::GroupElement g;
          for (uint32_t s = 0; s < block / per_block; ++s) g.values.push_back(fmt::format("c{}_{}", i, q * block + s * per_block + jj));
          g.b = "b";
          g.m = fmt::format("m0 + {}u", i);
          g.n = fmt::format("n0 + {}u", q * block + jj);
          g.j = fmt::format("(n0 + {}u) / {}u * {}u + {}u", q * block, block, per_block, jj);
          g.guard = fmt::format("{} < M && {} < N", g.m, g.n);
          groups.push_back(std::move(g));
        }
      }
    }
    body += w.StoreGroups(groups);
  }
  std::vector<KernelWriter::TileElement> tile;
  for (uint32_t i = 0; !p.grouped && i < tm; ++i) {
    for (uint32_t j = 0; j < tn; ++j) {
      const std::string m = fmt::format("m0 + {}u", i), n = fmt::format("n0 + {}u", j);
      const std::string guard = fmt::format("{} < M && {} < N", m, n);
      if (split > 1) {
        body += fmt::format("  if ({0}) store_partial(s, b, {1}, {2}, c{3}_{4});\n", guard, m, n, i, j);
      } else if (qcols) {
        body += fmt::format("  if ({0}) store_cq(b, {1}, {2}, c{3}_{4}, qc{4});\n", guard, m, n, i, j);
      } else {
        tile.push_back({fmt::format("c{}_{}", i, j), "b", m, n, guard});
      }
    }
  }
  body += w.StoreTile(tile);
  LibraryDispatch d;
  d.name = name + (split > 1 ? ".regtile_partial" : ".regtile");
  const uint32_t local_x = c.lanes_m ? c.wg_y : c.wg_x, local_y = c.lanes_m ? c.wg_x : c.wg_y;
  d.glsl = w.Assemble(local_x, local_y, 1, body);
  d.workgroup_size = {local_x, local_y, 1};
  d.grid = {static_cast<uint32_t>((p.n + c.bn() - 1) / c.bn()), static_cast<uint32_t>((p.m + c.bm() - 1) / c.bm()),
            static_cast<uint32_t>(p.batch * std::max<uint32_t>(split, 1))};
  d.bindings = w.bindings();
  return d;
}

}  // namespace vkhlo::codegen::library
