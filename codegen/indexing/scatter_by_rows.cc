#include "codegen/indexing/scatter_by_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/index_util.h"
#include "codegen/indexing/element_dispatch.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }
int64_t Position(const std::vector<int64_t>& v, int64_t x) {
  return static_cast<int64_t>(std::find(v.begin(), v.end(), x) - v.begin());
}

// Scratch buffers: per row counts, per row starts, per row fill cursors, the bucketed positions.
enum Scratch { kCount = 0, kStart = 1, kFill = 2, kList = 3 };

struct RowScatter {
  const Operation* op = nullptr;
  const ir::ScatterDimensionNumbers* dn = nullptr;
  size_t n = 0;
  std::vector<int64_t> od, id, ud;
  std::vector<int64_t> update_scatter_dims, window_input_dims;
  std::vector<int64_t> row_dims;      // input dimensions that select the row (inserted, batching)
  std::vector<int64_t> row_sizes;     // their sizes
  std::vector<int64_t> scatter_sizes; // the scatter position space (update scatter dims)
  int64_t rows = 1, positions = 1;
};

std::optional<RowScatter> MatchRowScatter(const Operation& op) {
  const ir::Attribute* attr = op.attribute("scatter_dimension_numbers");
  const ir::ScatterDimensionNumbers* dn = attr ? attr->as<ir::ScatterDimensionNumbers>() : nullptr;
  if (dn == nullptr) return std::nullopt;
  RowScatter m;
  m.op = &op;
  m.dn = dn;
  m.n = (op.num_operands() - 1) / 2;
  m.od = op.operand(0)->type().dims();
  m.id = op.operand(m.n)->type().dims();
  m.ud = op.operand(m.n + 1)->type().dims();
  for (int64_t d : dn->scatter_dims_to_operand_dims) {
    if (!Contains(dn->inserted_window_dims, d)) return std::nullopt;
  }
  for (int64_t d = 0; d < static_cast<int64_t>(m.ud.size()); ++d) {
    if (!Contains(dn->update_window_dims, d)) {
      m.update_scatter_dims.push_back(d);
      m.scatter_sizes.push_back(m.ud[static_cast<size_t>(d)]);
      m.positions *= m.ud[static_cast<size_t>(d)];
    }
  }
  for (int64_t d = 0; d < static_cast<int64_t>(m.od.size()); ++d) {
    if (Contains(dn->inserted_window_dims, d) || Contains(dn->input_batching_dims, d)) {
      m.row_dims.push_back(d);
      m.row_sizes.push_back(m.od[static_cast<size_t>(d)]);
      m.rows *= m.od[static_cast<size_t>(d)];
    } else {
      m.window_input_dims.push_back(d);
    }
  }
  if (m.window_input_dims.size() != dn->update_window_dims.size() || m.rows <= 0 || m.positions <= 0 ||
      m.rows >= (int64_t{1} << 31) || m.positions >= (int64_t{1} << 31)) {
    return std::nullopt;
  }
  return m;
}

