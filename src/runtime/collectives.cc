// Collectives on the device: all_gather, all_reduce, reduce_scatter, collective_reduce,
// all_to_all, collective_permute and collective_broadcast, with the reference interpreter's
// semantics (src/interp/collective_ops.cc).
//
// A process flushes its recorded work, hands its operands to the group through the transport
// (collective_transport.h), and builds its results from everyone's tensors on its own command
// list: pieces move by buffer copies (tensors are dense row-major storage bytes, so a slice
// along one dimension is a set of contiguous runs), and reductions fold the group's tensors in
// group order through the op's reducer, compiled as a device function (compile.cc
// CompileReducer) — deterministic, and the same fold as the interpreter.
#include <fmt/format.h>

#include "device/allocator.h"
#include "device/transfer.h"
#include "runtime/collective_groups.h"
#include "runtime/execution.h"

namespace vkhlo::runtime {
namespace {

// The strategy the plan names.
coll::Strategy StrategyOf(plan::CollectiveStep::Groups groups) {
  using G = plan::CollectiveStep::Groups;
  switch (groups) {
    case G::kCrossReplica: return coll::Strategy::kCrossReplica;
    case G::kCrossPartition: return coll::Strategy::kCrossPartition;
    case G::kCrossReplicaAndPartition: return coll::Strategy::kCrossReplicaAndPartition;
    case G::kFlattenedIds: return coll::Strategy::kFlattenedIds;
  }
  return coll::Strategy::kCrossReplica;
}

// The reductions a transport may do itself (exact_reducer.h), when every operand's is one.
std::optional<std::vector<ExactReduction>> ExactReductionsOf(const plan::CollectiveStep& step) {
  using E = plan::CollectiveStep::ExactReduction;
  if (step.exact.empty() || step.exact.size() != step.operands.size()) return std::nullopt;
  std::vector<ExactReduction> out;
  for (E e : step.exact) {
    switch (e) {
      case E::kNone: return std::nullopt;
      case E::kAdd: out.push_back(ExactReduction::kAdd); break;
      case E::kMultiply: out.push_back(ExactReduction::kMultiply); break;
      case E::kMin: out.push_back(ExactReduction::kMin); break;
      case E::kMax: out.push_back(ExactReduction::kMax); break;
      case E::kAnd: out.push_back(ExactReduction::kAnd); break;
      case E::kOr: out.push_back(ExactReduction::kOr); break;
      case E::kXor: out.push_back(ExactReduction::kXor); break;
    }
  }
  return out;
}

// Copies the box of `box` elements starting at `src_start` in a tensor of `src_dims` to
// `dst_start` in one of `dst_dims` (same element size), as contiguous runs.
struct BoxCopy {
  std::vector<int64_t> src_dims, src_start, dst_dims, dst_start, box;
  uint64_t element_bytes = 1;
};

// Row-major strides in elements.
std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

}  // namespace

Status Execution::StepError(std::string_view op, const std::string& location, std::string_view what,
                            StatusCode code) const {
  return Status(code, fmt::format("{}: error: '{}' {}", location.empty() ? "<input>" : location, op, what));
}

StatusOr<std::shared_ptr<BufferState>> Execution::NewTensor(const TensorDesc& type) {
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> tensor, AllocateTensor(client_, type));
  Retire(tensor);  // written by work recorded next: alive until it is done
  return tensor;
}

Status Execution::Copy(const BufferState& from, uint64_t from_offset, const BufferState& to, uint64_t to_offset,
                       uint64_t bytes) {
  if (bytes == 0) return OkStatus();
  VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
  return list->CopyBuffer(from.buffer.view(from_offset, bytes), to.buffer.view(to_offset, bytes));
}

StatusOr<std::shared_ptr<BufferState>> Execution::Zeros(const TensorDesc& type) {
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> zeros, NewTensor(type));
  const uint64_t bytes = BufferBytes(type);
  if (bytes != 0) {
    VKHLO_ASSIGN_OR_RETURN(device::CommandList * list, List());
    VKHLO_RETURN_IF_ERROR(list->FillBuffer(zeros->buffer.view(0, bytes), 0));
  }
  return zeros;
}

