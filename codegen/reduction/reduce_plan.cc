#include "codegen/reduction/reduce_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/elemental/types.h"
#include "codegen/kernel.h"

namespace vkhlo::codegen::reduction {

namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Below this many workgroups a single pass leaves most of a device idle (a GPU has tens of
// compute units; a CPU device a few threads).
int64_t FewGroups(const TargetInfo& target) { return target.device_type == TargetInfo::DeviceType::kCpu ? 8 : 64; }
// What pass 1 aims for: enough workgroups to fill the device several times over.
int64_t TargetGroups(const TargetInfo& target) {
  return target.device_type == TargetInfo::DeviceType::kCpu ? 32 : 256;
}
constexpr int64_t kMaxSegments = 4096;
// The most iterations an invocation's loop over its part should run: llvmpipe (lavapipe) ends
// every loop after 65535 iterations (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS), silently dropping
// the rest, and elsewhere a long invocation only delays the tree. Rows longer than this many
// loads per invocation are split into more segments (tensors beyond 128 MiB reach it).
constexpr int64_t kMaxLoopIterations = 16384;

// Elements an invocation of a workgroup tree should fold before the tree: CPU devices (lavapipe)
// pay for every barrier of the tree by switching between the invocations of a workgroup, so a
// row is better reduced by few invocations each folding many elements (4096x4096 rows: 2.5x
// faster with 16 invocations than with 256); GPUs want wide groups for latency hiding.
int64_t FoldPerInvocation(const TargetInfo& target) {
  return target.device_type == TargetInfo::DeviceType::kCpu ? 256 : 8;
}

// Results (columns) an invocation owns in a column reduction with vector loads (the innermost
// kept size is a multiple of 4). GPUs: 4, one uvec4 per row, so a subgroup's loads of a row are
// adjacent. CPU devices: up to 32 (8 uvec4 per row): a subgroup, one SIMD vector walking down
// the rows, then reads 1 KiB of each row rather than 128 bytes, which the CPU's memory system
// streams far better (4096x4096 f32 column sums on lavapipe: about 1.7x faster than with 4).
uint32_t ColumnsPerInvocation(const TargetInfo& target, int64_t inner) {
  if (target.device_type != TargetInfo::DeviceType::kCpu) return 4;
  uint32_t v = 32;
  while (inner % v != 0) v /= 2;
  return v;
}

}  // namespace

std::string AddressGroups::Address(const std::string& linear) const {
  if (groups.empty()) return "0u";
  std::string sum;
  int64_t inner = 1;  // product of the sizes of the groups inside group i
  for (size_t i = groups.size(); i-- > 0;) {
    const auto [size, stride] = groups[i];
    std::string index = inner == 1 ? linear : fmt::format("({} / {})", linear, UintLiteral(static_cast<uint64_t>(inner)));
    if (i > 0) index = fmt::format("({} % {})", index, UintLiteral(static_cast<uint64_t>(size)));
    std::string term = stride == 1 ? index : fmt::format("{} * {}", index, UintLiteral(static_cast<uint64_t>(stride)));
    sum = sum.empty() ? term : term + " + " + sum;
    inner *= size;
  }
  return "(" + sum + ")";
}

ReduceGeometry MakeReduceGeometry(const std::vector<int64_t>& input_dims, const std::vector<int64_t>& dimensions) {
  ReduceGeometry g;
  g.input_dims = input_dims;
  const size_t rank = input_dims.size();
  std::vector<bool> reduced(rank, false);
  for (int64_t d : dimensions) {
    if (d >= 0 && static_cast<size_t>(d) < rank) reduced[static_cast<size_t>(d)] = true;
  }
  std::vector<int64_t> strides(rank, 1);
  for (size_t d = rank; d-- > 1;) strides[d - 1] = strides[d] * std::max<int64_t>(1, input_dims[d]);
  int last_kind = -1;  // kind of the previous dimension of size > 1 (0 kept, 1 reduced)
  for (size_t d = 0; d < rank; ++d) {
    (reduced[d] ? g.length : g.rows) *= input_dims[d];
    if (input_dims[d] == 1) continue;
    AddressGroups& groups = reduced[d] ? g.reduced : g.kept;
    const int kind = reduced[d] ? 1 : 0;
    if (kind == last_kind && !groups.groups.empty()) {
      groups.groups.back().first *= input_dims[d];
      groups.groups.back().second = strides[d];
    } else {
      groups.groups.push_back({input_dims[d], strides[d]});
    }
    last_kind = kind;
  }
  g.contiguous_rows = g.reduced.groups.empty() || (g.reduced.groups.size() == 1 && g.reduced.groups[0].second == 1);
  return g;
}

uint64_t ReducePass::Groups() const {
  // Units: workgroups (workgroup mode) or invocations, each `pack` rows of one segment.
  const int64_t units = CeilDiv(rows, pack) * segments;
  if (mode == Mode::kWorkgroup) return static_cast<uint64_t>(units);
  return static_cast<uint64_t>(CeilDiv(units, workgroup_size));
}

uint32_t TreeWorkgroupSize(const TargetInfo& target, uint32_t bytes_per_invocation, int64_t elements) {
  uint32_t limit = std::min({256u, target.max_workgroup_invocations, target.max_workgroup_size[0]});
  // A CPU device runs each workgroup on one thread, a subgroup being one SIMD vector: wider
  // workgroups only switch between their subgroups at every barrier and, strided, make each
  // subgroup read a few bytes of every page of its part instead of streaming through it (a full
  // sum of 16M f32 on lavapipe with workgroups of 256: 0.18x memcpy; of 8, with uvec4 loads, 2.5-3.7x
  // faster).
  if (target.device_type == TargetInfo::DeviceType::kCpu) limit = std::min(limit, std::max(1u, target.subgroup_size));
  if (bytes_per_invocation > 0) limit = std::min(limit, std::max(1u, target.max_shared_memory_bytes / bytes_per_invocation));
  // At least a subgroup (a narrower workgroup leaves SIMD lanes idle), then up to `elements`.
  uint32_t w = 1;
  while (w * 2 <= limit && (static_cast<int64_t>(w) < elements || w < target.subgroup_size)) w *= 2;
  return w;
}

ReducePlan ChooseReducePlan(const ReduceGeometry& g, const TargetInfo& target, uint32_t bytes_per_invocation,
                            uint32_t pack, bool commutative, bool two_pass_allowed, bool vector_loads) {
  constexpr int64_t kVector = 4;
  ReducePlan plan;
  const uint32_t loop_wg = ChooseLoopConfig(target, 1).workgroup_size;
  ReducePass pass;
  pass.rows = g.rows;
  pass.length = g.length;
  pass.segment_length = g.length;
  pass.pack = pack;
  if (g.rows == 0 || g.length == 0) {
    pass.workgroup_size = loop_wg;
    plan.why = g.rows == 0 ? "no result elements" : "empty rows: every result is the init value";
    plan.passes.push_back(pass);
    return plan;
  }
  if (g.contiguous_rows && g.length >= kWorkgroupMinRow) {
    pass.mode = ReducePass::Mode::kWorkgroup;
    pass.strided = commutative;
    if (commutative && vector_loads && g.length % kVector == 0) pass.vector = static_cast<uint32_t>(kVector);
    const int64_t loads = g.length / pass.vector;  // per row
    pass.workgroup_size = TreeWorkgroupSize(target, bytes_per_invocation, CeilDiv(loads, FoldPerInvocation(target)));
    const int64_t w = pass.workgroup_size;
    const int64_t groups = CeilDiv(g.rows, pack);
    const int64_t needed = CeilDiv(loads, w * kMaxLoopIterations);  // segments that keep loops short
    // Never fewer than `needed`: past kMaxSegments * w * kMaxLoopIterations loads (fused values
    // beyond 2^29 elements on lavapipe) a capped count would drop elements there.
    const int64_t segments = std::max(
        std::min(std::max(std::min(CeilDiv(TargetGroups(target), groups), loads / (w * FoldPerInvocation(target))),
                          needed),
                 kMaxSegments),
        needed);
    const std::string how = pass.vector > 1 ? "strided, uvec4 loads" : commutative ? "strided" : "in order";
    if (two_pass_allowed && (groups < FewGroups(target) || needed >= 2) && segments >= 2) {
      pass.segment_length = CeilDiv(loads, segments) * pass.vector;
      pass.segments = CeilDiv(g.length, pass.segment_length);
      pass.pack = 1;
      plan.why = fmt::format("{} contiguous rows of {}: {} segments per row reduced by workgroups of {} ({}), "
                             "then the partials", g.rows, g.length, pass.segments, w, how);
    } else {
      plan.why = fmt::format("{} contiguous rows of {}: a workgroup of {} per row ({})", g.rows, g.length, w, how);
    }
  } else {
    pass.mode = ReducePass::Mode::kInvocation;
    pass.workgroup_size = loop_wg;
    // Column reductions: the innermost kept group is the memory's innermost dimension, so
    // adjacent results read adjacent words at every reduced element.
    const bool columns = !g.kept.groups.empty() && g.kept.groups.back().second == 1 &&
                         g.kept.groups.back().first % kVector == 0 && !g.reduced.groups.empty();
    if (vector_loads && columns && kVector % pack == 0) {
      pass.vector = ColumnsPerInvocation(target, g.kept.groups.back().first);
      pass.pack = pass.vector;
    }
    const int64_t groups = CeilDiv(CeilDiv(g.rows, pass.pack), pass.workgroup_size);
    const int64_t needed = CeilDiv(g.length, kMaxLoopIterations);  // segments that keep loops short
    int64_t segments = std::min(std::max(std::min(CeilDiv(TargetGroups(target) * loop_wg / 4, CeilDiv(g.rows, pass.vector)),
                                                        g.length / (FoldPerInvocation(target) * 4)),
                                               needed),
                                      kMaxSegments);
    segments = std::max(segments, needed);  // as above: loops stay within kMaxLoopIterations
    const std::string how = pass.vector > 1 ? fmt::format("{} adjacent rows per invocation, uvec4 loads", pass.vector)
                                            : "an invocation per row";
    if (two_pass_allowed && (groups < FewGroups(target) || needed >= 2) && segments >= 2) {
      pass.segment_length = CeilDiv(g.length, segments);
      pass.segments = CeilDiv(g.length, pass.segment_length);
      pass.pack = pass.vector;
      plan.why = fmt::format("{} rows of {} (strided or short): {} segments per row, {}, then the partials", g.rows,
                             g.length, pass.segments, how);
    } else {
      plan.why = fmt::format("{} rows of {} (strided or short): {}, in order", g.rows, g.length, how);
    }
  }
  plan.passes.push_back(pass);
  if (pass.segments > 1) {
    ReducePass second;
    second.rows = g.rows;
    second.length = pass.segments;
    second.segment_length = pass.segments;
    second.pack = pack;
    if (pass.segments >= kWorkgroupMinRow) {
      second.mode = ReducePass::Mode::kWorkgroup;
      second.workgroup_size =
          TreeWorkgroupSize(target, bytes_per_invocation, CeilDiv(pass.segments, FoldPerInvocation(target)));
      second.strided = commutative;
    } else {
      second.workgroup_size = loop_wg;
    }
    plan.passes.push_back(second);
  }
  return plan;
}

}  // namespace vkhlo::codegen::reduction
