// The rest of StableHLO (constant, tokens, custom_call, feeds, rng) and the test ops of the
// interpreter's check dialect and helpers (arity and the obvious type rules).
#include <fmt/format.h>

#include <array>

#include "verify/op_rules.h"
#include "verify/shape_inference.h"

namespace vkhlo::verify {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Type;

constexpr uint32_t kAny = kAnyElement;

StatusOr<TypeList> InferToken(const OpContext&) { return TypeList{Type::Token()}; }

StatusOr<TypeList> InferAfterAll(const OpContext& ctx) {
  for (size_t i = 0; i < ctx.num_operands(); ++i) VKHLO_RETURN_IF_ERROR(ctx.RequireToken(ctx.operand(i), "inputs (I1)"));
  return TypeList{Type::Token()};
}

// A dense constant attribute `name` whose type must be `type`: exact, or for quantized types
// the storage type's elements of the same shape.
Status CheckValueAttribute(const OpContext& ctx, std::string_view name, const Type& type, std::string_view what) {
  const ir::Attribute* attr = ctx.Attr(name);
  if (attr == nullptr) return ctx.MissingAttribute(name, "a dense elements attribute");
  const ir::Literal* literal = attr->AsDenseElements();
  if (literal == nullptr) return ctx.WrongAttributeKind(name, "a dense elements attribute", *attr);
  const Type& value_type = literal->type();
  bool same = value_type == type;
  if (!same && type.is_quantized() && value_type.is_tensor()) {
    same = value_type.dims() == type.dims() &&  // a constant's type is static
           (value_type.is_quantized() ? CompatibleElement(value_type, type)
                                      : value_type.element_type() == type.quantization()->storage);
  }
  if (!same) return ctx.Error(what, type.ToString(), value_type.ToString());
  return OkStatus();
}

Status VerifyConstant(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "output"));
  return CheckValueAttribute(ctx, "value", ctx.result(0), "value and output must have the same type (C1)");
}

Status VerifyCustomCall(const OpContext& ctx) {
  VKHLO_ASSIGN_OR_RETURN(std::string target, ctx.String("call_target_name"));
  VKHLO_RETURN_IF_ERROR(ctx.Bool("has_side_effect", false).status());
  if (const ir::Attribute* config = ctx.Attr("backend_config");
      config != nullptr && config->AsString() == nullptr && !config->is<ir::Attribute::Dictionary>()) {
    return ctx.WrongAttributeKind("backend_config", "a string or a dictionary", *config);
  }
  VKHLO_ASSIGN_OR_RETURN(int64_t api_version, ctx.Int("api_version", 1));
  if (api_version < 0 || api_version > 4) {
    return ctx.Error("api_version must be a known version", "0 to 4", fmt::format("{}", api_version));
  }
  if (const ir::Attribute* called = ctx.Attr("called_computations")) {
    const auto* list = called->as<ir::Attribute::Array>();
    if (list == nullptr) return ctx.WrongAttributeKind("called_computations", "a list of @functions", *called);
    const ir::Module* module = ctx.op() != nullptr ? ModuleOf(*ctx.op()) : nullptr;
    for (const ir::Attribute& element : *list) {
      const auto* symbol = element.as<ir::SymbolRef>();
      if (symbol == nullptr) return ctx.WrongAttributeKind("called_computations", "a list of @functions", *called);
      if (module != nullptr && module->FindFunction(symbol->name) == nullptr) {
        return ctx.Error("called_computations must name functions of the module",
                         fmt::format("a function named @{}", symbol->name), "none");
      }
    }
  }
  if (const ir::Attribute* aliases = ctx.Attr("output_operand_aliases")) {
    const auto* list = aliases->as<ir::Attribute::Array>();
    if (list == nullptr) return ctx.WrongAttributeKind("output_operand_aliases", "a list of aliases", *aliases);
    for (const ir::Attribute& element : *list) {
      const auto* alias = element.as<ir::OutputOperandAlias>();
      if (alias == nullptr) return ctx.WrongAttributeKind("output_operand_aliases", "a list of aliases", *aliases);
      if (alias->operand_index < 0 || alias->operand_index >= static_cast<int64_t>(ctx.num_operands())) {
        return ctx.Error("output_operand_aliases operand_index must name an operand",
                         fmt::format("a value in [0, {})", ctx.num_operands()), fmt::format("{}", alias->operand_index));
      }
    }
  }
  for (const char* name : {"operand_layouts", "result_layouts"}) {
    const ir::Attribute* layouts = ctx.Attr(name);
    if (layouts == nullptr) continue;
    const auto* list = layouts->as<ir::Attribute::Array>();
    const size_t expected = name[0] == 'o' ? ctx.num_operands() : ctx.num_results();
    if (list == nullptr) return ctx.WrongAttributeKind(name, "a list of layouts", *layouts);
    if (list->size() != expected && !ctx.inferring()) {
      return ctx.Error(fmt::format("{} must have one layout per {}", name, name[0] == 'o' ? "operand" : "result"),
                       fmt::format("{} layouts", expected), fmt::format("{} layouts", list->size()));
    }
  }
  // The interpreter's checks written as custom calls (JAX's test exports).
  if (target == "check.expect_eq" || target == "check.expect_close" || target == "check.expect_almost_eq" ||
      target == "check.eq") {
    if (ctx.num_operands() != 2 || ctx.operand(0) != ctx.operand(1)) {
      return ctx.Error(fmt::format("@{} compares two values of one type", target),
                       ctx.num_operands() == 2 ? ctx.operand(0).ToString() : std::string("2 operands"),
                       ctx.num_operands() == 2 ? ctx.operand(1).ToString()
                                               : fmt::format("{} operands", ctx.num_operands()));
    }
  }
  return OkStatus();
}

