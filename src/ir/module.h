// The program structure: Module -> Function -> Region -> Block -> Operation, with SSA Values.
//
// Ownership is strictly downward (a module owns its functions, a function its body region, a
// region its blocks, a block its arguments and operations, an operation its results and
// regions); back pointers (parent, defining op) are plain pointers. Values are referenced by
// pointer; their addresses never change while they live.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attribute.h"
#include "ir/location.h"
#include "ir/op_table.h"
#include "ir/type.h"

namespace vkhlo::ir {

class Block;
class Function;
class Module;
class Operation;
class Region;


class Value {
 public:
  const Type& type() const { return type_; }
  void set_type(Type type) { type_ = std::move(type); }
  // The op producing this value, or nullptr for a block argument.
  Operation* defining_op() const { return defining_op_; }
  // For block arguments, the block; for op results, the op's block.
  Block* owner_block() const { return owner_block_; }
  bool is_block_argument() const { return defining_op_ == nullptr; }
  // Result number or argument number.
  int index() const { return index_; }
  // The name it had in the source ("0", "cst", "arg0"), for messages; may be empty.
  const std::string& name_hint() const { return name_hint_; }
  void set_name_hint(std::string name) { name_hint_ = std::move(name); }

 private:
  friend class Block;
  friend class Operation;
  Type type_;
  Operation* defining_op_ = nullptr;
  Block* owner_block_ = nullptr;
  int index_ = 0;
  std::string name_hint_;
};

class Operation {
 public:
  // A detached op; append it to a block with Block::Append.
  static std::unique_ptr<Operation> Create(OpCode code, std::vector<Value*> operands,
                                           const std::vector<Type>& result_types,
                                           std::vector<NamedAttribute> attributes = {},
                                           int num_regions = 0, Location location = {});

  OpCode code() const { return code_; }
  const OpInfo& info() const { return GetOpInfo(code_); }
  std::string_view name() const { return info().name; }
  Location location() const { return location_; }
  void set_location(Location location) { location_ = location; }

  const std::vector<Value*>& operands() const { return operands_; }
  Value* operand(size_t i) const { return operands_[i]; }
  size_t num_operands() const { return operands_.size(); }
  void set_operand(size_t i, Value* value) { operands_[i] = value; }
  void set_operands(std::vector<Value*> operands) { operands_ = std::move(operands); }

  size_t num_results() const { return results_.size(); }
  Value* result(size_t i) const { return results_[i].get(); }
  std::vector<Value*> results() const;

  const std::vector<NamedAttribute>& attributes() const { return attributes_; }
  const Attribute* attribute(std::string_view name) const { return FindAttribute(attributes_, name); }
  void SetAttribute(std::string name, Attribute value);
  void RemoveAttribute(std::string_view name);

  size_t num_regions() const { return regions_.size(); }
  Region& region(size_t i) const { return *regions_[i]; }
  Region& AddRegion();

  Block* parent_block() const { return parent_block_; }
  // The function this op is (transitively) inside, or nullptr when detached.
  Function* parent_function() const;

 private:
  friend class Block;
  Operation() = default;
  OpCode code_ = OpCode::kConstant;
  Location location_;
  std::vector<Value*> operands_;
  std::vector<std::unique_ptr<Value>> results_;
  std::vector<NamedAttribute> attributes_;
  std::vector<std::unique_ptr<Region>> regions_;
  Block* parent_block_ = nullptr;
};

class Block {
 public:
  explicit Block(Region* parent = nullptr) : parent_(parent) {}

  Value* AddArgument(Type type, std::string name_hint = "");
  const std::vector<std::unique_ptr<Value>>& arguments() const { return arguments_; }
  size_t num_arguments() const { return arguments_.size(); }
  Value* argument(size_t i) const { return arguments_[i].get(); }

  const std::vector<std::unique_ptr<Operation>>& operations() const { return operations_; }
  bool empty() const { return operations_.empty(); }
  // The last op (the terminator in a well-formed block), or nullptr.
  Operation* back() const { return operations_.empty() ? nullptr : operations_.back().get(); }
  Operation* Append(std::unique_ptr<Operation> op);
  Operation* InsertBefore(size_t position, std::unique_ptr<Operation> op);
  // Removes and returns the op at `position`.
  std::unique_ptr<Operation> Remove(size_t position);
  // Detaches every op (in order), leaving the block empty: passes rebuild a block by taking its
  // ops and appending what they keep, in linear time.
  std::vector<std::unique_ptr<Operation>> TakeOperations();

