#include "codegen/reduction/row_group.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "codegen/elemental/op_emitters.h"
#include "codegen/elemental/emitter.h"
#include "codegen/elemental/types.h"
#include "codegen/fusion.h"
#include "codegen/kernel.h"
#include "codegen/reduction/reducer.h"

namespace vkhlo::codegen::reduction {

using ir::OpCode;

namespace {

enum class Kind { kFull, kRow };

std::vector<int64_t> NonUnit(const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  for (int64_t d : dims) {
    if (d != 1) out.push_back(d);
  }
  return out;
}

std::vector<int64_t> Attr(const ir::Operation& op, const char* name) {
  const ir::Attribute* a = op.attribute(name);
  std::optional<std::vector<int64_t>> v = a ? a->AsI64Vector() : std::nullopt;
  return v ? *v : std::vector<int64_t>{};
}

// The reduced dimensions of a reduce if they are the trailing ones of its input (sorted).
std::optional<size_t> TrailingReduced(const ir::Operation& op) {
  const std::vector<int64_t>& dims = op.operand(0)->type().dims();
  std::vector<int64_t> reduced = Attr(op, "dimensions");
  if (reduced.empty() || reduced.size() > dims.size()) return std::nullopt;
  std::sort(reduced.begin(), reduced.end());
  const int64_t first = static_cast<int64_t>(dims.size() - reduced.size());
  for (size_t i = 0; i < reduced.size(); ++i) {
    if (reduced[i] != first + static_cast<int64_t>(i)) return std::nullopt;
  }
  return reduced.size();
}

// Positions (in order) of the non-unit dimensions among `dims` for d < limit.
std::vector<int64_t> NonUnitPositions(const std::vector<int64_t>& dims, size_t limit) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < std::min(limit, dims.size()); ++d) {
    if (dims[d] != 1) out.push_back(static_cast<int64_t>(d));
  }
  return out;
}

class GroupFinder {
 public:
  GroupFinder(const ir::Block& block, const TargetInfo& target, const std::function<bool(const ir::Operation&)>& usable)
      : block_(block), target_(target), usable_(usable) {
    int position = 0;
    for (const auto& op : block.operations()) {
      position_[op.get()] = position++;
      for (const ir::Value* v : op->operands()) users_[v].insert(op.get());
      CollectCaptures(*op, *op);
    }
  }

  std::vector<RowGroup> Run() {
    std::vector<RowGroup> groups;
    for (const auto& op : block_.operations()) {
      if (taken_.count(op.get()) || !IsRowReduce(*op)) continue;
      std::optional<RowGroup> group = Grow(*op);
      if (!group) continue;
      for (const ir::Operation* o : group->ops) taken_.insert(o);
      groups.push_back(std::move(*group));
    }
    return groups;
  }

 private:
  // Operands of ops nested in `op`'s regions that are values of this block: `top` uses them.
  void CollectCaptures(const ir::Operation& top, const ir::Operation& op) {
    for (size_t r = 0; r < op.num_regions(); ++r) {
      for (const auto& b : op.region(r).blocks()) {
        for (const auto& inner : b->operations()) {
          for (const ir::Value* v : inner->operands()) {
            if (DefinedHere(v)) users_[v].insert(&top);
          }
          CollectCaptures(top, *inner);
        }
      }
    }
  }

  bool DefinedHere(const ir::Value* v) const {
    const ir::Operation* def = v->defining_op();
    return def != nullptr ? def->parent_block() == &block_ : v->owner_block() == &block_;
  }

  bool IsRowReduce(const ir::Operation& op) const {
    if (op.code() != OpCode::kReduce || !usable_(op)) return false;
    if (!AnalyzeReducer(op).ok() || !ReducerIsElemental(op)) return false;
    const ir::Type& type = op.operand(0)->type();
    if (!type.is_tensor() || !FitsLinearIndex(type.dims())) return false;
    for (size_t i = 0; i < op.num_results(); ++i) {
      if (!op.result(i)->type().is_tensor()) return false;
    }
    return TrailingReduced(op).has_value();
  }