Status VerifyInfeed(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireToken(ctx.operand(0), "token (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.String("infeed_config", "").status());
  if (ctx.num_results() == 0) return ctx.Error("must have at least one result (C1)", "at least 1 result", "0 results");
  if (!ctx.results().back().is_token()) {
    return ctx.Error("last result must be a token (C2)", "!stablehlo.token", ctx.results().back().ToString());
  }
  return OkStatus();
}

StatusOr<TypeList> InferOutfeed(const OpContext& ctx) {
  const size_t last = ctx.num_operands() - 1;
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, last, kAny, "inputs (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireToken(ctx.operand(last), "token (I2)"));
  VKHLO_RETURN_IF_ERROR(ctx.String("outfeed_config", "").status());
  return TypeList{Type::Token()};
}

Status VerifyRng(const OpContext& ctx) {
  constexpr uint32_t kClasses = kInt | kBoolean | kFloat;
  VKHLO_RETURN_IF_ERROR(ctx.RequireScalar(0, kClasses, "a (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireScalar(1, kClasses, "b (I2)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kClasses, "result"));
  const Type& result = ctx.result(0);
  VKHLO_RETURN_IF_ERROR(RequireShapeOperand(ctx, 2, result.rank(), "shape (I3)"));
  static constexpr std::array<std::string_view, 2> kDistributions = {"UNIFORM", "NORMAL"};
  VKHLO_ASSIGN_OR_RETURN(std::string distribution, ctx.Enum("rng_distribution", "rng_distribution", kDistributions));
  for (size_t i = 0; i < 2; ++i) {
    if (ctx.operand(i).element_type() != result.element_type()) {
      return ctx.Error("a, b and result must have the same element type (C1)", ElementName(result),
                       ElementName(ctx.operand(i)));
    }
  }
  if (distribution == "NORMAL" && !ir::IsFloat(result.element_type())) {
    return ctx.Error("a NORMAL distribution needs a floating-point element type (C2)", "a floating-point type",
                     ElementName(result));
  }
  auto shape = ConstantOperandInts(ctx, 2);
  if (shape && !CompatibleDims(*shape, result.dims())) {
    return ctx.Error("result shape must be `shape` (C3)", IntListToString(*shape), result.ToString());
  }
  return OkStatus();
}

Status VerifyRngBitGenerator(const OpContext& ctx) {
  static constexpr std::array<std::string_view, 3> kAlgorithms = {"DEFAULT", "THREE_FRY", "PHILOX"};
  VKHLO_ASSIGN_OR_RETURN(std::string algorithm, ctx.Enum("rng_algorithm", "rng_algorithm", kAlgorithms));
  const Type& state = ctx.operand(0);
  if (!IsTensorOf(state, kInt) || state.rank() != 1) {
    return ctx.Error("initial_state (I2) has an invalid type", "1-dimensional tensor of integer type", state.ToString());
  }
  if (ctx.result(0) != state) {
    return ctx.Error("output_state must have the type of initial_state (C1)", state.ToString(),
                     ctx.result(0).ToString());
  }
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(1, kInt | kFloat, "output"));
  // (C2) in 64-bit words: THREE_FRY 2, PHILOX 2 or 3.
  const int64_t bits = CheckedMul(state.dim(0), ir::BitWidth(state.element_type())).value_or(-1);
  if (algorithm == "THREE_FRY" && bits != 128) {
    return ctx.Error("initial_state of THREE_FRY must hold 2 64-bit words (C2)", "128 bits",
                     fmt::format("{} bits ({})", bits, state.ToString()));
  }
  if (algorithm == "PHILOX" && bits != 128 && bits != 192) {
    return ctx.Error("initial_state of PHILOX must hold 2 or 3 64-bit words (C2)", "128 or 192 bits",
                     fmt::format("{} bits ({})", bits, state.ToString()));
  }
  return OkStatus();
}