  Region* parent_region() const { return parent_; }
  Operation* parent_op() const;

 private:
  friend class Region;
  Region* parent_;
  std::vector<std::unique_ptr<Value>> arguments_;
  std::vector<std::unique_ptr<Operation>> operations_;
};

class Region {
 public:
  explicit Region(Operation* parent_op = nullptr, Function* parent_function = nullptr)
      : parent_op_(parent_op), parent_function_(parent_function) {}
  Block& AddBlock();
  const std::vector<std::unique_ptr<Block>>& blocks() const { return blocks_; }
  bool empty() const { return blocks_.empty(); }
  Block& front() const { return *blocks_.front(); }
  // The op owning this region (nullptr for a function body).
  Operation* parent_op() const { return parent_op_; }
  // The function owning this region directly (function bodies only).
  Function* parent_function() const { return parent_function_; }

 private:
  Operation* parent_op_;
  Function* parent_function_;
  std::vector<std::unique_ptr<Block>> blocks_;
};

class Function {
 public:
  Function(std::string name, FunctionType type);

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  const FunctionType& type() const { return type_; }
  void set_type(FunctionType type) { type_ = std::move(type); }
  bool is_public() const { return visibility_ != "private"; }
  const std::string& visibility() const { return visibility_; }  // "", "public", "private"
  void set_visibility(std::string visibility) { visibility_ = std::move(visibility); }
  Location location() const { return location_; }
  void set_location(Location location) { location_ = location; }

  // Per-argument and per-result attribute dictionaries (same length as the type's lists, or
  // empty when none has any).
  std::vector<std::vector<NamedAttribute>>& arg_attributes() { return arg_attributes_; }
  const std::vector<std::vector<NamedAttribute>>& arg_attributes() const { return arg_attributes_; }
  std::vector<std::vector<NamedAttribute>>& result_attributes() { return result_attributes_; }
  const std::vector<std::vector<NamedAttribute>>& result_attributes() const { return result_attributes_; }
  // Other attributes of the func.func (e.g. from `attributes {...}`).
  std::vector<NamedAttribute>& attributes() { return attributes_; }
  const std::vector<NamedAttribute>& attributes() const { return attributes_; }

  // The body: one region with one block whose arguments are the function's inputs. Empty for
  // a declaration.
  Region& body() { return body_; }
  const Region& body() const { return body_; }

  // Returns `values` (of the body) too, after the existing results: the body's terminator takes
  // them as operands and the signature grows (result attributes, where kept, padded empty). How
  // a test program hands values the host inspects (checks, prints) back as extra results.
  void AppendResults(const std::vector<Value*>& values);

  Module* parent() const { return parent_; }

 private:
  friend class Module;
  std::string name_;
  FunctionType type_;
  std::string visibility_;
  Location location_;
  std::vector<std::vector<NamedAttribute>> arg_attributes_, result_attributes_;
  std::vector<NamedAttribute> attributes_;
  Region body_;
  Module* parent_ = nullptr;
};

class Module {
 public:
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // "@jit_main" is stored as "jit_main"; empty for an unnamed module.
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  std::vector<NamedAttribute>& attributes() { return attributes_; }
  const std::vector<NamedAttribute>& attributes() const { return attributes_; }
  // The file it was read from, for messages ("file:line:col").
  const std::string& source_name() const { return source_name_; }
  void set_source_name(std::string name) { source_name_ = std::move(name); }

  Function* AddFunction(std::unique_ptr<Function> function);
  const std::vector<std::unique_ptr<Function>>& functions() const { return functions_; }
  Function* FindFunction(std::string_view name) const;
  // Removes the function (for passes such as inlining). Returns false if absent.
  bool RemoveFunction(std::string_view name);

 private:
  std::string name_;
  std::vector<NamedAttribute> attributes_;
  std::string source_name_;
  std::vector<std::unique_ptr<Function>> functions_;
};

}  // namespace vkhlo::ir
