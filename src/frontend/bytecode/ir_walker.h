// The IR section: blocks of ops with their regions, nested sections for regions isolated from
// above (bytecode version 2 and later), value numbering with forward references, and use-list
// orders (skipped: vkhlo keeps no use lists).
//
// The walker knows the container, not the dialects: each op, once its name, location,
// attributes, result types and operands are read, goes to an OpBuilder that makes it part of
// vkhlo's IR and says where its regions go; the walker then reads those regions into them.
//
// Values are numbered per region isolated from above: each region reserves a range of value
// numbers, block arguments and op results take them in order, and an operand names one by
// number. A number used before its value is defined (a forward reference) leaves the operand
// empty until the value appears; one never defined is an error when its region closes.
#pragma once

#include <functional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/bytecode/attr_type_table.h"
#include "frontend/bytecode/container.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend::bytecode {

// One op as the IR section encodes it, before it becomes part of vkhlo's IR.
struct EncodedOp {
  std::string_view dialect;  // "vhlo", "builtin", "check"
  std::string_view name;     // without the dialect: "add_v1"
  bool registered = true;    // false: written by a context that did not know the op
  size_t offset = 0;         // of the op's encoding in the file
  DecodedLocation location;
  // The attribute dictionary: discardable attributes, and before bytecode version 5 the
  // inherent ones too.
  std::vector<std::pair<std::string_view, const DecodedAttribute*>> attributes;
  // The properties (inherent attributes) of a registered op, in its dialect's encoding; an
  // unregistered op's properties are one attribute instead.
  bool has_properties = false;
  std::span<const uint8_t> properties;
  const DecodedAttribute* properties_attribute = nullptr;
  std::vector<const DecodedType*> result_types;
  std::vector<ir::Value*> operands;  // nullptr: a forward reference, set once its value is read
  size_t num_regions = 0;
  std::string_view parent_dialect;  // of the op whose region holds this one; empty at the top
  std::string_view parent_name;
};

// What an op became in vkhlo's IR.
struct BuiltOp {
  ir::Operation* op = nullptr;       // receives forward-referenced operands when they appear
  std::vector<ir::Region*> regions;  // one per encoded region; nullptr: the module's body
  std::vector<ir::Value*> results;   // the values the op's results define, one each
  // Called once the op's regions are read (checks that need them), when set.
  std::function<Status()> finish;
};

class OpBuilder {
 public:
  virtual ~OpBuilder() = default;
  // Makes `op` part of the IR: appended to `block` (nullptr for the top level and the module's
  // body, which hold no vkhlo ops). Errors should name `op.offset`.
  virtual StatusOr<BuiltOp> Build(EncodedOp& op, ir::Block* block) = 0;
};

// Reads the whole IR section.
Status WalkIr(const BytecodeFile& file, AttrTypeTable& table, OpBuilder& builder);

}  // namespace vkhlo::frontend::bytecode
