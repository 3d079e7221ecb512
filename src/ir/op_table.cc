#include "ir/op_table.h"

#include <array>
#include <initializer_list>
#include <string>
#include <unordered_map>

namespace vkhlo::ir {
namespace {

// The pretty-form columns of op_table.def.
constexpr PrettyForm MakeForm(SpecialForm special, TypeForm types, std::initializer_list<PrettyKeyword> keywords) {
  PrettyForm form{special, types};
  for (const PrettyKeyword& keyword : keywords) form.keyword_table[form.num_keywords++] = keyword;
  return form;
}
#define Plain MakeForm(SpecialForm::kNone, TypeForm::kSameOrFunctional, {})
#define Keywords(types, ...) MakeForm(SpecialForm::kNone, TypeForm::k##types, {__VA_ARGS__})
#define Special(name) MakeForm(SpecialForm::k##name, TypeForm::kSameOrFunctional, {})
#define KW(keyword, attribute, value) PrettyKeyword{#keyword, #attribute, KeywordValue::k##value}
#define KW_ENUM(keyword, attribute, enum_kind) PrettyKeyword{#keyword, #attribute, KeywordValue::kEnum, #enum_kind}

constexpr OpInfo kOps[] = {
#define X(enumerator, name, kind, min_operands, max_operands, results, regions, runs, cost, form) \
  {OpCode::k##enumerator, name, OpKind::k##kind, min_operands, max_operands, results, regions, OpRuns::k##runs, cost, form},
#include "ir/op_table.def"
#undef X
};

#undef Plain
#undef Keywords
#undef Special
#undef KW
#undef KW_ENUM

// Rows are in OpCode order by construction; a row whose form lists more keywords than fit
// would not compile (MakeForm writes past keyword_table in a constant expression).
static_assert([] {
  for (size_t i = 0; i < std::size(kOps); ++i) {
    if (static_cast<size_t>(kOps[i].code) != i) return false;
  }
  return true;
}());

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

std::string_view OpRunsName(OpRuns runs) {
  switch (runs) {
    case OpRuns::kKernel: return "kernel";
    case OpRuns::kLibrary: return "library";
    case OpRuns::kHost: return "host step";
    case OpRuns::kDecomposed: return "decomposed";
    case OpRuns::kInterpreter: return "interpreter";
  }
  return "kernel";
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