  // Whether `v` (read by a group op) exists when the anchor runs, absorbing elemental ops after
  // the anchor whose every user is in the group (or absorbed with them) into `late`.
  bool Ready(const ir::Value* v, const std::unordered_set<const ir::Operation*>& group,
             std::vector<const ir::Operation*>& late, int depth = 0) {
    const ir::Operation* def = v->defining_op();
    if (def == nullptr || def->parent_block() != &block_) return true;
    if (def->code() == OpCode::kConstant) return true;
    if (position_.at(def) < anchor_position_) return true;
    if (std::find(late.begin(), late.end(), def) != late.end()) return true;
    if (depth > 64 || taken_.count(def) || group.count(def) || !IsElementalOp(*def) || !usable_(*def)) return false;
    if (def->num_results() != 1) return false;
    late.push_back(def);
    // Users outside the group recompute it too (the planner fuses a late value everywhere), so
    // they must be elemental and the value cheap (a constant's broadcast, a scale).
    bool outside = false;
    for (const ir::Operation* user : users_[v]) {
      if (group.count(user) || std::find(late.begin(), late.end(), user) != late.end() || user == current_) continue;
      outside = true;
      if (!IsElementalOp(*user) || !usable_(*user) || user->code() == OpCode::kReduce) {
        late.pop_back();
        return false;
      }
    }
    if (outside && ElementCost(*def) > kCheapRecomputeCost) {
      late.pop_back();
      return false;
    }
    const size_t mark = late.size();
    for (const ir::Value* operand : def->operands()) {
      if (!Ready(operand, group, late, depth + 1)) {
        late.resize(mark - 1);
        return false;
      }
    }
    return true;
  }

  std::optional<Kind> Classify(const ir::Operation& op, const std::unordered_map<const ir::Value*, Kind>& kinds) const {
    if (op.num_results() != 1 || !op.result(0)->type().is_tensor()) return std::nullopt;
    bool any_full = false, any_row = false;
    for (const ir::Value* v : op.operands()) {
      auto it = kinds.find(v);
      if (it == kinds.end()) continue;
      (it->second == Kind::kFull ? any_full : any_row) = true;
    }
    const std::vector<int64_t>& out = op.result(0)->type().dims();
    const bool elementwise = op.info().kind == ir::OpKind::kElementwise && IsElementalOp(op) && op.num_regions() == 0;
    if (any_full && any_row) return std::nullopt;
    if (any_full) {
      if (elementwise && out == row_dims_) return Kind::kFull;
      return std::nullopt;
    }
    // Only ROW operands among the group's.
    const ir::Value* row = nullptr;
    for (const ir::Value* v : op.operands()) {
      if (kinds.count(v)) row = v;
    }
    if (elementwise) {
      if (NonUnit(out) == NonUnit(kept_dims_)) return Kind::kRow;
      return std::nullopt;
    }
    const std::vector<int64_t>& in = row->type().dims();
    if (op.code() == OpCode::kReshape) {
      if (NonUnit(out) == NonUnit(kept_dims_)) return Kind::kRow;
      return std::nullopt;
    }
    if (op.code() == OpCode::kBroadcastInDim) {
      const std::vector<int64_t> map = Attr(op, "broadcast_dimensions");
      if (map.size() != in.size()) return std::nullopt;
      std::vector<int64_t> mapped;  // where the operand's non-unit dims go
      for (size_t j = 0; j < in.size(); ++j) {
        if (in[j] != 1) mapped.push_back(map[j]);
      }
      if (out == row_dims_) {
        // Back along the reduced dims: the non-unit operand dims are D's kept ones, in order.
        if (mapped == NonUnitPositions(row_dims_, row_dims_.size() - reduced_)) return Kind::kFull;
        return std::nullopt;
      }
      // No broadcast: only unit dims change.
      if (NonUnit(out) == NonUnit(kept_dims_) && mapped == NonUnitPositions(out, out.size())) return Kind::kRow;
    }
    return std::nullopt;
  }

