// Where an op's attributes are: from bytecode version 5, a registered op's inherent attributes
// are its properties, in its dialect's encoding (for VHLO: one attribute index per declared
// attribute, sorted by name); before, and for discardable attributes, they are the op's
// attribute dictionary. An op its writer did not know keeps its properties as one attribute.
#pragma once

#include <vector>

#include "frontend/bytecode/ir_walker.h"
#include "frontend/bytecode/vhlo_attribute_rules.h"
#include "frontend/bytecode/vhlo_ops.h"
#include "ir/attribute.h"

namespace vkhlo::frontend::bytecode {

// The attributes `spec` declares that `op` has, from its properties or its dictionary.
StatusOr<VhloAttributeMap> InherentVhloAttributes(const BytecodeFile& file, AttrTypeTable& table, const VhloOp& spec,
                                                  const EncodedOp& op);

// Appends attribute `name` of `op` as vkhlo's IR keeps it (AttributeForIr: Shardy attributes
// dropped); errors name the op's byte.
Status AppendForIr(const EncodedOp& op, std::string_view name, const DecodedAttribute& value,
                   std::vector<ir::NamedAttribute>& out);

// All attributes of an op of another dialect (check, interpreter, chlo), as written.
StatusOr<std::vector<ir::NamedAttribute>> OtherDialectAttributes(const BytecodeFile& file, AttrTypeTable& table,
                                                                 const EncodedOp& op);

}  // namespace vkhlo::frontend::bytecode