// ---- check.* and interpreter.* ----

Status VerifyExpectPair(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "actual"));
  if (ctx.operand(0) != ctx.operand(1)) {
    return ctx.Error("compares two values of one type", ctx.operand(0).ToString(), ctx.operand(1).ToString());
  }
  return OkStatus();
}

Status VerifyExpectConst(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "actual"));
  return CheckValueAttribute(ctx, "value", ctx.operand(0), "value must have the operand's type");
}

Status VerifyAlmostEq(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.Float("tolerance", 1e-4).status());
  return VerifyExpectPair(ctx);
}

Status VerifyAlmostEqConst(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.Float("tolerance", 1e-4).status());
  return VerifyExpectConst(ctx);
}

Status VerifyExpectClose(const OpContext& ctx) {
  VKHLO_ASSIGN_OR_RETURN(int64_t max_ulp, ctx.Int("max_ulp_difference", 1));
  VKHLO_ASSIGN_OR_RETURN(int64_t min_ulp, ctx.Int("min_ulp_difference", 0));
  if (min_ulp < 0 || min_ulp > max_ulp) {
    return ctx.Error("ulp bounds must satisfy 0 <= min_ulp_difference <= max_ulp_difference",
                     fmt::format("0 <= min <= {}", max_ulp), fmt::format("{}", min_ulp));
  }
  return VerifyExpectPair(ctx);
}

Status VerifySerializedEq(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.String("probe_id").status());
  VKHLO_RETURN_IF_ERROR(ctx.Int("iter", 0).status());
  return ctx.RequireTensor(0, kAny, "expected");
}

StatusOr<TypeList> InferProbe(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.String("probe_id").status());
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand"));
  return TypeList{ctx.operand(0)};
}

