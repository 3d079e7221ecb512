// Control flow and structure: if, case, while, optimization_barrier, composite, and the func
// dialect's call and return (checked against the module's functions).
#include <fmt/format.h>

#include "verify/op_rules.h"
#include "verify/shape_inference.h"

namespace vkhlo::verify {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Type;

// Branches (if/case): no arguments, the same result types. Returns the first branch's results.
StatusOr<TypeList> CheckBranches(const OpContext& ctx, size_t first, const char* args_label,
                                 const char* same_label) {
  TypeList results;
  for (size_t i = first; i < ctx.num_regions(); ++i) {
    const std::string name = ctx.code() == OpCode::kIf ? (i == 0 ? "true_branch" : "false_branch")
                                                       : fmt::format("branches[{}]", i);
    VKHLO_ASSIGN_OR_RETURN(RegionSignature branch, ctx.Region(i, name));
    if (!branch.arguments.empty()) {
      return ctx.Error(fmt::format("{} must have 0 inputs ({})", name, args_label), "()",
                       TypeListToString(branch.arguments));
    }
    if (i == first) {
      results = branch.results;
    } else if (branch.results != results) {
      return ctx.Error(fmt::format("branches must have the same output types ({})", same_label),
                       TypeListToString(results), TypeListToString(branch.results));
    }
  }
  return results;
}

StatusOr<TypeList> InferIf(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireScalar(0, kBoolean, "pred (I1)"));
  if (ctx.num_regions() != 2) {
    return ctx.Error("requires a true_branch and a false_branch", "2 regions",
                     fmt::format("{} regions", ctx.num_regions()));
  }
  return CheckBranches(ctx, 0, "C1", "C2");
}

StatusOr<TypeList> InferCase(const OpContext& ctx) {
  const Type& index = ctx.operand(0);
  if (!index.is_tensor() || index.is_quantized() || index.rank() != 0 || index.element_type() != ElementType::kS32) {
    return ctx.Error("index (I1) has an invalid type", "tensor<i32>", index.ToString());
  }
  if (ctx.num_regions() == 0) {
    return ctx.Error("branches must have at least one function (C1)", "at least 1 region", "0 regions");
  }
  return CheckBranches(ctx, 0, "C2", "C3");
}

StatusOr<TypeList> InferWhile(const OpContext& ctx) {
  VKHLO_ASSIGN_OR_RETURN(RegionSignature cond, ctx.Region(0, "cond"));
  VKHLO_ASSIGN_OR_RETURN(RegionSignature body, ctx.Region(1, "body"));
  const Type boolean = Type::Scalar(ElementType::kI1);
  VKHLO_RETURN_IF_ERROR(ctx.CheckRegionType(cond, ctx.operands(), std::span(&boolean, 1), "cond", "C1"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckRegionType(body, ctx.operands(), ctx.operands(), "body", "C2"));
  return TypeList(ctx.operands().begin(), ctx.operands().end());
}

StatusOr<TypeList> InferOptimizationBarrier(const OpContext& ctx) {
  for (size_t i = 0; i < ctx.num_operands(); ++i) {
    if (ctx.operand(i).is_tuple()) {
      return ctx.Error("operand has an invalid type", "tensor or token", ctx.operand(i).ToString());
    }
  }
  return TypeList(ctx.operands().begin(), ctx.operands().end());
}

// The function a symbol attribute names, in the op's module (nullptr when the op is not in a
// module, e.g. under InferResultTypes; an error when the module has no such function).
StatusOr<const ir::Function*> FindCallee(const OpContext& ctx, std::string_view attribute) {
  const ir::Attribute* attr = ctx.Attr(attribute);
  if (attr == nullptr) return ctx.MissingAttribute(attribute, "a symbol reference (@name)");
  std::string name;
  if (auto* symbol = attr->as<ir::SymbolRef>()) {
    name = symbol->name;
  } else if (auto* text = attr->AsString()) {
    name = *text;
  } else {
    return ctx.WrongAttributeKind(attribute, "a symbol reference (@name)", *attr);
  }
  const ir::Module* module = ctx.op() != nullptr ? ModuleOf(*ctx.op()) : nullptr;
  if (module == nullptr) return static_cast<const ir::Function*>(nullptr);
  const ir::Function* function = module->FindFunction(name);
  if (function == nullptr) {
    return ctx.Error(fmt::format("{} must name a function of the module", attribute),
                     fmt::format("a function named @{}", name), "none");
  }
  return function;
}

// Operand and result types against a function's signature.
Status CheckSignature(const OpContext& ctx, const ir::Function& function, std::string_view what) {
  const ir::FunctionType& type = function.type();
  // A dynamic size on one side takes any size on the other: a call may pass static types to a
  // shape-polymorphic function (shape refinement specialises it, passes/shapes).
  const auto compatible = [](std::span<const ir::Type> a, std::span<const ir::Type> b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const ir::Type& x, const ir::Type& y) { return CompatibleExact(x, y); });
  };
  if (!compatible(ctx.operands(), type.inputs)) {
    return ctx.Error(fmt::format("operand types must match the inputs of {} @{}", what, function.name()),
                     TypeListToString(type.inputs), TypeListToString(ctx.operands()));
  }
  if (!compatible(ctx.results(), type.results)) {
    return ctx.Error(fmt::format("result types must match the results of {} @{}", what, function.name()),
                     TypeListToString(type.results), TypeListToString(ctx.results()));
  }
  return OkStatus();
}