StatusOr<std::vector<Contribution>> Execution::Exchange(const plan::CollectiveStep& step,
                                                        const std::vector<ProcessId>& group, Contribution values) {
  const std::string name = StepOpName(step);
  auto error = [&](std::string_view what, StatusCode code = StatusCode::kInvalidArgument) {
    return StepError(name, step.location, what, code);
  };
  bool only_self = true;
  for (const ProcessId& p : group) only_self = only_self && p == process_.id;
  if (only_self) return std::vector<Contribution>(group.size(), values);
  if (process_.transport == nullptr) return error("needs other processes: run it in a process grid");
  // The others read these tensors: the work producing them must be complete.
  VKHLO_RETURN_IF_ERROR(Flush());
  RendezvousKey key{name, step.channel_id, group};
  auto all = process_.transport->Exchange(key, process_.id, std::move(values));
  if (!all.ok()) return error("did not complete: " + all.status().message(), all.status().code());
  // Tensors of other processes stay alive until this process's work reading them is done.
  for (Contribution& c : *all) {
    for (auto& b : c) {
      VKHLO_ASSIGN_OR_RETURN(b, Localize(std::move(b)));
      Retire(b);
    }
  }
  return all;
}

StatusOr<std::optional<std::vector<RtValue>>> Execution::ExactReduce(const plan::CollectiveStep& step,
                                                                     const std::vector<ProcessId>& group,
                                                                     const Contribution& values) {
  bool only_self = true;
  for (const ProcessId& p : group) only_self = only_self && p == process_.id;
  if (only_self || process_.transport == nullptr) return std::optional<std::vector<RtValue>>();
  const std::optional<std::vector<ExactReduction>> ops = ExactReductionsOf(step);
  if (!ops) return std::optional<std::vector<RtValue>>();
  VKHLO_RETURN_IF_ERROR(Flush());  // the transport reads the operands
  const std::string name = StepOpName(step);
  RendezvousKey key{name, step.channel_id, group};
  auto reduced = process_.transport->ExactReduce(key, process_.id, values, *ops);
  if (!reduced.ok()) {
    return StepError(name, step.location, "did not complete: " + reduced.status().message(), reduced.status().code());
  }
  if (!*reduced) return std::optional<std::vector<RtValue>>();
  std::vector<RtValue> out;
  for (std::shared_ptr<BufferState>& b : **reduced) {
    VKHLO_ASSIGN_OR_RETURN(b, Localize(std::move(b)));
    Retire(b);
    out.push_back(RtValue::Tensor(b, b->type));
  }
  return std::optional<std::vector<RtValue>>(std::move(out));
}

StatusOr<std::shared_ptr<BufferState>> Execution::Localize(std::shared_ptr<BufferState> tensor) {
  if (tensor->client->device == client_->device) return tensor;
  return CopyThroughHost(*tensor, client_);
}

StatusOr<std::vector<RtValue>> Execution::Reduce(const plan::CollectiveStep& step,
                                                 const std::vector<Contribution>& contributions) {
  if (step.reducer < 0) return InternalError(fmt::format("{} has no compiled reducer", StepOpName(step)));
  std::vector<RtValue> acc;
  for (size_t i = 0; i < contributions[0].size(); ++i) {
    acc.push_back(RtValue::Tensor(contributions[0][i], contributions[0][i]->type));
  }
  for (size_t p = 1; p < contributions.size(); ++p) {
    std::vector<RtValue> args = acc;
    for (const auto& b : contributions[p]) {
      if (b->type != TypeOf(step.operands[args.size() - acc.size()])) {
        return StepError(StepOpName(step), step.location, "got operands of different types from the processes of a group");
      }
      args.push_back(RtValue::Tensor(b, b->type));
    }
    VKHLO_ASSIGN_OR_RETURN(acc, RunList(static_cast<uint32_t>(step.reducer), std::move(args)));
  }
  return acc;
}

namespace {

Status CopyBoxes(const BoxCopy& c, const std::function<Status(uint64_t, uint64_t, uint64_t)>& copy) {
  const size_t rank = c.box.size();
  for (int64_t d : c.box) {
    if (d == 0) return OkStatus();
  }
  // The innermost dimensions the box spans fully in both tensors form one contiguous run,
  // together with the next dimension's extent.
  size_t split = rank;  // dims [split, rank) are in the run
  uint64_t run = c.element_bytes;
  while (split > 0) {
    const size_t d = split - 1;
    run *= static_cast<uint64_t>(c.box[d]);
    split = d;
    if (c.box[d] != c.src_dims[d] || c.box[d] != c.dst_dims[d]) break;
  }
  const std::vector<int64_t> src_strides = Strides(c.src_dims), dst_strides = Strides(c.dst_dims);
  std::vector<int64_t> index(split, 0);
  while (true) {
    int64_t src = 0, dst = 0;
    for (size_t d = 0; d < rank; ++d) {
      const int64_t i = d < split ? index[d] : 0;
      src += (c.src_start[d] + i) * src_strides[d];
      dst += (c.dst_start[d] + i) * dst_strides[d];
    }
    VKHLO_RETURN_IF_ERROR(copy(static_cast<uint64_t>(src) * c.element_bytes, static_cast<uint64_t>(dst) * c.element_bytes, run));
    size_t d = split;
    while (d > 0) {
      --d;
      if (++index[d] < c.box[d]) break;
      index[d] = 0;
      if (d == 0) return OkStatus();
    }
    if (split == 0) return OkStatus();
  }
}

}  // namespace

