#include "codegen/fusion.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "codegen/device_kernel.h"
#include "codegen/elemental/types.h"
#include "codegen/elemental/op_emitters.h"
#include "codegen/in_place.h"
#include "codegen/reduction/row_group.h"

namespace vkhlo::codegen {

using ir::OpCode;

int ElementCost(const ir::Operation& op) {
  const int cost = op.info().element_cost;  // a column of ir/op_table.def
  if (cost != 1) return cost;
  // Plain arithmetic; narrow floats pay for rounding through the codec after the op.
  const ir::Type& type = op.result(0)->type();
  if (type.is_tensor() && ir::IsFloat(type.element_type()) && ir::BitWidth(type.element_type()) < 32) return 4;
  return 1;
}

bool IsBufferConstant(const ir::Operation& op, const FusionOptions& options) {
  if (op.code() != OpCode::kConstant) return false;
  const ir::Attribute* value = op.attribute("value");
  const ir::Literal* literal = value ? value->AsDenseElements() : nullptr;
  if (literal == nullptr || literal->is_splat() || literal->num_elements() <= 1) return false;
  return static_cast<int64_t>(literal->raw().size()) > options.inline_constant_bytes;
}

namespace {

struct Uses {
  std::vector<const ir::Operation*> elemental;  // distinct elemental users
  bool non_elemental = false;
};

// Values defined inside `op`'s regions (to tell captured outer values from local ones).
void CollectDefined(const ir::Operation& op, std::unordered_set<const ir::Value*>& defined) {
  for (size_t r = 0; r < op.num_regions(); ++r) {
    for (const auto& block : op.region(r).blocks()) {
      for (const auto& arg : block->arguments()) defined.insert(arg.get());
      for (const auto& inner : block->operations()) {
        for (size_t i = 0; i < inner->num_results(); ++i) defined.insert(inner->result(i));
        CollectDefined(*inner, defined);
      }
    }
  }
}

// Outer values an op's regions read.
std::vector<const ir::Value*> Captures(const ir::Operation& op) {
  std::vector<const ir::Value*> captured;
  if (op.num_regions() == 0) return captured;
  std::unordered_set<const ir::Value*> defined;
  CollectDefined(op, defined);
  std::unordered_set<const ir::Value*> seen;
  std::function<void(const ir::Operation&)> visit = [&](const ir::Operation& o) {
    for (size_t r = 0; r < o.num_regions(); ++r) {
      for (const auto& block : o.region(r).blocks()) {
        for (const auto& inner : block->operations()) {
          for (const ir::Value* v : inner->operands()) {
            if (!defined.count(v) && seen.insert(v).second) captured.push_back(v);
          }
          visit(*inner);
        }
      }
    }
  };
  visit(op);
  return captured;
}

class Planner {
 public:
  Planner(const ir::Block& block, const TargetInfo& target, const FusionOptions& options)
      : block_(block), target_(target), options_(options) {}

  StatusOr<BlockPlan> Run() {
    AbsorbEpilogues();
    FindRowGroups();
    CountUses();
    Decide();
    // A row kernel whose bindings would pass the device's limit is dropped (its ops then plan
    // as separate reduce and loop kernels), and the decisions are made again without it.
    while (DropOversizedRowGroups()) {
      uses_.clear();
      elemental_.clear();
      cost_.clear();
      materialized_.clear();
      boundary_.clear();
      buffer_constant_.clear();
      CountUses();
      Decide();
    }
    FitDescriptors();
    return Form();
  }

 private:
  void AddUse(const ir::Value* v, const ir::Operation& user, bool elemental) {
    Uses& u = uses_[v];
    if (!elemental) {
      u.non_elemental = true;
    } else if (std::find(u.elemental.begin(), u.elemental.end(), &user) == u.elemental.end()) {
      u.elemental.push_back(&user);
    }
  }