// run_parallel: programs is a grid of functions; operands and results are the concatenation of
// their inputs and results, in row-major order.
Status VerifyRunParallel(const OpContext& ctx) {
  const ir::Attribute* attr = ctx.Attr("programs");
  if (attr == nullptr) return ctx.MissingAttribute("programs", "a list of lists of @functions");
  const auto* rows = attr->as<ir::Attribute::Array>();
  if (rows == nullptr) return ctx.WrongAttributeKind("programs", "a list of lists of @functions", *attr);
  const ir::Module* module = ctx.op() != nullptr ? ModuleOf(*ctx.op()) : nullptr;
  std::vector<Type> inputs, results;
  for (const ir::Attribute& row : *rows) {
    const auto* programs = row.as<ir::Attribute::Array>();
    if (programs == nullptr) return ctx.WrongAttributeKind("programs", "a list of lists of @functions", *attr);
    for (const ir::Attribute& program : *programs) {
      const auto* symbol = program.as<ir::SymbolRef>();
      if (symbol == nullptr) return ctx.WrongAttributeKind("programs", "a list of lists of @functions", *attr);
      if (module == nullptr) continue;
      const ir::Function* function = module->FindFunction(symbol->name);
      if (function == nullptr) {
        return ctx.Error("programs must name functions of the module", fmt::format("a function named @{}", symbol->name),
                         "none");
      }
      inputs.insert(inputs.end(), function->type().inputs.begin(), function->type().inputs.end());
      results.insert(results.end(), function->type().results.begin(), function->type().results.end());
    }
  }
  if (module == nullptr) return OkStatus();
  if (const ir::Attribute* infeed = ctx.Attr("infeed")) {
    const auto* queues = infeed->as<ir::Attribute::Array>();
    if (queues == nullptr) return ctx.WrongAttributeKind("infeed", "a list of @functions", *infeed);
    for (const ir::Attribute& queue : *queues) {
      const auto* symbol = queue.as<ir::SymbolRef>();
      if (symbol == nullptr) return ctx.WrongAttributeKind("infeed", "a list of @functions", *infeed);
      if (module->FindFunction(symbol->name) == nullptr) {
        return ctx.Error("infeed must name functions of the module", fmt::format("a function named @{}", symbol->name),
                         "none");
      }
    }
  }
  if (!std::equal(inputs.begin(), inputs.end(), ctx.operands().begin(), ctx.operands().end())) {
    return ctx.Error("operand types must be the programs' inputs", TypeListToString(inputs),
                     TypeListToString(ctx.operands()));
  }
  if (!std::equal(results.begin(), results.end(), ctx.results().begin(), ctx.results().end())) {
    return ctx.Error("result types must be the programs' results", TypeListToString(results),
                     TypeListToString(ctx.results()));
  }
  return OkStatus();
}

constexpr OpRule kRules[] = {
    {OpCode::kAfterAll, InferAfterAll, nullptr, "result type must be !stablehlo.token"},
    {OpCode::kConstant, nullptr, VerifyConstant},
    {OpCode::kCreateToken, InferToken, nullptr, "result type must be !stablehlo.token"},
    {OpCode::kCustomCall, nullptr, VerifyCustomCall},
    {OpCode::kInfeed, nullptr, VerifyInfeed},
    {OpCode::kOutfeed, InferOutfeed, nullptr, "result type must be !stablehlo.token"},
    {OpCode::kRng, nullptr, VerifyRng},
    {OpCode::kRngBitGenerator, nullptr, VerifyRngBitGenerator},
    {OpCode::kCheckExpectEq, nullptr, VerifyExpectPair},
    {OpCode::kCheckExpectEqConst, nullptr, VerifyExpectConst},
    {OpCode::kCheckExpectAlmostEq, nullptr, VerifyAlmostEq},
    {OpCode::kCheckExpectAlmostEqConst, nullptr, VerifyAlmostEqConst},
    {OpCode::kCheckExpectClose, nullptr, VerifyExpectClose},
    {OpCode::kCheckExpectSerializedEq, nullptr, VerifySerializedEq},
    {OpCode::kInterpreterRunParallel, nullptr, VerifyRunParallel},
    {OpCode::kInterpreterProbe, InferProbe, nullptr, "result type must match the operand's"},
    {OpCode::kInterpreterPrint, nullptr, nullptr},
};

}  // namespace

std::span<const OpRule> OtherRules() { return kRules; }

}  // namespace vkhlo::verify
