// VerifyOperation and InferResultTypes: the op-level entry points. Both check arity and types
// against the op table, then dispatch through the rule table (op_rules.h).
#include "verify/verifier.h"

#include <fmt/format.h>

#include <array>

#include "verify/diagnostic.h"
#include "verify/op_context.h"
#include "verify/op_rules.h"

namespace vkhlo::verify {
namespace {

using ir::Type;

std::string CountText(int min, int max) {
  if (max == ir::kVariadic) return fmt::format("at least {}", min);
  if (min == max) return fmt::format("{}", min);
  return fmt::format("{} to {}", min, max);
}

Status CheckOperandArity(const ir::OpInfo& info, size_t count, std::string_view prefix) {
  const int64_t n = static_cast<int64_t>(count);
  if (n < info.min_operands || (info.max_operands != ir::kVariadic && n > info.max_operands)) {
    return MakeError(prefix, info.name, "has the wrong number of operands",
                     CountText(info.min_operands, info.max_operands), fmt::format("{}", n));
  }
  return OkStatus();
}

Status CheckTypes(std::span<const Type> types, std::string_view kind, const ir::OpInfo& info,
                  std::string_view prefix) {
  for (size_t i = 0; i < types.size(); ++i) {
    std::string defect = TypeDefect(types[i]);
    if (!defect.empty()) {
      return MakeError(prefix, info.name, fmt::format("{} #{} has an invalid type", kind, i), defect,
                       types[i].ToString());
    }
  }
  return OkStatus();
}

bool Matches(const Type& inferred, const Type& actual, ResultMatch match) {
  switch (match) {
    case ResultMatch::kExact:  // a dynamic size on either side defers the check to refinement
      return CompatibleExact(inferred, actual);
    case ResultMatch::kCompatible:
      return CompatibleType(inferred, actual);
    case ResultMatch::kShape:
      if (inferred.is_tensor() && actual.is_tensor()) return CompatibleDims(inferred.dims(), actual.dims());
      return inferred.kind() == actual.kind() && (!inferred.is_tuple() || inferred == actual);
  }
  return false;
}

std::string TypesText(std::span<const Type> types) {
  return types.size() == 1 ? types[0].ToString() : TypeListToString(types);
}

// Runs a rule: inferred results against the op's own, then the remaining constraints.
Status RunRule(const OpRule& rule, const OpContext& ctx) {
  if (rule.infer != nullptr) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<Type> inferred, rule.infer(ctx));
    bool same = inferred.size() == ctx.num_results();
    for (size_t i = 0; same && i < inferred.size(); ++i) same = Matches(inferred[i], ctx.result(i), rule.match);
    if (!same) return ctx.Error(rule.result_what, TypesText(inferred), TypesText(ctx.results()));
  }
  if (rule.verify != nullptr) VKHLO_RETURN_IF_ERROR(rule.verify(ctx));
  return OkStatus();
}

}  // namespace

const OpRule* FindRule(ir::OpCode code) {
  static const std::vector<const OpRule*>* table = [] {
    auto* rules = new std::vector<const OpRule*>(static_cast<size_t>(ir::NumOpCodes()), nullptr);
    const std::array groups = {ElementwiseRules(), DataMovementRules(), GatherScatterRules(),
                               ReductionRules(),   LibraryRules(),      ControlFlowRules(),
                               CollectiveRules(),  OtherRules(),        ChloRules()};
    for (std::span<const OpRule> group : groups) {
      for (const OpRule& rule : group) (*rules)[static_cast<size_t>(rule.code)] = &rule;
    }
    return rules;
  }();
  const size_t index = static_cast<size_t>(code);
  return index < table->size() ? (*table)[index] : nullptr;
}

