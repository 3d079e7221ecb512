// Traversal, use replacement and cloning of IR, for passes.
//
// The IR keeps no use lists (values are plain pointers held by their users), so "replace all
// uses" is a walk over the region that may contain uses; passes batch their replacements into
// one map and walk once.
#pragma once

#include <functional>
#include <memory>
#include <unordered_map>

#include "ir/module.h"

namespace vkhlo::ir {

using ValueMap = std::unordered_map<const Value*, Value*>;

// Visits every op in pre-order: an op before the ops of its regions, blocks in order.
void WalkOps(const Region& region, const std::function<void(Operation&)>& visit);
void WalkOps(const Module& module, const std::function<void(Operation&)>& visit);

// Rewrites every operand found in `replacements` (a key) to the mapped value, in `region` and
// the regions nested in it. Chains are followed (a -> b, b -> c rewrites a to c).
void ReplaceUses(const Region& region, const ValueMap& replacements);

// How many operands (in `region`, nested regions included) refer to each value.
std::unordered_map<const Value*, int> CountUses(const Region& region);

// A copy of `op` (attributes, location and regions deep-copied) whose operands are looked up
// in `mapping` (values not in it are kept: they are defined outside what is being cloned).
// The mapping gains op's results -> the copy's results, and every nested value.
std::unique_ptr<Operation> CloneOp(const Operation& op, ValueMap& mapping);

// Appends copies of `source`'s blocks (arguments and ops) to `destination`.
void CloneRegionInto(const Region& source, Region& destination, ValueMap& mapping);

// A detached copy of `function` named `name` (signature, visibility, attributes, body).
std::unique_ptr<Function> CloneFunction(const Function& function, std::string name);
// A copy of the whole module (name, attributes, source name, every function).
std::unique_ptr<Module> CloneModule(const Module& module);

}  // namespace vkhlo::ir