// The row of scatter position `s_multi` (one entry per update scatter dimension) into `row`, and
// whether it lies inside the input.
StatusOr<std::pair<std::string, std::string>> EmitRow(ElementalEmitter& em, const RowScatter& m,
                                                      const std::vector<std::string>& s_multi) {
  const Operation& op = *m.op;
  const int64_t ivd = m.dn->index_vector_dim;
  auto indices_index = [&](int64_t component) {
    std::vector<std::string> v;
    for (int64_t d = 0, b = 0; d < static_cast<int64_t>(m.id.size()); ++d) {
      v.push_back(d == ivd ? std::to_string(component) : s_multi[static_cast<size_t>(b++)]);
    }
    return Index::Multi(m.id, v);
  };
  std::vector<std::string> coordinates, conditions;
  for (int64_t d : m.row_dims) {
    std::string c = "0";
    if (Contains(m.dn->input_batching_dims, d)) {
      const int64_t s = m.dn->scatter_indices_batching_dims[static_cast<size_t>(Position(m.dn->input_batching_dims, d))];
      c = s_multi[static_cast<size_t>(s < ivd ? s : s - 1)];
    } else if (Contains(m.dn->scatter_dims_to_operand_dims, d)) {
      VKHLO_ASSIGN_OR_RETURN(Expr value,
                             em.Operand(op, m.n, indices_index(Position(m.dn->scatter_dims_to_operand_dims, d))));
      VKHLO_ASSIGN_OR_RETURN(c, SaturatedIndex(em, op, value));
      conditions.push_back(fmt::format("uint({}) < {}u", c, m.od[static_cast<size_t>(d)]));
    }
    coordinates.push_back(c);
  }
  const std::string row = em.Linear(Index::Multi(m.row_sizes, coordinates));
  const std::string valid = conditions.empty() ? "true" : em.Var("bool", fmt::format("{}", fmt::join(conditions, " && ")));
  return std::make_pair(row, valid);
}

struct EmitterSetup {
  ShaderPrelude prelude;
  std::unordered_map<const ir::Value*, InputBinding> loads;
};

// A dispatch over the scatter positions binding the fusion inputs and the scratch buffers
// `scratch` (named in<inputs + k>); `body` gets the emitter, the row and validity of the
// position `s` and the scratch names.
StatusOr<KernelDispatch> PositionDispatch(
    const Fusion& fusion, const TargetInfo& target, const KernelOptions& options, const RowScatter& m,
    const std::string& what, const std::vector<KernelBuffer>& scratch,
    const std::function<void(ElementalEmitter&, const std::string& row, const std::vector<std::string>& names)>& body) {
  const uint32_t wg = ChooseLoopConfig(target, 1).workgroup_size;
  KernelDispatch dispatch;
  dispatch.name = fusion.name + "." + what;
  dispatch.summary = what;
  for (const ir::Value* v : fusion.inputs) dispatch.bindings.push_back(KernelBuffer::Read(v));
  std::vector<std::string> names;
  for (const KernelBuffer& b : scratch) {
    names.push_back(fmt::format("in{}", dispatch.bindings.size()));
    dispatch.bindings.push_back(b);
  }
  dispatch.grid = {static_cast<uint32_t>((static_cast<uint64_t>(m.positions) + wg - 1) / wg), 1, 1};
  ShaderPrelude prelude;
  ElementalEmitter em(target, prelude, ElementalEmitter::InputsInOrder(fusion.inputs));
  em.set_source_name(options.source_name);
  em.Line(fmt::format("uint s = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x;", wg));
  em.Line(fmt::format("if (s >= {}u) return;", m.positions));
  VKHLO_ASSIGN_OR_RETURN(auto row, EmitRow(em, m, em.Multi(Index::Linear(m.scatter_sizes, "s"))));
  em.Open(fmt::format("if ({})", row.second));
  body(em, row.first, names);
  em.Close();
  VKHLO_RETURN_IF_ERROR(em.sticky_error());
  dispatch.glsl = AssembleShader(prelude, dispatch.bindings, wg,
                                 fmt::format("scatter {} {}", fusion.name, what), em.body());
  return dispatch;
}

// A dispatch binding only scratch buffers, with a hand-written body over invocation `i`.
KernelDispatch ScratchDispatch(const Fusion& fusion, const std::string& what, uint32_t wg, uint64_t invocations,
                               const std::vector<KernelBuffer>& scratch, const std::string& body,
                               const std::string& globals = "") {
  KernelDispatch dispatch;
  dispatch.name = fusion.name + "." + what;
  dispatch.summary = what;
  dispatch.bindings = scratch;
  dispatch.grid = {static_cast<uint32_t>((invocations + wg - 1) / wg), 1, 1};
  ShaderPrelude prelude;
  if (!globals.empty()) prelude.Global(globals);
  dispatch.glsl = AssembleShader(
      prelude, scratch, wg, fmt::format("scatter {} {}", fusion.name, what),
      fmt::format("  uint i = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x;\n{}", wg,
                  body));
  return dispatch;
}

}  // namespace