  // Epilogue fusion (fusion.h): device ops whose emitter opts in take the element-wise chain
  // after them. A chain is taken only when its extra inputs exist before its last op (block
  // arguments, outer values, or results of ops before it: the emitter takes none computed from
  // the device op) and none of its ops is taken already. The device kernel then runs at the
  // position of the chain's last op (Form): nothing between reads the values it absorbs.
  void AbsorbEpilogues() {
    if (!options_.fuse) return;
    std::unordered_map<const ir::Value*, size_t> defined_at;  // results of the block's ops
    for (size_t i = 0; i < block_.operations().size(); ++i) {
      const ir::Operation& o = *block_.operations()[i];
      for (size_t r = 0; r < o.num_results(); ++r) defined_at[o.result(r)] = i;
    }
    for (const auto& op : block_.operations()) {
      const DeviceKernelEmitter* emitter = IsElementalOp(*op) ? nullptr : FindDeviceKernelEmitter(*op);
      std::vector<const ir::Operation*> ops;
      std::vector<const ir::Value*> inputs, outputs;
      if (emitter != nullptr && emitter->absorb_epilogue != nullptr && !absorbed_.count(op.get()) &&
          emitter->absorb_epilogue(*op, target_, ops, inputs, outputs)) {
        bool ok = true;
        for (const ir::Operation* o : ops) {
          ok = ok && o->parent_block() == &block_ && IsElementalOp(*o) && !absorbed_.count(o);
        }
        const size_t last = defined_at.at(ops.back()->result(0));
        for (const ir::Value* v : inputs) {
          auto at = defined_at.find(v);
          // (A value absorbed by an earlier epilogue is available only as that epilogue's root.)
          ok = ok && (at == defined_at.end() || (at->second < last && (!absorbed_.count(v->defining_op()) ||
                                                                        deferred_.count(v->defining_op()))));
        }
        if (ok) {
          for (const ir::Operation* o : ops) absorbed_.insert(o);
          deferred_[ops.back()] = op.get();
          epilogues_[op.get()] = {std::move(ops), std::move(inputs), std::move(outputs)};
        }
      }
    }
  }

  // Normalization ("row") kernels (reduction/row_group.h): chains of row reductions and the
  // element-wise ops between them become one device kernel built around the first reduction.
  // Their ops are not elemental kernels; the values they read from outside count as read by
  // the first reduction (once per element, like a reduce's prologue), so the cost rule fuses
  // a producer that only the chain reads (softmax's x / 8) into the row kernel. Values
  // defined after the first reduction that only the chain reads are always fused (`late`), so
  // the kernel can run in the first reduction's place.
  void FindRowGroups() {
    row_groups_.clear();
    row_group_of_.clear();
    late_fused_.clear();
    if (!options_.fuse) return;
    auto usable = [&](const ir::Operation& op) {
      if (absorbed_.count(&op) || epilogues_.count(&op) || op.parent_block() != &block_) return false;
      if (op.code() == OpCode::kReduce) {
        const DeviceKernelEmitter* emitter = FindDeviceKernelEmitter(op);
        return emitter != nullptr && emitter->fuses_operand_producers;
      }
      return IsElementalOp(op) && !(options_.in_place && DynamicUpdateSliceRunsInPlace(op));
    };
    for (reduction::RowGroup& group : reduction::FindRowGroups(block_, target_, usable)) {
      if (dropped_row_groups_.count(group.anchor)) continue;
      const int index = static_cast<int>(row_groups_.size());
      for (const ir::Operation* op : group.ops) {
        if (std::find(group.late.begin(), group.late.end(), op->result(0)) == group.late.end()) row_group_of_[op] = index;
      }
      for (const ir::Value* v : group.late) late_fused_.insert(v);
      row_groups_.push_back(std::move(group));
    }
  }

  bool InRowGroup(const ir::Value* v, int group) const {
    const ir::Operation* def = v->defining_op();
    auto it = def != nullptr ? row_group_of_.find(def) : row_group_of_.end();
    return it != row_group_of_.end() && it->second == group;
  }

  // The buffers a row kernel reads: external values read from buffers, and the inputs of the
  // trees of those it computes itself. `ops` collects the fused trees' ops.
  std::vector<const ir::Value*> RowGroupInputs(const reduction::RowGroup& group, std::set<const ir::Operation*>& ops) {
    std::vector<const ir::Value*> inputs;
    for (const ir::Value* v : group.external) {
      if (!IsInput(v)) {
        Tree(v, ops, inputs);
      } else if (std::find(inputs.begin(), inputs.end(), v) == inputs.end()) {
        inputs.push_back(v);
      }
    }
    return inputs;
  }

  bool DropOversizedRowGroups() {
    bool dropped = false;
    for (const reduction::RowGroup& group : row_groups_) {
      std::set<const ir::Operation*> ops;
      const std::vector<const ir::Value*> inputs = RowGroupInputs(group, ops);
      if (Descriptors(inputs) + Descriptors(group.outputs) > target_.max_storage_buffers_per_stage) {
        dropped_row_groups_.insert(group.anchor);
        dropped = true;
      }
    }
    if (dropped) FindRowGroups();
    return dropped;
  }

