// The op table: every op vkhlo knows, with its name, kind and arity (see op_table.def).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace vkhlo::ir {

enum class OpKind : uint8_t {
  kElementwise, kReduction, kDataMovement, kLibrary, kControlFlow, kCollective,
  kConstant, kStructural, kTest, kChlo, kOther,
};
std::string_view OpKindName(OpKind kind);

enum class OpCode : uint16_t {
#define X(enumerator, name, kind, min_operands, max_operands, results, regions) k##enumerator,
#include "ir/op_table.def"
#undef X
};

inline constexpr int kVariadic = -1;

struct OpInfo {
  OpCode code;
  std::string_view name;  // "stablehlo.add"
  OpKind kind;
  int min_operands;
  int max_operands;  // kVariadic: no upper bound
  int num_results;   // kVariadic: any number
  int num_regions;   // kVariadic: any number (case)
};

const OpInfo& GetOpInfo(OpCode code);
// Looks an op up by its full name ("stablehlo.add", "func.call"). nullopt for unknown ops.
std::optional<OpCode> LookupOp(std::string_view name);
int NumOpCodes();

}  // namespace vkhlo::ir