StatusOr<std::optional<DeviceKernel>> EmitScatterByRows(const Fusion& fusion, const TargetInfo& target,
                                                        const KernelOptions& options) {
  std::optional<RowScatter> match = MatchRowScatter(*fusion.device_op);
  if (!match) return std::optional<DeviceKernel>();
  const RowScatter& m = *match;
  const Operation& op = *m.op;
  const uint64_t rows = static_cast<uint64_t>(m.rows);
  const uint32_t wg = ChooseLoopConfig(target, 1).workgroup_size;
  DeviceKernel kernel;
  kernel.summary = "scatter by rows: bucket the scatter positions by row (counting sort, buckets sorted), then one "
                   "invocation per result element applies its row's updates in order";
  kernel.scratch_bytes = {rows * 4, rows * 4, rows * 4, static_cast<uint64_t>(m.positions) * 4};
  using KB = KernelBuffer;

  // 1. Zero the counts and cursors.
  kernel.dispatches.push_back(ScratchDispatch(fusion, "scatter_zero", wg, rows, {KB::Scratch(kCount, true), KB::Scratch(kFill, true)},
                                              fmt::format("  if (i < {}u) {{ in0[i] = 0u; in1[i] = 0u; }}\n", rows)));
  // 2. Count the positions of each row.
  VKHLO_ASSIGN_OR_RETURN(KernelDispatch count,
                         PositionDispatch(fusion, target, options, m, "scatter_count", {KB::Scratch(kCount, true)},
                                          [](ElementalEmitter& em, const std::string& row, const std::vector<std::string>& names) {
                                            em.Line(fmt::format("atomicAdd({}[{}], 1u);", names[0], row));
                                          }));
  kernel.dispatches.push_back(std::move(count));
  // 3. Exclusive scan of the counts in one workgroup: each invocation scans a chunk.
  const uint64_t chunk = (rows + wg - 1) / wg;
  kernel.dispatches.push_back(ScratchDispatch(
      fusion, "scatter_scan", wg, wg, {KB::Scratch(kCount, false), KB::Scratch(kStart, true)},
      fmt::format("  uint first = i * {0}u, last = min(first + {0}u, {1}u);\n"
                  "  uint sum = 0u;\n"
                  "  for (uint k = first; k < last; ++k) sum += in0[k];\n"
                  "  partial[i] = sum;\n"
                  "  barrier();\n"
                  "  uint offset = 0u;\n"
                  "  for (uint k = 0u; k < i; ++k) offset += partial[k];\n"
                  "  for (uint k = first; k < last; ++k) {{ in1[k] = offset; offset += in0[k]; }}\n",
                  chunk, rows),
      fmt::format("shared uint partial[{}];", wg)));
  // 4. Place each position in its row's bucket (order within a bucket fixed by step 5).
  VKHLO_ASSIGN_OR_RETURN(
      KernelDispatch place,
      PositionDispatch(fusion, target, options, m, "scatter_place",
                       {KB::Scratch(kFill, true), KB::Scratch(kList, true), KB::Scratch(kStart, false)},
                       [](ElementalEmitter& em, const std::string& row, const std::vector<std::string>& names) {
                         em.Line(fmt::format("{}[{}[{}] + atomicAdd({}[{}], 1u)] = s;", names[1], names[2], row,
                                             names[0], row));
                       }));
  kernel.dispatches.push_back(std::move(place));
  // 5. Sort each bucket by position (Shell sort: any bucket size, in place).
  kernel.dispatches.push_back(ScratchDispatch(
      fusion, "scatter_sort", wg, rows, {KB::Scratch(kStart, false), KB::Scratch(kCount, false), KB::Scratch(kList, true)},
      fmt::format("  if (i >= {}u) return;\n"
                  "  uint base = in0[i], size = in1[i];\n"
                  "  for (uint gap = size / 2u; gap > 0u; gap = gap == 2u ? 1u : gap * 5u / 11u) {{\n"
                  "    for (uint a = gap; a < size; ++a) {{\n"
                  "      uint v = in2[base + a];\n"
                  "      uint b = a;\n"
                  "      for (; b >= gap && in2[base + b - gap] > v; b -= gap) in2[base + b] = in2[base + b - gap];\n"
                  "      in2[base + b] = v;\n"
                  "    }}\n"
                  "  }}\n",
                  rows)));
  // 6. One invocation per result element applies its row's updates in order.
  const size_t extra_base = fusion.inputs.size() + fusion.outputs.size();
  VKHLO_ASSIGN_OR_RETURN(
      KernelDispatch apply,
      EmitElementDispatch(
          fusion, target, options, "scatter_rows",
          [&](ElementalEmitter& em, const Index& index) -> StatusOr<std::vector<Expr>> {
            const std::string start = fmt::format("in{}", extra_base), count = fmt::format("in{}", extra_base + 1),
                              list = fmt::format("in{}", extra_base + 2);
            std::vector<std::string> r = em.Multi(index);
            std::vector<Expr> acc;
            for (size_t k = 0; k < m.n; ++k) {
              VKHLO_ASSIGN_OR_RETURN(Expr initial, em.Operand(op, k, index));
              const Expr raw = em.Raw(initial);
              acc.push_back(Expr{em.Var(em.Facts(raw.type).raw_glsl, raw.code), raw.type, true});
            }
            std::vector<std::string> row_coordinates, inside;
            for (int64_t d : m.row_dims) row_coordinates.push_back(r[static_cast<size_t>(d)]);
            const std::string row = em.Linear(Index::Multi(m.row_sizes, row_coordinates));
            std::vector<std::string> u(m.ud.size(), "0");
            for (size_t w = 0; w < m.window_input_dims.size(); ++w) {
              const int64_t ud_index = m.dn->update_window_dims[w];
              u[static_cast<size_t>(ud_index)] = r[static_cast<size_t>(m.window_input_dims[w])];
              inside.push_back(fmt::format("uint({}) < {}u", r[static_cast<size_t>(m.window_input_dims[w])],
                                           m.ud[static_cast<size_t>(ud_index)]));
            }
            em.Open(fmt::format("if ({})", inside.empty() ? "true" : fmt::format("{}", fmt::join(inside, " && "))));
            const std::string first = em.Var("uint", fmt::format("{}[{}]", start, row));
            const std::string end = em.Var("uint", fmt::format("{} + {}[{}]", first, count, row));
            em.Open(fmt::format("for (uint j = {}; j < {}; ++j)", first, end));
            const std::string s = em.Var("uint", fmt::format("{}[j]", list));
            std::vector<std::string> s_multi = em.Multi(Index::Linear(m.scatter_sizes, s));
            for (size_t b = 0; b < m.update_scatter_dims.size(); ++b) {
              u[static_cast<size_t>(m.update_scatter_dims[b])] = s_multi[b];
            }
            std::vector<Expr> arguments = acc;
            for (size_t k = 0; k < m.n; ++k) {
              VKHLO_ASSIGN_OR_RETURN(Expr update, em.Operand(op, m.n + 1 + k, Index::Multi(m.ud, u)));
              arguments.push_back(update);
            }
            VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> results, EvaluateRegion(em, op, op.region(0), arguments));
            if (results.size() != m.n) return em.OpError(op, "has an update computation of the wrong arity");
            for (size_t k = 0; k < m.n; ++k) em.Line(fmt::format("{} = {};", acc[k].code, results[k].code));
            em.Close();
            em.Close();
            return acc;
          },
          {KB::Scratch(kStart, false), KB::Scratch(kCount, false), KB::Scratch(kList, false)}));
  kernel.dispatches.push_back(std::move(apply));
  return std::optional<DeviceKernel>(std::move(kernel));
}

}  // namespace vkhlo::codegen