  void CountUses() {
    for (const auto& op : block_.operations()) {
      if (auto group = row_group_of_.find(op.get()); group != row_group_of_.end()) {
        elemental_[op.get()] = false;  // computed inside the row kernel
        const ir::Operation& anchor = *row_groups_[static_cast<size_t>(group->second)].anchor;
        for (const ir::Value* v : op->operands()) {
          if (!InRowGroup(v, group->second)) AddUse(v, anchor, true);
        }
        for (const ir::Value* v : Captures(*op)) AddUse(v, *op, false);
        continue;
      }
      if (absorbed_.count(op.get())) {
        elemental_[op.get()] = false;  // computed inside its device kernel; reads no buffers
        continue;
      }
      auto epilogue = epilogues_.find(op.get());
      if (epilogue != epilogues_.end()) {
        for (const ir::Value* v : epilogue->second.inputs) AddUse(v, *op, false);
      }
      // An in-place dynamic_update_slice (in_place.h) runs as a device kernel though it could fuse.
      const bool elemental = IsElementalOp(*op) && !(options_.in_place && DynamicUpdateSliceRunsInPlace(*op));
      elemental_[op.get()] = elemental;
      // A device op that computes its operands' producers itself (a prologue) reads its
      // operands like an elemental user: the cost rule decides which producers join it.
      const bool prologue = !elemental && FusesOperandProducers(*op);
      for (const ir::Value* v : op->operands()) AddUse(v, *op, elemental || prologue);
      // Values read inside regions: the runtime must hand them over as buffers.
      for (const ir::Value* v : Captures(*op)) AddUse(v, *op, false);
    }
  }

  bool FusesOperandProducers(const ir::Operation& op) const {
    if (!options_.fuse) return false;
    const DeviceKernelEmitter* emitter = FindDeviceKernelEmitter(op);
    return emitter != nullptr && emitter->fuses_operand_producers;
  }

  bool IsLocalElemental(const ir::Value* v) const {
    const ir::Operation* op = v->defining_op();
    if (op == nullptr || op->parent_block() != &block_) return false;
    auto it = elemental_.find(op);
    return it != elemental_.end() && it->second;
  }

  // Whether `v` is read from a buffer by the kernels that use it (rather than recomputed).
  bool IsInput(const ir::Value* v) const {
    if (!IsLocalElemental(v)) return true;
    const ir::Operation* op = v->defining_op();
    if (buffer_constant_.count(op)) return true;
    return boundary_.count(v) != 0;
  }

  void Decide() {
    for (const auto& op_ptr : block_.operations()) {
      const ir::Operation& op = *op_ptr;
      if (!elemental_[&op]) continue;
      const ir::Value* v = op.result(0);
      const Uses& u = uses_[v];
      if (op.code() == OpCode::kConstant) {
        if (IsBufferConstant(op, options_) || u.non_elemental) buffer_constant_.insert(&op);
        cost_[v] = 0;
        continue;
      }
      int cost = ElementCost(op);
      for (const ir::Value* operand : op.operands()) {
        if (!IsInput(operand)) cost += cost_[operand];
      }
      cost_[v] = cost;
      // Fused into its elemental users: read once per element in total, or cheap to recompute.
      bool fused = false;
      if (!u.elemental.empty() && options_.fuse) {
        const double elements = std::max<int64_t>(1, v->type().num_elements());
        double reads = 0;  // how many times each element of v is read, summed over its users
        for (const ir::Operation* user : u.elemental) {
          reads += std::max(1.0, static_cast<double>(user->result(0)->type().num_elements()) / elements);
        }
        // A value beyond 2^32 - 1 elements is always recomputed: kernels index such values by
        // coordinates only, never a stored copy (runtime's CheckIndexSpace).
        fused = reads <= 1.0 || cost <= kCheapRecomputeCost || !FitsLinearIndex(v->type().dims());
        // Read only by a row kernel that runs before it is defined: computed inside it.
        fused = fused || late_fused_.count(v) != 0;
      }
      // A buffer when something other than an elemental op needs it (it is then also computed
      // by the kernels of its elemental users, and multi-output fusion puts it in one of
      // them), or when its users read it from memory.
      if (u.non_elemental || (!u.elemental.empty() && !fused)) materialized_.insert(v);
      if (!u.elemental.empty() && !fused) boundary_.insert(v);
    }
  }

