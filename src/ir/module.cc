#include "ir/module.h"

#include <algorithm>

namespace vkhlo::ir {

std::unique_ptr<Operation> Operation::Create(OpCode code, std::vector<Value*> operands,
                                             const std::vector<Type>& result_types,
                                             std::vector<NamedAttribute> attributes,
                                             int num_regions, Location location) {
  std::unique_ptr<Operation> op(new Operation());
  op->code_ = code;
  op->location_ = location;
  op->operands_ = std::move(operands);
  op->attributes_ = std::move(attributes);
  op->results_.reserve(result_types.size());
  for (size_t i = 0; i < result_types.size(); ++i) {
    auto value = std::make_unique<Value>();
    value->type_ = result_types[i];
    value->defining_op_ = op.get();
    value->index_ = static_cast<int>(i);
    op->results_.push_back(std::move(value));
  }
  for (int i = 0; i < num_regions; ++i) op->AddRegion();
  return op;
}

std::vector<Value*> Operation::results() const {
  std::vector<Value*> out;
  out.reserve(results_.size());
  for (const auto& r : results_) out.push_back(r.get());
  return out;
}

void Operation::SetAttribute(std::string name, Attribute value) {
  for (auto& [key, existing] : attributes_) {
    if (key == name) {
      existing = std::move(value);
      return;
    }
  }
  attributes_.emplace_back(std::move(name), std::move(value));
}

void Operation::RemoveAttribute(std::string_view name) {
  attributes_.erase(std::remove_if(attributes_.begin(), attributes_.end(),
                                   [&](const NamedAttribute& a) { return a.first == name; }),
                    attributes_.end());
}

Region& Operation::AddRegion() {
  regions_.push_back(std::make_unique<Region>(this));
  return *regions_.back();
}

Function* Operation::parent_function() const {
  const Operation* op = this;
  while (op != nullptr && op->parent_block_ != nullptr) {
    Region* region = op->parent_block_->parent_region();
    if (region == nullptr) return nullptr;
    if (region->parent_function() != nullptr) return region->parent_function();
    op = region->parent_op();
  }
  return nullptr;
}

Value* Block::AddArgument(Type type, std::string name_hint) {
  auto value = std::make_unique<Value>();
  value->type_ = std::move(type);
  value->owner_block_ = this;
  value->index_ = static_cast<int>(arguments_.size());
  value->name_hint_ = std::move(name_hint);
  arguments_.push_back(std::move(value));
  return arguments_.back().get();
}

Operation* Block::Append(std::unique_ptr<Operation> op) {
  return InsertBefore(operations_.size(), std::move(op));
}

Operation* Block::InsertBefore(size_t position, std::unique_ptr<Operation> op) {
  op->parent_block_ = this;
  for (auto& result : op->results_) result->owner_block_ = this;
  Operation* raw = op.get();
  operations_.insert(operations_.begin() + static_cast<std::ptrdiff_t>(position), std::move(op));
  return raw;
}

std::unique_ptr<Operation> Block::Remove(size_t position) {
  std::unique_ptr<Operation> op = std::move(operations_[position]);
  operations_.erase(operations_.begin() + static_cast<std::ptrdiff_t>(position));
  op->parent_block_ = nullptr;
  return op;
}

std::vector<std::unique_ptr<Operation>> Block::TakeOperations() {
  std::vector<std::unique_ptr<Operation>> taken = std::move(operations_);
  operations_.clear();
  for (auto& op : taken) op->parent_block_ = nullptr;
  return taken;
}

Operation* Block::parent_op() const { return parent_ ? parent_->parent_op() : nullptr; }

Block& Region::AddBlock() {
  blocks_.push_back(std::make_unique<Block>(this));
  return *blocks_.back();
}

void Function::AppendResults(const std::vector<Value*>& values) {
  Operation* terminator = body_.front().back();
  std::vector<Value*> returned = terminator->operands();
  for (Value* v : values) {
    returned.push_back(v);
    type_.results.push_back(v->type());
  }
  terminator->set_operands(returned);
  if (!result_attributes_.empty()) result_attributes_.resize(type_.results.size());
}

Function::Function(std::string name, FunctionType type)
    : name_(std::move(name)), type_(std::move(type)), body_(nullptr, this) {}

Function* Module::AddFunction(std::unique_ptr<Function> function) {
  function->parent_ = this;
  functions_.push_back(std::move(function));
  return functions_.back().get();
}

Function* Module::FindFunction(std::string_view name) const {
  for (const auto& f : functions_) {
    if (f->name() == name) return f.get();
  }
  return nullptr;
}

bool Module::RemoveFunction(std::string_view name) {
  auto it = std::find_if(functions_.begin(), functions_.end(),
                         [&](const auto& f) { return f->name() == name; });
  if (it == functions_.end()) return false;
  functions_.erase(it);
  return true;
}

}  // namespace vkhlo::ir
