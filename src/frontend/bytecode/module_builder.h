// Builds vkhlo's IR from the ops the IR walker reads: builtin.module becomes the Module,
// vhlo.func_v1 a Function (func.func), vhlo.return_v1 func.return or stablehlo.return by where
// it stands, every other VHLO op the StableHLO op it versions (vhlo_attribute_rules.h), and
// ops of other dialects that an artifact may carry beside VHLO (check.*, interpreter.*, chlo.*
// when serialized with other dialects allowed) the vkhlo op of the same name with their
// attributes as written. builtin.unrealized_conversion_cast, which VHLO serialization inserts
// between VHLO values and other dialects' ops, disappears: its results are its operands. So do
// Shardy's annotations (sdy.mesh, constraints; attributes_table.h says why).
#pragma once

#include <memory>
#include <string>

#include "frontend/bytecode/ir_walker.h"
#include "ir/module.h"

namespace vkhlo::frontend::bytecode {

class ModuleBuilder : public OpBuilder {
 public:
  ModuleBuilder(const BytecodeFile& file, AttrTypeTable& table, std::string source_name);

  StatusOr<BuiltOp> Build(EncodedOp& op, ir::Block* block) override;

  // The module, once the walk is over (errors if the file held none).
  StatusOr<std::unique_ptr<ir::Module>> Finish();

 private:
  StatusOr<BuiltOp> BuildModule(EncodedOp& op, ir::Block* block);
  StatusOr<BuiltOp> BuildFunction(EncodedOp& op, ir::Block* block);
  StatusOr<BuiltOp> BuildShardyOp(EncodedOp& op);
  // An op whose results are its operands (casts, Shardy constraints).
  StatusOr<BuiltOp> BuildPassThrough(EncodedOp& op);
  StatusOr<BuiltOp> BuildVhloOp(EncodedOp& op, ir::Block* block);
  StatusOr<BuiltOp> BuildOtherOp(EncodedOp& op, ir::Block* block);
  // Appends a vkhlo op named `name` (a full name such as "stablehlo.add") to `block`.
  StatusOr<BuiltOp> Append(EncodedOp& op, ir::Block* block, std::string_view name,
                           std::vector<ir::NamedAttribute> attributes);
  // The position of `op` for vkhlo's IR: line and column when they are in the module's file.
  ir::Location LocationOf(const EncodedOp& op);
  Status Error(const EncodedOp& op, std::string_view message) const;

  const BytecodeFile& file_;
  AttrTypeTable& table_;
  std::string source_name_;
  std::unique_ptr<ir::Module> module_;
  bool module_done_ = false;
  std::string_view location_file_;  // the file the kept positions refer to (the first one met)
};

}  // namespace vkhlo::frontend::bytecode