  // Storage-buffer descriptors a kernel binding `v` spends (DescriptorsFor: a tensor beyond the
  // range takes one per window on devices without buffer device addresses).
  uint64_t Descriptors(const ir::Value* v) const {
    if (!v->type().is_tensor()) return 1;
    const uint64_t bytes = StorageByteSize(v->type().element_type(), v->type().num_elements());
    return DescriptorsFor(target_, (bytes + 3) / 4 * 4);
  }
  uint64_t Descriptors(const std::vector<const ir::Value*>& values) const {
    uint64_t sum = 0;
    for (const ir::Value* v : values) sum += Descriptors(v);
    return sum;
  }
  // Descriptors of `extra` values not already among `bound`.
  uint64_t NewDescriptors(const std::vector<const ir::Value*>& bound, const std::vector<const ir::Value*>& extra) const {
    uint64_t sum = 0;
    for (const ir::Value* v : extra) {
      if (std::find(bound.begin(), bound.end(), v) == bound.end()) sum += Descriptors(v);
    }
    return sum;
  }

  // Fusing a producer replaces its result by its inputs among a kernel's bindings. Where
  // tensors beyond the range are bound through several descriptors each, a fused tree can need
  // more than maxPerStageDescriptorStorageBuffers: then the fused operands of its root (those
  // with the most descriptors first) get buffers of their own, until the kernel fits or its
  // root reads only buffers. Roots are visited last to first, so an operand materialized here
  // is itself checked afterwards. Device ops that fuse their operands' producers likewise.
  void FitDescriptors() {
    const uint64_t limit = target_.max_storage_buffers_per_stage;
    const auto& ops = block_.operations();
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      const ir::Operation& op = **it;
      if (absorbed_.count(&op) || row_group_of_.count(&op)) continue;
      const bool elemental = elemental_[&op];
      if (elemental ? !materialized_.count(op.result(0)) : !FusesOperandProducers(op)) continue;
      while (true) {
        std::set<const ir::Operation*> tree_ops;
        std::vector<const ir::Value*> inputs;
        std::vector<const ir::Value*> outputs;
        if (elemental) {
          Tree(op.result(0), tree_ops, inputs);
          outputs.push_back(op.result(0));
        } else {
          for (const ir::Value* v : op.operands()) {
            if (!IsInput(v)) {
              Tree(v, tree_ops, inputs);
            } else if (std::find(inputs.begin(), inputs.end(), v) == inputs.end()) {
              inputs.push_back(v);
            }
          }
          for (size_t i = 0; i < op.num_results(); ++i) outputs.push_back(op.result(i));
        }
        if (Descriptors(inputs) + Descriptors(outputs) <= limit) break;
        // The root's fused operand whose buffer saves the most descriptors (its tree's
        // bindings less its own): a broadcast of a small tensor stays fused.
        const ir::Value* cut = nullptr;
        uint64_t most = 0;
        for (const ir::Value* v : op.operands()) {
          // A value beyond 2^32 - 1 elements cannot be stored (Decide): it stays fused.
          if (IsInput(v) || !FitsLinearIndex(v->type().dims())) continue;
          std::set<const ir::Operation*> sub_ops;
          std::vector<const ir::Value*> sub_inputs;
          Tree(v, sub_ops, sub_inputs);
          const uint64_t d = Descriptors(sub_inputs), own = Descriptors(v);
          if (d > own && d - own > most) cut = v, most = d - own;
        }
        if (cut == nullptr) break;  // nothing to gain: Form() reports the kernel too large
        materialized_.insert(cut);
        boundary_.insert(cut);
      }
    }
  }

  // The fused ops and the inputs of the kernel computing `root`.
  void Tree(const ir::Value* root, std::set<const ir::Operation*>& ops, std::vector<const ir::Value*>& inputs) {
    std::vector<const ir::Value*> stack = {root};
    std::unordered_set<const ir::Value*> seen;
    while (!stack.empty()) {
      const ir::Value* v = stack.back();
      stack.pop_back();
      if (!seen.insert(v).second) continue;
      if (v != root && IsInput(v)) {
        if (std::find(inputs.begin(), inputs.end(), v) == inputs.end()) inputs.push_back(v);
        continue;
      }
      const ir::Operation* op = v->defining_op();
      ops.insert(op);
      // Reversed, so that inputs are met (and bound) in operand order.
      for (auto it = op->operands().rbegin(); it != op->operands().rend(); ++it) stack.push_back(*it);
      for (const ir::Value* captured : Captures(*op)) {
        if (std::find(inputs.begin(), inputs.end(), captured) == inputs.end()) inputs.push_back(captured);
      }
    }
  }