  std::optional<RowGroup> Grow(const ir::Operation& anchor) {
    RowGroup g;
    g.anchor = &anchor;
    g.row_dims = anchor.operand(0)->type().dims();
    g.reduced = *TrailingReduced(anchor);
    row_dims_ = g.row_dims;
    reduced_ = g.reduced;
    kept_dims_.assign(row_dims_.begin(), row_dims_.end() - static_cast<int64_t>(reduced_));
    anchor_position_ = position_.at(&anchor);
    int64_t length = 1;
    for (size_t d = row_dims_.size() - reduced_; d < row_dims_.size(); ++d) length *= row_dims_[d];
    if (length < 2) return std::nullopt;

    std::unordered_map<const ir::Value*, Kind> kinds;
    std::unordered_set<const ir::Operation*> group;
    std::vector<const ir::Operation*> late;
    bool broadcast_back = false;  // a FULL value reads a reduction's result
    auto admit_reduce = [&](const ir::Operation& op) {
      const size_t n = op.num_operands() / 2;
      std::vector<const ir::Operation*> trial = late;
      for (size_t k = 0; k < op.num_operands(); ++k) {
        const ir::Value* v = op.operand(k);
        auto it = kinds.find(v);
        if (it != kinds.end()) {
          if (k >= n || it->second != Kind::kFull) return false;
        } else if (!Ready(v, group, trial)) {
          return false;
        }
      }
      late = std::move(trial);
      return true;
    };
    current_ = &anchor;
    if (!admit_reduce(anchor)) return std::nullopt;
    group.insert(&anchor);
    g.reductions.push_back(&anchor);
    for (size_t i = 0; i < anchor.num_results(); ++i) kinds[anchor.result(i)] = Kind::kRow;

    bool started = false;
    for (const auto& op_ptr : block_.operations()) {
      const ir::Operation& op = *op_ptr;
      if (!started) {
        started = &op == &anchor;
        continue;
      }
      if (taken_.count(&op) || group.count(&op) || std::find(late.begin(), late.end(), &op) != late.end()) continue;
      bool reads_group = false;
      for (const ir::Value* v : op.operands()) reads_group = reads_group || kinds.count(v);
      if (!reads_group || !usable_(op)) continue;
      current_ = &op;
      if (IsRowReduce(op)) {
        if (op.operand(0)->type().dims() != row_dims_ || TrailingReduced(op) != reduced_) continue;
        if (!admit_reduce(op)) continue;
        group.insert(&op);
        g.reductions.push_back(&op);
        for (size_t i = 0; i < op.num_results(); ++i) kinds[op.result(i)] = Kind::kRow;
        continue;
      }
      if (!IsElementalOp(op)) continue;
      std::optional<Kind> kind = Classify(op, kinds);
      if (!kind) continue;
      std::vector<const ir::Operation*> trial = late;
      bool ready = true;
      for (const ir::Value* v : op.operands()) {
        if (!kinds.count(v)) ready = ready && Ready(v, group, trial);
      }
      if (!ready) continue;
      late = std::move(trial);
      group.insert(&op);
      if (*kind == Kind::kFull && op.code() == OpCode::kBroadcastInDim) broadcast_back = true;
      kinds[op.result(0)] = *kind;
    }
    current_ = nullptr;
    if (!broadcast_back) return std::nullopt;

    // Outputs: group values read by anything outside the group (ops, regions, the terminator).
    for (const auto& op_ptr : block_.operations()) {
      const ir::Operation& op = *op_ptr;
      if (!group.count(&op)) continue;
      for (size_t i = 0; i < op.num_results(); ++i) {
        const ir::Value* v = op.result(i);
        for (const ir::Operation* user : users_[v]) {
          if (!group.count(user)) {
            g.outputs.push_back(v);
            break;
          }
        }
      }
    }
    if (g.outputs.empty()) return std::nullopt;

    // Outputs of narrow types: FULL ones need rows of whole words, ROW ones are refused.
    uint32_t unit = 1;
    for (const ir::Value* v : g.outputs) {
      const int bits = GetTypeFacts(v->type().element_type(), target_).storage_bits;
      if (bits >= 32) continue;
      if (kinds.at(v) == Kind::kRow) return std::nullopt;
      unit = std::max<uint32_t>(unit, static_cast<uint32_t>(32 / bits));
    }
    if (length % unit != 0) return std::nullopt;
    uint32_t shared = 0;
    bool commutative = true;
    for (const ir::Operation* r : g.reductions) {
      StatusOr<Reducer> reducer = AnalyzeReducer(*r);
      if (!reducer.ok()) return std::nullopt;
      commutative = commutative && reducer->commutative();
      for (ir::ElementType t : reducer->types) {
        const TypeFacts f = GetTypeFacts(t, target_);
        shared += f.kind == ComputeKind::kComplex128 ? 16 : (f.storage_bits > 32 || f.kind == ComputeKind::kComplex64) ? 8 : 4;
      }
    }
    int64_t rows = 1;
    for (int64_t d : kept_dims_) rows *= d;
    if (!ChooseRowPlan(rows, length, target_, shared, unit, commutative, 0)) return std::nullopt;

    for (const auto& op_ptr : block_.operations()) {
      const ir::Operation* op = op_ptr.get();
      const bool is_late = std::find(late.begin(), late.end(), op) != late.end();
      if (group.count(op) || is_late) g.ops.push_back(op);
      if (is_late) g.late.push_back(op->result(0));
    }
    std::set<const ir::Value*> seen;
    for (const ir::Operation* op : g.ops) {
      if (std::find(late.begin(), late.end(), op) != late.end()) continue;
      for (const ir::Value* v : op->operands()) {
        if (!kinds.count(v) && seen.insert(v).second) g.external.push_back(v);
      }
    }
    return g;
  }