Status VerifyOperation(const ir::Operation& op) {
  const ir::OpInfo& info = op.info();
  const std::string prefix = LocationPrefix(op);
  VKHLO_RETURN_IF_ERROR(CheckOperandArity(info, op.num_operands(), prefix));
  if (info.num_results != ir::kVariadic && static_cast<int>(op.num_results()) != info.num_results) {
    return MakeError(prefix, info.name, "has the wrong number of results", fmt::format("{}", info.num_results),
                     fmt::format("{}", op.num_results()));
  }
  if (info.num_regions != ir::kVariadic && static_cast<int>(op.num_regions()) != info.num_regions) {
    return MakeError(prefix, info.name, "has the wrong number of regions", fmt::format("{}", info.num_regions),
                     fmt::format("{}", op.num_regions()));
  }
  std::vector<Type> operand_types, result_types;
  for (size_t i = 0; i < op.num_operands(); ++i) {
    if (op.operand(i) == nullptr) {
      return MakeError(prefix, info.name, fmt::format("operand #{} is missing", i), "a value", "none");
    }
    operand_types.push_back(op.operand(i)->type());
  }
  for (size_t i = 0; i < op.num_results(); ++i) result_types.push_back(op.result(i)->type());
  VKHLO_RETURN_IF_ERROR(CheckTypes(operand_types, "operand", info, prefix));
  VKHLO_RETURN_IF_ERROR(CheckTypes(result_types, "result", info, prefix));
  std::vector<const ir::Region*> regions;
  for (size_t i = 0; i < op.num_regions(); ++i) regions.push_back(&op.region(i));

  const OpRule* rule = FindRule(op.code());
  if (rule == nullptr) return OkStatus();
  OpContext ctx(op.code(), operand_types, result_types, op.attributes(), regions, &op, prefix);
  return RunRule(*rule, ctx);
}

Status VerifyTypes(ir::OpCode code, std::span<const Type> operand_types, std::span<const Type> result_types,
                   const std::vector<ir::NamedAttribute>& attributes, std::span<const ir::Region* const> regions,
                   std::string_view prefix) {
  if (static_cast<int>(code) >= ir::NumOpCodes()) return InvalidArgumentError("error: unknown op code");
  const ir::OpInfo& info = ir::GetOpInfo(code);
  VKHLO_RETURN_IF_ERROR(CheckOperandArity(info, operand_types.size(), prefix));
  VKHLO_RETURN_IF_ERROR(CheckTypes(operand_types, "operand", info, prefix));
  VKHLO_RETURN_IF_ERROR(CheckTypes(result_types, "result", info, prefix));
  const OpRule* rule = FindRule(code);
  if (rule == nullptr) return OkStatus();
  OpContext ctx(code, operand_types, result_types, attributes, regions, nullptr, std::string(prefix));
  return RunRule(*rule, ctx);
}

StatusOr<std::vector<Type>> InferResultTypes(ir::OpCode code, std::span<const Type> operand_types,
                                             const std::vector<ir::NamedAttribute>& attributes,
                                             std::span<const ir::Region* const> regions) {
  if (static_cast<int>(code) >= ir::NumOpCodes()) {
    return InvalidArgumentError("error: unknown op code");
  }
  const ir::OpInfo& info = ir::GetOpInfo(code);
  VKHLO_RETURN_IF_ERROR(CheckOperandArity(info, operand_types.size(), ""));
  VKHLO_RETURN_IF_ERROR(CheckTypes(operand_types, "operand", info, ""));
  const OpRule* rule = FindRule(code);
  if (rule == nullptr || rule->infer == nullptr) {
    return UnimplementedError(fmt::format("error: '{}' result types are not implied by its operands: expected "
                                          "them to be given, found an op whose results must be written out",
                                          info.name));
  }
  OpContext ctx(code, operand_types, {}, attributes, regions, nullptr, "");
  // Shape-only rules (dot_general, convolution) give the operands' element type: the default when
  // nothing else is asked for.
  return rule->infer(ctx);
}

}  // namespace vkhlo::verify