  StatusOr<BlockPlan> Form() {
    BlockPlan plan;
    for (const auto& op_ptr : block_.operations()) {
      if (buffer_constant_.count(op_ptr.get())) plan.buffer_constants.push_back(op_ptr.get());
    }
    // Position (step index) at which each value becomes available; absent: before the block.
    std::unordered_map<const ir::Value*, int> available;
    struct Open {
      int step;
      std::set<const ir::Operation*> ops;
    };
    std::vector<Open> open;  // per fusion
    const uint32_t limit = target_.max_storage_buffers_per_stage;
    for (const auto& op_ptr : block_.operations()) {
      const ir::Operation& op = *op_ptr;
      if (absorbed_.count(&op)) {  // part of a device kernel's epilogue, which runs at its last op
        if (auto d = deferred_.find(&op); d != deferred_.end()) {
          VKHLO_RETURN_IF_ERROR(AddDeviceKernel(*d->second, plan, available, open));
        }
        continue;
      }
      if (!elemental_[&op] && IsDeviceOp(op) && epilogues_.count(&op)) continue;  // at its epilogue's end
      if (auto group = row_group_of_.find(&op); group != row_group_of_.end()) {
        const reduction::RowGroup& g = row_groups_[static_cast<size_t>(group->second)];
        if (&op == g.anchor) VKHLO_RETURN_IF_ERROR(AddRowKernel(g, plan, available, open));
        continue;
      }
      if (!elemental_[&op] && IsDeviceOp(op)) {
        VKHLO_RETURN_IF_ERROR(AddDeviceKernel(op, plan, available, open));
        continue;
      }
      if (!elemental_[&op]) {
        const int step = static_cast<int>(plan.steps.size());
        plan.steps.push_back(BlockStep{-1, &op});
        for (size_t i = 0; i < op.num_results(); ++i) available[op.result(i)] = step;
        continue;
      }
      const ir::Value* v = op.result(0);
      if (!materialized_.count(v)) continue;
      std::set<const ir::Operation*> ops;
      std::vector<const ir::Value*> inputs;
      Tree(v, ops, inputs);
      int ready = -1;
      for (const ir::Value* in : inputs) {
        auto it = available.find(in);
        if (it != available.end()) ready = std::max(ready, it->second);
      }
      // Epilogue: an element-wise consumer of a device op's results joins that op's kernel.
      int chosen = EpilogueFusion(v, ops, inputs, plan, available, open);
      if (chosen >= 0) {
        Fusion& f = plan.fusions[static_cast<size_t>(chosen)];
        f.outputs.push_back(v);
        for (const ir::Value* in : inputs) {
          if (std::find(f.inputs.begin(), f.inputs.end(), in) == f.inputs.end() && !IsResultOf(in, *f.device_op)) {
            f.inputs.push_back(in);
          }
        }
        open[static_cast<size_t>(chosen)].ops.insert(ops.begin(), ops.end());
        available[v] = open[static_cast<size_t>(chosen)].step;
        continue;
      }
      // Join an earlier kernel of the same index space that shares an input or an op.
      for (size_t k = 0; k < plan.fusions.size() && options_.fuse; ++k) {
        Fusion& f = plan.fusions[k];
        if (f.device_op != nullptr || open[k].step <= ready || f.dims != v->type().dims()) continue;
        bool shares = false;
        for (const ir::Value* in : inputs) {
          shares = shares || std::find(f.inputs.begin(), f.inputs.end(), in) != f.inputs.end();
        }
        for (const ir::Operation* o : ops) shares = shares || open[k].ops.count(o);
        if (!shares) continue;
        const uint64_t bindings =
            Descriptors(f.inputs) + Descriptors(f.outputs) + Descriptors(v) + NewDescriptors(f.inputs, inputs);
        if (bindings > limit) continue;
        chosen = static_cast<int>(k);
        break;
      }
      // A scalar (a loop counter's step, `%i + 1` in every lax.scan and fori_loop) joins a loop
      // kernel that runs after its inputs exist, of another index space too: that kernel's first
      // invocation computes it (kernel.cc), and it costs no dispatch of its own (ScalarHost).
      if (chosen < 0 && options_.fuse && v->type().rank() == 0) chosen = ScalarHost(v, inputs, plan, ready, open);
      if (chosen < 0) {
        if (const uint64_t bindings = Descriptors(inputs) + Descriptors(v); bindings > limit) {
          return InvalidArgumentError(fmt::format(
              "'{}' needs a kernel with {} storage buffers (tensors beyond maxStorageBufferRange = {} count one per "
              "window), more than the device allows (maxPerStageDescriptorStorageBuffers = {})",
              op.name(), bindings, target_.max_storage_buffer_range, limit));
        }
        Fusion f;
        f.name = fmt::format("{}{}", options_.name_prefix, options_.first_index + static_cast<int>(plan.fusions.size()));
        f.dims = v->type().dims();
        chosen = static_cast<int>(plan.fusions.size());
        plan.fusions.push_back(std::move(f));
        open.push_back(Open{static_cast<int>(plan.steps.size()), {}});
        plan.steps.push_back(BlockStep{chosen, nullptr});
      }
      Fusion& f = plan.fusions[static_cast<size_t>(chosen)];
      f.outputs.push_back(v);
      for (const ir::Value* in : inputs) {
        if (std::find(f.inputs.begin(), f.inputs.end(), in) == f.inputs.end()) f.inputs.push_back(in);
      }
      open[static_cast<size_t>(chosen)].ops.insert(ops.begin(), ops.end());
      available[v] = open[static_cast<size_t>(chosen)].step;
    }
    // Fused ops in program order.
    for (size_t k = 0; k < plan.fusions.size(); ++k) {
      for (const auto& op_ptr : block_.operations()) {
        if (open[k].ops.count(op_ptr.get())) plan.fusions[k].ops.push_back(op_ptr.get());
      }
    }
    return plan;
  }