  const ir::Block& block_;
  const TargetInfo& target_;
  const std::function<bool(const ir::Operation&)>& usable_;
  std::unordered_map<const ir::Operation*, int> position_;
  std::unordered_map<const ir::Value*, std::set<const ir::Operation*>> users_;
  std::unordered_set<const ir::Operation*> taken_;
  // The group being grown.
  std::vector<int64_t> row_dims_, kept_dims_;
  size_t reduced_ = 0;
  int anchor_position_ = 0;
  const ir::Operation* current_ = nullptr;  // the op being admitted (a late value's user)
};

}  // namespace

std::string RowPlan::Describe() const {
  return fmt::format("{} rows of {}: {} invocations per row, {} rows per workgroup, {} elements per invocation ({}{}{})",
                     rows, length, width, rows_per_group, elements, strided ? "strided" : "in order",
                     unit > 1 ? fmt::format(", {} per word", unit) : "", cached ? ", kept in registers" : ", re-read per fold");
}

std::vector<RowGroup> FindRowGroups(const ir::Block& block, const TargetInfo& target,
                                    const std::function<bool(const ir::Operation&)>& usable) {
  return GroupFinder(block, target, usable).Run();
}

std::optional<RowPlan> ChooseRowPlan(int64_t rows, int64_t length, const TargetInfo& target,
                                     uint32_t shared_bytes_per_invocation, uint32_t unit, bool commutative,
                                     int element_cost) {
  // Elements an invocation aims for (at most kMaxCached stay in registers). CPU devices (a
  // subgroup is one SIMD thread, a workgroup runs on one core) want long straight runs per
  // invocation and few workgroups: on lavapipe, softmax over 2048 rows of 128 f32 took about
  // half the time with 4 invocations of 32 elements per row and 8 rows per workgroup as with
  // 16 invocations of 8 elements and a row per workgroup (layer norm over 512 rows of 256:
  // 8 x 32, 4 rows per workgroup, 0.9 ms against 2.1 ms; vkhlo-bench, several rounds on the
  // loaded 2-core machine). GPUs want many invocations per row (latency hiding, not measured).
  const bool cpu = target.device_type == TargetInfo::DeviceType::kCpu;
  constexpr int64_t kMaxCached = 32;
  constexpr int64_t kCodeBudget = 256;  // elements x ElementCost of their ops, unrolled
  const int64_t aim = cpu ? kMaxCached : 4;
  constexpr int64_t kMaxLoopIterations = 16384;  // lavapipe ends loops after 65535 iterations (reduce_plan.cc)
  const uint32_t subgroup = std::max(1u, target.subgroup_size);
  uint32_t limit = std::min({256u, target.max_workgroup_invocations, target.max_workgroup_size[0]});
  if (shared_bytes_per_invocation > 0) {
    limit = std::min(limit, std::max(1u, target.max_shared_memory_bytes / shared_bytes_per_invocation));
  }
  // A row's invocations stay within a subgroup on CPU devices (every barrier switches between
  // the subgroups of a workgroup).
  const uint32_t width_limit = cpu ? std::min(limit, subgroup) : limit;
  if (rows <= 0 || length < 2 || rows > 0x7fffffff || length > 0x7fffffff) return std::nullopt;
  RowPlan plan;
  plan.rows = rows;
  plan.length = length;
  plan.unit = unit;
  plan.strided = commutative;
  uint32_t w = 1;
  while (w * 2 <= width_limit && static_cast<int64_t>(w) * aim < length) w *= 2;
  // Each invocation owns whole units; no more invocations than units.
  const int64_t units = length / unit;
  while (w > 1 && static_cast<int64_t>(w) > units) w /= 2;
  plan.width = w;
  const int64_t per = (units + w - 1) / w;  // units per invocation
  if (per * unit > kMaxLoopIterations) return std::nullopt;
  plan.elements = static_cast<uint32_t>(per * unit);
  // Straight-line code repeats each element's ops E times: lavapipe took 4.9 s to compile a
  // softmax (x / 8, exp, divide per element) at E = 32 (the separate kernels: 0.18 s), 94 ms for
  // a layer norm. Elements whose ops cost more than the budget allows fold in loops instead.
  plan.cached = plan.elements <= kMaxCached && static_cast<int64_t>(plan.elements) * element_cost <= kCodeBudget;
  // Several rows per workgroup: up to two subgroups on CPU devices, 64 invocations on GPUs.
  const uint32_t group = std::min(limit, cpu ? 2 * subgroup : std::max(64u, subgroup));
  uint32_t p = 1;
  while (p * 2 * w <= group && static_cast<int64_t>(p) * 2 <= rows) p *= 2;
  plan.rows_per_group = p;
  return plan;
}

}  // namespace vkhlo::codegen::reduction