StatusOr<std::vector<RtValue>> Execution::RunCollective(const plan::CollectiveStep& step,
                                                        const std::vector<RtValue>& operands) {
  using Kind = plan::CollectiveStep::Kind;
  const std::string name = StepOpName(step);
  auto error = [&](std::string_view what, StatusCode code = StatusCode::kInvalidArgument) {
    return StepError(name, step.location, what, code);
  };
  auto result_type = [&](size_t i) -> const TensorDesc& { return TypeOf(step.results[i]); };
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].kind != RtValue::Kind::kTensor) return error(fmt::format("operand {} is not a tensor", i));
  }
  const coll::Grid grid{process_.num_replicas, process_.num_partitions};
  const ProcessId self = process_.id;
  const coll::Strategy strategy = StrategyOf(step.groups);
  auto groups_of = [&](coll::Strategy strategy) -> StatusOr<std::vector<std::vector<ProcessId>>> {
    auto groups = coll::ProcessGroups(step.replica_groups, grid, strategy);
    if (!groups.ok()) return error(groups.status().message());
    return groups;
  };
  auto own_group = [&](coll::Strategy strategy) -> StatusOr<std::vector<ProcessId>> {
    VKHLO_ASSIGN_OR_RETURN(auto groups, groups_of(strategy));
    auto own = coll::OwnGroup(groups, self);
    if (!own) return error(fmt::format("has no process group holding process ({}, {})", self.replica, self.partition));
    return *own;
  };
  Contribution mine;
  for (const RtValue& v : operands) mine.push_back(v.storage);
  auto copy_box = [&](const BufferState& from, const BufferState& to, BoxCopy box) -> Status {
    box.element_bytes = from.type.element_bytes();
    return CopyBoxes(box, [&](uint64_t src, uint64_t dst, uint64_t bytes) { return Copy(from, src, to, dst, bytes); });
  };
  auto zeros = [&](const TensorDesc& type) -> StatusOr<RtValue> {
    VKHLO_ASSIGN_OR_RETURN(auto z, Zeros(type));
    return RtValue::Tensor(std::move(z), type);
  };
  std::vector<RtValue> results;

  switch (step.kind) {
    case Kind::kAllGather: {
      const std::optional<int64_t> dim = step.dimension >= 0 ? std::optional<int64_t>(step.dimension) : std::nullopt;
      if (!dim) return error("has no `all_gather_dim`");
      VKHLO_ASSIGN_OR_RETURN(auto group, own_group(strategy));
      VKHLO_ASSIGN_OR_RETURN(auto all, Exchange(step, group, mine));
      for (size_t i = 0; i < operands.size(); ++i) {
        const TensorDesc& type_i = result_type(i);
        const std::vector<int64_t>& dims = operands[i].type.dims;
        if (*dim < 0 || *dim >= static_cast<int64_t>(dims.size()) ||
            type_i.dims.size() != dims.size() ||
            type_i.dim(*dim) != dims[static_cast<size_t>(*dim)] * static_cast<int64_t>(group.size())) {
          return error(fmt::format("result {} has type {}, but gathering {} gives another", i, type_i.ToString(),
                                   operands[i].type.ToString()));
        }
        VKHLO_ASSIGN_OR_RETURN(auto out, NewTensor(type_i));
        for (size_t k = 0; k < all.size(); ++k) {
          if (all[k][i]->type != operands[i].type) return error("got operands of different types from the processes of a group");
          BoxCopy box{dims, std::vector<int64_t>(dims.size(), 0), type_i.dims,
                      std::vector<int64_t>(dims.size(), 0), dims};
          box.dst_start[static_cast<size_t>(*dim)] = static_cast<int64_t>(k) * dims[static_cast<size_t>(*dim)];
          VKHLO_RETURN_IF_ERROR(copy_box(*all[k][i], *out, box));
        }
        results.push_back(RtValue::Tensor(std::move(out), type_i));
      }
      return results;
    }
    case Kind::kAllReduce:
    case Kind::kCollectiveReduce:
    case Kind::kReduceScatter: {
      VKHLO_ASSIGN_OR_RETURN(auto group, own_group(strategy));
      // Reduced by the transport when the order of the fold cannot matter, else everyone's
      // operands folded here in group order.
      VKHLO_ASSIGN_OR_RETURN(std::optional<std::vector<RtValue>> exact, ExactReduce(step, group, mine));
      std::vector<Contribution> all;
      if (!exact) {
        VKHLO_ASSIGN_OR_RETURN(all, Exchange(step, group, mine));
      }
      if (step.kind == Kind::kCollectiveReduce && coll::IndexIn(group, self) != 0) {
        for (size_t i = 0; i < step.results.size(); ++i) {
          VKHLO_ASSIGN_OR_RETURN(RtValue z, zeros(result_type(i)));
          results.push_back(std::move(z));
        }
        return results;
      }
      std::vector<RtValue> reduced;
      if (exact) {
        reduced = std::move(*exact);
      } else {
        VKHLO_ASSIGN_OR_RETURN(reduced, Reduce(step, all));
      }
      if (step.kind != Kind::kReduceScatter) return reduced;
      const std::optional<int64_t> dim = step.dimension >= 0 ? std::optional<int64_t>(step.dimension) : std::nullopt;
      if (!dim) return error("has no `scatter_dimension`");
      const int64_t parts = static_cast<int64_t>(group.size());
      const int64_t index = coll::IndexIn(group, self);
      for (size_t i = 0; i < reduced.size(); ++i) {
        const std::vector<int64_t>& dims = reduced[i].type.dims;
        if (*dim < 0 || *dim >= static_cast<int64_t>(dims.size()) || dims[static_cast<size_t>(*dim)] % parts != 0) {
          return error("has a scatter_dimension out of range or not divisible by the group size");
        }
        const int64_t size = dims[static_cast<size_t>(*dim)] / parts;
        std::vector<int64_t> piece = dims;
        piece[static_cast<size_t>(*dim)] = size;
        const TensorDesc type = reduced[i].type.WithDims(piece);
        VKHLO_ASSIGN_OR_RETURN(auto out, NewTensor(type));
        BoxCopy box{dims, std::vector<int64_t>(dims.size(), 0), piece, std::vector<int64_t>(dims.size(), 0), piece};
        box.src_start[static_cast<size_t>(*dim)] = index * size;
        VKHLO_RETURN_IF_ERROR(copy_box(*reduced[i].storage, *out, box));
        Retire(reduced[i].storage);
        results.push_back(RtValue::Tensor(std::move(out), type));
      }
      return results;
    }
    case Kind::kAllToAll: {
      const int64_t* split_dim = &step.dimension;
      const int64_t* concat_dim = &step.concat_dimension;
      const int64_t* split_count = &step.split_count;
      if (*split_count <= 0) return error("needs split_dimension, concat_dimension and a positive split_count");
      for (const RtValue& v : operands) {
        const int64_t rank = v.type.rank();
        if (*split_dim < 0 || *split_dim >= rank || *concat_dim < 0 || *concat_dim >= rank ||
            v.type.dim(*split_dim) % *split_count != 0) {
          return error("has split/concat dimensions out of range or an indivisible split");
        }
      }
      VKHLO_ASSIGN_OR_RETURN(auto group, own_group(strategy));
      if (static_cast<int64_t>(group.size()) != *split_count) {
        return error(fmt::format("has split_count {} but a process group of {}", *split_count, group.size()));
      }
      VKHLO_ASSIGN_OR_RETURN(auto all, Exchange(step, group, mine));
      const int64_t index = coll::IndexIn(group, self);
      const size_t sd = static_cast<size_t>(*split_dim), cd = static_cast<size_t>(*concat_dim);
      for (size_t i = 0; i < operands.size(); ++i) {
        const std::vector<int64_t>& dims = operands[i].type.dims;
        std::vector<int64_t> piece = dims;
        piece[sd] = dims[sd] / *split_count;
        std::vector<int64_t> out_dims = piece;
        out_dims[cd] = piece[cd] * *split_count;
        const TensorDesc type = operands[i].type.WithDims(out_dims);
        if (type != result_type(i)) {
          return error(fmt::format("result {} has type {}, but the exchange gives {}", i, result_type(i).ToString(),
                                   type.ToString()));
        }
        VKHLO_ASSIGN_OR_RETURN(auto out, NewTensor(type));
        for (size_t k = 0; k < all.size(); ++k) {
          if (all[k][i]->type != operands[i].type) return error("got operands of different types from the processes of a group");
          BoxCopy box{dims, std::vector<int64_t>(dims.size(), 0), out_dims, std::vector<int64_t>(dims.size(), 0), piece};
          box.src_start[sd] = index * piece[sd];
          box.dst_start[cd] = static_cast<int64_t>(k) * piece[cd];
          VKHLO_RETURN_IF_ERROR(copy_box(*all[k][i], *out, box));
        }
        results.push_back(RtValue::Tensor(std::move(out), type));
      }
      return results;
    }
    case Kind::kCollectivePermute: {
      if (operands.size() != 1) return error("takes one tensor");
      const bool by_partition = strategy == coll::Strategy::kCrossPartition;
      const int64_t limit = coll::IdCount(grid, strategy);
      const int64_t my_id = by_partition ? self.partition : self.replica;
      auto process = [&](int64_t id) { return by_partition ? ProcessId{self.replica, id} : ProcessId{id, self.partition}; };
      std::shared_ptr<BufferState> received;
      for (const auto& [source, target] : step.source_target_pairs) {
        if (source < 0 || target < 0 || source >= limit || target >= limit) {
          return error(fmt::format("has the pair [{}, {}] outside a grid of {}", source, target, limit));
        }
        if (source != my_id && target != my_id) continue;
        // The source contributes its operand; the target only its presence.
        Contribution contribution;
        if (source == my_id) contribution.push_back(operands[0].storage);
        VKHLO_ASSIGN_OR_RETURN(auto all, Exchange(step, {process(source), process(target)}, contribution));
        if (target == my_id) {
          if (all[0].size() != 1) return error("received nothing from its source");
          received = all[0][0];
        }
      }
      const TensorDesc& type = result_type(0);
      if (!received) {
        VKHLO_ASSIGN_OR_RETURN(RtValue z, zeros(type));
        return std::vector<RtValue>{std::move(z)};
      }
      if (received->type != type) return error("received a tensor of another type");
      VKHLO_ASSIGN_OR_RETURN(auto out, NewTensor(type));
      VKHLO_RETURN_IF_ERROR(Copy(*received, 0, *out, 0, BufferBytes(type)));
      return std::vector<RtValue>{RtValue::Tensor(std::move(out), type)};
    }
    case Kind::kCollectiveBroadcast: {
      const bool dynamic_root = step.dynamic_root;
      const size_t data_count = operands.size() - (dynamic_root && !operands.empty() ? 1 : 0);
      if (data_count == 0 || data_count != step.results.size()) return error("needs one result per data operand");
      std::vector<int64_t> roots(data_count, 0);
      if (dynamic_root) {
        // The root is data: read back like a control-flow predicate.
        const RtValue& root = operands.back();
        const int64_t count = root.type.num_elements();
        if (count <= 0) return error("has an empty root operand");
        VKHLO_RETURN_IF_ERROR(Flush());
        stats_.predicate_readbacks++;
        const size_t bytes = root.type.element_bytes();
        std::vector<uint8_t> raw(static_cast<size_t>(count) * bytes);
        VKHLO_RETURN_IF_ERROR(client_->device->transfers().Download(root.storage->buffer, 0,
                                                                    std::as_writable_bytes(std::span<uint8_t>(raw))));
        for (size_t i = 0; i < roots.size(); ++i) {
          const size_t at = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(i), count - 1));
          roots[i] = IntegerFromBytes(std::span(raw).subspan(at * bytes, bytes), root.type.element);
        }
      }
      VKHLO_ASSIGN_OR_RETURN(auto groups, groups_of(strategy));
      auto group = coll::OwnGroup(groups, self);
      if (!group) {  // not in any group: zeros
        for (size_t i = 0; i < data_count; ++i) {
          VKHLO_ASSIGN_OR_RETURN(RtValue z, zeros(result_type(i)));
          results.push_back(std::move(z));
        }
        return results;
      }
      for (int64_t root : roots) {
        if (root < 0 || root >= static_cast<int64_t>(group->size())) {
          return error(fmt::format("has root {} outside its process group of {}", root, group->size()));
        }
      }
      Contribution data(mine.begin(), mine.begin() + static_cast<std::ptrdiff_t>(data_count));
      VKHLO_ASSIGN_OR_RETURN(auto all, Exchange(step, *group, data));
      for (size_t i = 0; i < data_count; ++i) {
        const auto& from = all[static_cast<size_t>(roots[i])][i];
        const TensorDesc& type = result_type(i);
        if (from->type != type) return error("received a tensor of another type");
        VKHLO_ASSIGN_OR_RETURN(auto out, NewTensor(type));
        VKHLO_RETURN_IF_ERROR(Copy(*from, 0, *out, 0, BufferBytes(type)));
        results.push_back(RtValue::Tensor(std::move(out), type));
      }
      return results;
    }
  }
  return InternalError(fmt::format("runtime: {} is not a collective", name));
}

}  // namespace vkhlo::runtime
