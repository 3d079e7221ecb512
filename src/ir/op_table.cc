#include "ir/op_table.h"

#include <array>
#include <string>
#include <unordered_map>

namespace vkhlo::ir {
namespace {

constexpr OpInfo kOps[] = {
#define X(enumerator, name, kind, min_operands, max_operands, results, regions) \
  {OpCode::k##enumerator, name, OpKind::k##kind, min_operands, max_operands, results, regions},
#include "ir/op_table.def"
#undef X
};

const std::unordered_map<std::string_view, OpCode>& NameIndex() {
  static const auto* index = [] {
    auto* map = new std::unordered_map<std::string_view, OpCode>();
    for (const OpInfo& info : kOps) (*map)[info.name] = info.code;
    // The func dialect's ops are also written without the prefix.
    (*map)["call"] = OpCode::kCall;
    (*map)["return"] = OpCode::kFuncReturn;
    return map;
  }();
  return *index;
}

}  // namespace

std::string_view OpKindName(OpKind kind) {
  switch (kind) {
    case OpKind::kElementwise: return "element-wise";
    case OpKind::kReduction: return "reduction";
    case OpKind::kDataMovement: return "data movement";
    case OpKind::kLibrary: return "library";
    case OpKind::kControlFlow: return "control flow";
    case OpKind::kCollective: return "collective";
    case OpKind::kConstant: return "constant";
    case OpKind::kStructural: return "structural";
    case OpKind::kTest: return "test";
    case OpKind::kChlo: return "chlo";
    case OpKind::kOther: return "other";
  }
  return "other";
}

const OpInfo& GetOpInfo(OpCode code) { return kOps[static_cast<int>(code)]; }

std::optional<OpCode> LookupOp(std::string_view name) {
  const auto& index = NameIndex();
  auto it = index.find(name);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

int NumOpCodes() { return static_cast<int>(std::size(kOps)); }

}  // namespace vkhlo::ir