Status VerifyComposite(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.String("name").status());
  VKHLO_ASSIGN_OR_RETURN(int64_t version, ctx.Int("version", 0));
  if (version < 0) return ctx.Error("version must be non-negative", ">= 0", fmt::format("{}", version));
  if (const ir::Attribute* attrs = ctx.Attr("composite_attributes");
      attrs != nullptr && !attrs->is<ir::Attribute::Dictionary>()) {
    return ctx.WrongAttributeKind("composite_attributes", "a dictionary", *attrs);
  }
  VKHLO_ASSIGN_OR_RETURN(const ir::Function* decomposition, FindCallee(ctx, "decomposition"));
  if (decomposition == nullptr) return OkStatus();
  return CheckSignature(ctx, *decomposition, "decomposition");
}

Status VerifyCall(const OpContext& ctx) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Function* callee, FindCallee(ctx, "callee"));
  if (callee == nullptr) return OkStatus();
  return CheckSignature(ctx, *callee, "callee");
}

// func.return: its operands against the enclosing function's result types.
Status VerifyFuncReturn(const OpContext& ctx) {
  if (ctx.op() == nullptr || ctx.op()->parent_block() == nullptr) return OkStatus();
  const ir::Region* region = ctx.op()->parent_block()->parent_region();
  if (region == nullptr || region->parent_function() == nullptr) {
    return ctx.Error("must terminate a function body", "stablehlo.return in the regions of ops", "func.return");
  }
  const ir::FunctionType& type = region->parent_function()->type();
  if (!std::equal(ctx.operands().begin(), ctx.operands().end(), type.results.begin(), type.results.end())) {
    return ctx.Error(fmt::format("operand types must match the result types of @{}",
                                 region->parent_function()->name()),
                     TypeListToString(type.results), TypeListToString(ctx.operands()));
  }
  return OkStatus();
}

// stablehlo.return: its types are the enclosing op's business; it must sit in an op's region.
Status VerifyReturn(const OpContext& ctx) {
  if (ctx.op() == nullptr || ctx.op()->parent_block() == nullptr) return OkStatus();
  const ir::Region* region = ctx.op()->parent_block()->parent_region();
  if (region != nullptr && region->parent_function() != nullptr) {
    return ctx.Error("must terminate the region of an op", "func.return at the end of a function body",
                     "stablehlo.return");
  }
  return OkStatus();
}

constexpr OpRule kRules[] = {
    {OpCode::kCase, InferCase, nullptr, "result types must be the branches' output types (C4)"},
    {OpCode::kIf, InferIf, nullptr, "result types must be the branches' output types (C3)"},
    {OpCode::kWhile, InferWhile, nullptr, "result types must match the operands' (C3)"},
    {OpCode::kOptimizationBarrier, InferOptimizationBarrier, nullptr, "result types must match the operands' (C1, C2)"},
    {OpCode::kComposite, nullptr, VerifyComposite},
    {OpCode::kReturn, nullptr, VerifyReturn},
    {OpCode::kCall, nullptr, VerifyCall},
    {OpCode::kFuncReturn, nullptr, VerifyFuncReturn},
};

}  // namespace

std::span<const OpRule> ControlFlowRules() { return kRules; }

}  // namespace vkhlo::verify
