// How a VHLO op's attributes become the StableHLO attributes vkhlo's text parser reads from
// the same op (StableHLO's VhloLegalizeToStablehlo): every VHLO attribute is required, so
// those equal to StableHLO's defaults are dropped; flat dimension attributes are regrouped
// into #stablehlo.dot / conv / gather / scatter dimension numbers and dot algorithms; dimension
// lists become dense arrays (array<i64: ...>); channel ids become channel handles; callees and
// decompositions become symbol references.
//
// Retired op versions are upgraded on the way (StableHLO's VhloToVersion patterns): the
// attributes an older version lacks (gather_v1's batching dimensions, dot_general_v1's
// algorithm, custom_call_v1's result tilings, ...) count as absent, which is their default.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "frontend/bytecode/attr_type_table.h"
#include "frontend/bytecode/vhlo_ops.h"
#include "ir/attribute.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend::bytecode {

// An op's inherent attributes by name (the ones its VHLO version declares that were found).
using VhloAttributeMap = std::vector<std::pair<std::string_view, const DecodedAttribute*>>;

// The StableHLO attributes of `op` (not yet sorted). Errors say which attribute is malformed.
StatusOr<std::vector<ir::NamedAttribute>> ConvertVhloAttributes(const VhloOp& op, const VhloAttributeMap& attributes);

}  // namespace vkhlo::frontend::bytecode
