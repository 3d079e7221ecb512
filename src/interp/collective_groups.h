// Shared pieces of the collective ops (collective_*.cc): the spec's process-group strategies
// ("Collective ops" section), the exchange of values within a process group, and byte-level
// tensor pieces (concatenate / slice along a dimension) that serve every element type.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "interp/eval_context.h"
#include "ir/process_groups.h"
#include "interp/op_registry.h"
#include "interp/process_grid.h"

namespace vkhlo::interp::coll {

using Strategy = ir::CollectiveStrategy;  // ir/process_groups.h, shared with the runtime

// The grid the op runs in: its ProcessGrid's size, or 1 x 1 outside interpreter.run_parallel.
int64_t NumReplicas(const EvalContext& context);
int64_t NumPartitions(const EvalContext& context);

// `attr` (default "replica_groups") as rows of ids, dropping negative (padding) entries. An
// absent or empty attribute is one group of every id (of `all` ids).
StatusOr<std::vector<std::vector<int64_t>>> IdGroups(EvalContext& context, const ir::Operation& op,
                                                     const char* attr, int64_t all);

// The strategies by op attributes (ir/process_groups.h, shared with the runtime).
using ir::GatherReduceStrategy;
using ir::ReplicaOrPartitionStrategy;
// How many ids the groups of `strategy` range over.
int64_t IdCount(const EvalContext& context, Strategy strategy);

// The process groups of `strategy` over `groups` (ids checked against the grid).
StatusOr<std::vector<std::vector<ProcessId>>> ProcessGroups(EvalContext& context, const ir::Operation& op,
                                                            Strategy strategy,
                                                            const std::vector<std::vector<int64_t>>& groups);
// The group that holds this process, or nullopt.
std::optional<std::vector<ProcessId>> OwnGroup(const EvalContext& context,
                                               const std::vector<std::vector<ProcessId>>& groups);
// The position of this process in `group`.
int64_t IndexIn(const EvalContext& context, const std::vector<ProcessId>& group);

// Every process of `group` contributes; returns the contributions in group order. A group of
// only this process needs no grid.
StatusOr<std::vector<InterpValues>> Exchange(EvalContext& context, const ir::Operation& op,
                                             const std::vector<ProcessId>& group, InterpValues contribution);

// --- tensors by bytes ---

// All elements' storage bytes (a splat expanded).
std::vector<uint8_t> AllBytes(const ir::Literal& literal);
// Concatenation of `parts` (same type except along `dim`) along `dim`.
StatusOr<ir::Literal> Concatenate(const std::vector<const ir::Literal*>& parts, int64_t dim);
// `literal`[..., start : start + size, ...] along `dim`.
StatusOr<ir::Literal> SliceAlong(const ir::Literal& literal, int64_t dim, int64_t start, int64_t size);

// Registers run_parallel, replica_id, partition_id, send, recv, infeed, outfeed
// (collective_process.cc).
void RegisterProcessOps(OpRegistry& registry);

}  // namespace vkhlo::interp::coll