  static bool IsResultOf(const ir::Value* v, const ir::Operation& op) { return v->defining_op() == &op; }

  // Whether `v` is an argument of this block that its terminator does not return unchanged in
  // the same place (a loop body's carried value that changes between iterations).
  bool ChangingArgument(const ir::Value* v) const {
    const auto& args = block_.arguments();
    if (block_.operations().empty()) return false;
    const ir::Operation& terminator = *block_.operations().back();
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].get() != v) continue;
      return i >= terminator.num_operands() || terminator.operand(i) != v;
    }
    return false;
  }

  // The loop kernel a scalar root `v` (its tree's `inputs`) may join, or -1: the last one that
  // runs after the inputs are ready (step > `ready`), covers at least one element and stays
  // within the binding limit, and either reads a result of an op of this block or is itself a
  // kernel of scalars. (A kernel of a loop body that reads only the loop's arguments may be
  // loop-invariant, recorded once per loop: a scalar that changes each iteration would make it
  // run every time. Recomputing a scalar kernel is no such loss.)
  template <typename Open>
  int ScalarHost(const ir::Value* v, const std::vector<const ir::Value*>& inputs, const BlockPlan& plan, int ready,
                 const std::vector<Open>& open) const {
    for (size_t k = plan.fusions.size(); k-- > 0;) {
      const Fusion& f = plan.fusions[k];
      if (!f.row_reductions.empty() || open[k].step <= ready) continue;
      // A device kernel whose emitter computes scalars (its first invocation, as a loop
      // kernel's does) and that runs each time anyway: it reads a value the block changes.
      const DeviceKernelEmitter* emitter = f.device_op ? FindDeviceKernelEmitter(*f.device_op) : nullptr;
      if (f.device_op != nullptr && (emitter == nullptr || !emitter->hosts_scalars)) continue;
      int64_t elements = 1;
      for (int64_t d : f.dims) elements *= d;
      if (elements <= 0) continue;
      bool fresh = f.dims.empty() && f.device_op == nullptr;
      for (const ir::Value* in : f.inputs) {
        const ir::Operation* def = in->defining_op();
        fresh = fresh || (def != nullptr && def->parent_block() == &block_) ||
                (f.device_op != nullptr && ChangingArgument(in));
      }
      if (!fresh) continue;
      const uint64_t bindings =
          Descriptors(f.inputs) + Descriptors(f.outputs) + Descriptors(v) + NewDescriptors(f.inputs, inputs);
      if (bindings > target_.max_storage_buffers_per_stage) continue;
      return static_cast<int>(k);
    }
    return -1;
  }

  // The device fusion whose epilogue `root` (with the fused `ops` and `inputs` of its tree) can
  // be, or -1: a device op whose emitter opts in (fuses_result_consumers) produces one of the
  // inputs, the root has the shape of its results, every op on a path from its results to the
  // root is element-wise (so the kernel computes the root at each result index from that
  // result element alone), and every other input exists before the device kernel runs.
  template <typename Open>
  int EpilogueFusion(const ir::Value* root, const std::set<const ir::Operation*>& ops,
                     const std::vector<const ir::Value*>& inputs, const BlockPlan& plan,
                     const std::unordered_map<const ir::Value*, int>& available, const std::vector<Open>& open) const {
    if (!options_.fuse) return -1;
    int chosen = -1;
    for (size_t k = 0; k < plan.fusions.size() && chosen < 0; ++k) {
      const ir::Operation* device = plan.fusions[k].device_op;
      if (device == nullptr || !plan.fusions[k].row_reductions.empty()) continue;
      const DeviceKernelEmitter* emitter = FindDeviceKernelEmitter(*device);
      if (emitter == nullptr || !emitter->fuses_result_consumers) continue;
      for (const ir::Value* in : inputs) {
        if (IsResultOf(in, *device)) chosen = static_cast<int>(k);
      }
    }
    if (chosen < 0) return -1;
    const Fusion& f = plan.fusions[static_cast<size_t>(chosen)];
    if (root->type().dims() != f.dims) return -1;
    // Ops that depend on the device op's results, in program order (operands first).
    std::unordered_set<const ir::Value*> dependent;
    for (const auto& op_ptr : block_.operations()) {
      if (!ops.count(op_ptr.get())) continue;
      bool depends = false;
      for (const ir::Value* operand : op_ptr->operands()) {
        depends = depends || IsResultOf(operand, *f.device_op) || dependent.count(operand);
      }
      if (!depends) continue;
      if (op_ptr->info().kind == ir::OpKind::kDataMovement || op_ptr->result(0)->type().dims() != f.dims) return -1;
      for (const ir::Value* operand : op_ptr->operands()) {
        if (operand->type().dims() != f.dims) return -1;
      }
      dependent.insert(op_ptr->result(0));
    }
    const int step = open[static_cast<size_t>(chosen)].step;
    uint64_t bindings = Descriptors(f.inputs) + Descriptors(f.outputs) + Descriptors(root);
    for (const ir::Value* in : inputs) {
      if (IsResultOf(in, *f.device_op)) continue;
      auto it = available.find(in);
      if (it != available.end() && it->second >= step) return -1;
      if (std::find(f.inputs.begin(), f.inputs.end(), in) == f.inputs.end()) bindings += Descriptors(in);
    }
    if (bindings > target_.max_storage_buffers_per_stage) return -1;
    return chosen;
  }

  template <typename Open>
  Status AddRowKernel(const reduction::RowGroup& group, BlockPlan& plan,
                      std::unordered_map<const ir::Value*, int>& available, std::vector<Open>& open) {
    Fusion f;
    f.name = fmt::format("{}{}", options_.name_prefix, options_.first_index + static_cast<int>(plan.fusions.size()));
    f.device_op = group.anchor;
    f.dims = group.anchor->result(0)->type().dims();
    f.row_reductions = group.reductions;
    std::set<const ir::Operation*> ops;
    for (const ir::Operation* op : group.ops) {
      if (row_group_of_.count(op)) ops.insert(op);
    }
    f.inputs = RowGroupInputs(group, ops);
    f.outputs = group.outputs;
    const uint32_t limit = target_.max_storage_buffers_per_stage;
    if (const uint64_t bindings = Descriptors(f.inputs) + Descriptors(f.outputs); bindings > limit) {
      return InternalError(fmt::format("row kernel at '{}' needs {} storage buffers, more than {}", group.anchor->name(),
                                       bindings, limit));
    }
    AppendKernelStep(std::move(f), std::move(ops), plan, available, open);
    return OkStatus();
  }

  // Appends `f` as the plan's next step; its outputs are available from that step on. Nothing
  // joins a device or row kernel later (multi-output fusion skips it).
  template <typename Open>
  static void AppendKernelStep(Fusion f, std::set<const ir::Operation*> ops, BlockPlan& plan,
                               std::unordered_map<const ir::Value*, int>& available, std::vector<Open>& open) {
    const int step = static_cast<int>(plan.steps.size());
    const int index = static_cast<int>(plan.fusions.size());
    plan.fusions.push_back(std::move(f));
    open.push_back(Open{step, std::move(ops)});
    plan.steps.push_back(BlockStep{index, nullptr});
    for (const ir::Value* v : plan.fusions.back().outputs) available[v] = step;
  }

  template <typename Open>
  Status AddDeviceKernel(const ir::Operation& op, BlockPlan& plan, std::unordered_map<const ir::Value*, int>& available,
                         std::vector<Open>& open) {
    Fusion f;
    f.name = fmt::format("{}{}", options_.name_prefix, options_.first_index + static_cast<int>(plan.fusions.size()));
    f.device_op = &op;
    f.dims = op.result(0)->type().dims();
    // The device op and, with prologue fusion, the producers of its operands it computes.
    std::set<const ir::Operation*> ops = {&op};
    const bool prologue = FusesOperandProducers(op);
    for (const ir::Value* v : op.operands()) {
      if (prologue && !IsInput(v)) {
        Tree(v, ops, f.inputs);
      } else if (std::find(f.inputs.begin(), f.inputs.end(), v) == f.inputs.end()) {
        f.inputs.push_back(v);
      }
    }
    for (const ir::Value* v : Captures(op)) {
      if (std::find(f.inputs.begin(), f.inputs.end(), v) == f.inputs.end()) f.inputs.push_back(v);
    }
    for (size_t i = 0; i < op.num_results(); ++i) f.outputs.push_back(op.result(i));
    auto epilogue = epilogues_.find(&op);
    if (epilogue != epilogues_.end()) {
      // The chain's last result replaces the op's (which only the chain reads).
      for (const ir::Value* v : epilogue->second.inputs) {
        if (std::find(f.inputs.begin(), f.inputs.end(), v) == f.inputs.end()) f.inputs.push_back(v);
      }
      f.outputs = epilogue->second.outputs;
      ops.insert(epilogue->second.ops.begin(), epilogue->second.ops.end());
    }
    const uint32_t limit = target_.max_storage_buffers_per_stage;
    if (const uint64_t bindings = Descriptors(f.inputs) + Descriptors(f.outputs); bindings > limit) {
      return InvalidArgumentError(fmt::format(
          "'{}' needs a kernel with {} storage buffers (tensors beyond maxStorageBufferRange = {} count one per "
          "window), more than the device allows (maxPerStageDescriptorStorageBuffers = {})",
          op.name(), bindings, target_.max_storage_buffer_range, limit));
    }
    AppendKernelStep(std::move(f), std::move(ops), plan, available, open);
    return OkStatus();
  }

  const ir::Block& block_;
  const TargetInfo& target_;
  const FusionOptions& options_;
  std::unordered_map<const ir::Value*, Uses> uses_;
  std::unordered_map<const ir::Operation*, bool> elemental_;
  std::unordered_map<const ir::Value*, int> cost_;
  std::unordered_set<const ir::Value*> materialized_;  // roots: get a buffer
  std::unordered_set<const ir::Value*> boundary_;      // read from that buffer by their users
  std::unordered_set<const ir::Operation*> buffer_constant_;
  // Epilogue fusion: per device op, the ops it absorbs and their extra inputs.
  struct Epilogue {
    std::vector<const ir::Operation*> ops;
    std::vector<const ir::Value*> inputs;
    std::vector<const ir::Value*> outputs;
  };
  std::unordered_map<const ir::Operation*, Epilogue> epilogues_;
  std::unordered_set<const ir::Operation*> absorbed_;
  std::unordered_map<const ir::Operation*, const ir::Operation*> deferred_;  // last epilogue op -> device op
  // Row kernels: the groups, the group of each op they compute (late values excluded), the
  // late values (always fused), and the groups dropped for their bindings (by first reduction).
  std::vector<reduction::RowGroup> row_groups_;
  std::unordered_map<const ir::Operation*, int> row_group_of_;
  std::unordered_set<const ir::Value*> late_fused_;
  std::unordered_set<const ir::Operation*> dropped_row_groups_;
};

}  // namespace

StatusOr<BlockPlan> PlanBlock(const ir::Block& block, const TargetInfo& target, const FusionOptions& options) {
  return Planner(block, target, options).Run();
}

}  // namespace vkhlo::codegen
