#include "ir/walk.h"

namespace vkhlo::ir {

void WalkOps(const Region& region, const std::function<void(Operation&)>& visit) {
  for (const auto& block : region.blocks()) {
    for (const auto& op : block->operations()) {
      visit(*op);
      for (size_t i = 0; i < op->num_regions(); ++i) WalkOps(op->region(i), visit);
    }
  }
}

void WalkOps(const Module& module, const std::function<void(Operation&)>& visit) {
  for (const auto& function : module.functions()) WalkOps(function->body(), visit);
}

namespace {
Value* Resolve(Value* value, const ValueMap& replacements) {
  // Bounded: a cycle in the map would be a pass bug; stop rather than loop forever.
  for (size_t steps = 0; steps <= replacements.size(); ++steps) {
    auto it = replacements.find(value);
    if (it == replacements.end() || it->second == value) return value;
    value = it->second;
  }
  return value;
}
}  // namespace

void ReplaceUses(const Region& region, const ValueMap& replacements) {
  if (replacements.empty()) return;
  WalkOps(region, [&](Operation& op) {
    for (size_t i = 0; i < op.num_operands(); ++i) {
      op.set_operand(i, Resolve(op.operand(i), replacements));
    }
  });
}

std::unordered_map<const Value*, int> CountUses(const Region& region) {
  std::unordered_map<const Value*, int> uses;
  WalkOps(region, [&](Operation& op) {
    for (Value* operand : op.operands()) ++uses[operand];
  });
  return uses;
}

std::unique_ptr<Operation> CloneOp(const Operation& op, ValueMap& mapping) {
  std::vector<Value*> operands;
  operands.reserve(op.num_operands());
  for (Value* operand : op.operands()) {
    auto it = mapping.find(operand);
    operands.push_back(it == mapping.end() ? operand : it->second);
  }
  std::vector<Type> result_types;
  for (size_t i = 0; i < op.num_results(); ++i) result_types.push_back(op.result(i)->type());
  auto copy = Operation::Create(op.code(), std::move(operands), result_types, op.attributes(),
                                /*num_regions=*/0, op.location());
  for (size_t i = 0; i < op.num_results(); ++i) {
    copy->result(i)->set_name_hint(op.result(i)->name_hint());
    mapping[op.result(i)] = copy->result(i);
  }
  for (size_t i = 0; i < op.num_regions(); ++i) {
    CloneRegionInto(op.region(i), copy->AddRegion(), mapping);
  }
  return copy;
}

void CloneRegionInto(const Region& source, Region& destination, ValueMap& mapping) {
  for (const auto& block : source.blocks()) {
    Block& copy = destination.AddBlock();
    for (const auto& argument : block->arguments()) {
      mapping[argument.get()] = copy.AddArgument(argument->type(), argument->name_hint());
    }
  }
  // Ops second, so that (future) branches between blocks find their targets' arguments.
  for (size_t b = 0; b < source.blocks().size(); ++b) {
    Block& copy = *destination.blocks()[b + destination.blocks().size() - source.blocks().size()];
    for (const auto& op : source.blocks()[b]->operations()) copy.Append(CloneOp(*op, mapping));
  }
}

std::unique_ptr<Function> CloneFunction(const Function& function, std::string name) {
  auto copy = std::make_unique<Function>(std::move(name), function.type());
  copy->set_visibility(function.visibility());
  copy->set_location(function.location());
  copy->arg_attributes() = function.arg_attributes();
  copy->result_attributes() = function.result_attributes();
  copy->attributes() = function.attributes();
  ValueMap mapping;
  CloneRegionInto(function.body(), copy->body(), mapping);
  return copy;
}

std::unique_ptr<Module> CloneModule(const Module& module) {
  auto copy = std::make_unique<Module>();
  copy->set_name(module.name());
  copy->set_source_name(module.source_name());
  copy->attributes() = module.attributes();
  for (const auto& function : module.functions()) copy->AddFunction(CloneFunction(*function, function->name()));
  return copy;
}

}  // namespace vkhlo::ir
