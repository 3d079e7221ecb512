#include "builder_harness.h"

#include <cmath>

#include "builder/builder_state.h"
#include "builder/literal_conversion.h"
#include "builder/type_conversion.h"
#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/printer.h"
#include "passes/pass_registry.h"
#include "verify/verifier.h"

namespace vkhlo::testing {
namespace {

StatusOr<std::unique_ptr<ir::Module>> ParseAndVerify(const std::string& text) {
  frontend::ParseOptions options;
  options.source_name = "built.mlir";
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseModule(text, options));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  return module;
}

StatusOr<interp::InterpValue> ToValue(const Literal& literal) {
  if (literal.shape().IsToken()) return interp::InterpValue::Token();
  if (literal.shape().IsTuple()) {
    std::vector<interp::InterpValue> elements;
    for (const Literal& element : literal.tuple_elements()) {
      VKHLO_ASSIGN_OR_RETURN(interp::InterpValue value, ToValue(element));
      elements.push_back(std::move(value));
    }
    return interp::InterpValue::Tuple(std::move(elements));
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Literal value, internal::ToIrLiteral(literal));
  return interp::InterpValue::Tensor(std::move(value));
}

StatusOr<Literal> FromValue(const interp::InterpValue& value) {
  if (value.is_token()) return LiteralUtil::CreateToken();
  if (value.is_tuple()) {
    std::vector<Literal> elements;
    for (const interp::InterpValue& element : value.tuple()) {
      VKHLO_ASSIGN_OR_RETURN(Literal literal, FromValue(element));
      elements.push_back(std::move(literal));
    }
    return LiteralUtil::MakeTupleOwned(std::move(elements));
  }
  return internal::FromIrLiteral(value.literal());
}

}  // namespace

XlaComputation BuildOrDie(XlaBuilder& builder) {
  StatusOr<XlaComputation> computation = builder.Build();
  EXPECT_TRUE(computation.ok()) << computation.status().ToString();
  return computation.ok() ? *computation : XlaComputation();
}

XlaComputation BuildOrDie(XlaBuilder& builder, XlaOp root) {
  StatusOr<XlaComputation> computation = builder.Build(root);
  EXPECT_TRUE(computation.ok()) << computation.status().ToString();
  return computation.ok() ? *computation : XlaComputation();
}

StatusOr<std::string> RoundTripText(const XlaComputation& computation) {
  if (computation.IsNull()) return InvalidArgumentError("null computation");
  const std::string text = computation.ToStableHlo();
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, ParseAndVerify(text));
  const std::string again = ir::PrintModule(*module);
  if (again != text) return InternalError("the printed program does not print back the same:\n" + text + "\n---\n" + again);
  return text;
}

StatusOr<Literal> Execute(const XlaComputation& computation, const std::vector<const Literal*>& arguments,
                          interp::HostQueues* queues) {
  VKHLO_ASSIGN_OR_RETURN(std::string text, RoundTripText(computation));
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, ParseAndVerify(text));
  // The interpreter runs StableHLO only: chlo ops the builder emits (Erf, ...) are decomposed
  // first, as on every execution path.
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<passes::Pass> decompose, passes::CreatePass("chlo-decompose"));
  VKHLO_RETURN_IF_ERROR(decompose->Run(*module).status());
  interp::InterpValues values;
  for (const Literal* argument : arguments) {
    VKHLO_ASSIGN_OR_RETURN(interp::InterpValue value, ToValue(*argument));
    values.push_back(std::move(value));
  }
  VKHLO_ASSIGN_OR_RETURN(interp::RunResult result, interp::RunFunction(*module, "main", std::move(values), interp::RunOptions{queues}));
  VKHLO_ASSIGN_OR_RETURN(ProgramShape shape, computation.GetProgramShape());
  if (shape.result().IsTuple()) {
    std::vector<Literal> elements;
    for (const interp::InterpValue& output : result.outputs) {
      VKHLO_ASSIGN_OR_RETURN(Literal literal, FromValue(output));
      elements.push_back(std::move(literal));
    }
    return LiteralUtil::MakeTupleOwned(std::move(elements));
  }
  if (result.outputs.size() != 1) return InternalError("expected one output");
  return FromValue(result.outputs[0]);
}

StatusOr<Literal> BuildAndExecute(XlaBuilder& builder, const std::vector<const Literal*>& arguments) {
  VKHLO_ASSIGN_OR_RETURN(XlaComputation computation, builder.Build());
  return Execute(computation, arguments);
}

Literal Evaluate(XlaBuilder& builder, const std::vector<const Literal*>& arguments) {
  StatusOr<Literal> result = BuildAndExecute(builder, arguments);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? std::move(result).value() : Literal();
}

int CountOps(const XlaComputation& computation, const std::string& op_name) {
  const std::string text = computation.ToStableHlo();
  const std::string needle = "\"" + op_name + "\"";
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

::testing::AssertionResult LiteralsNear(const Literal& expected, const Literal& actual, double tolerance) {
  if (!ShapeUtil::Compatible(expected.shape(), actual.shape())) {
    return ::testing::AssertionFailure() << "shapes differ: expected " << expected.shape().ToString() << ", got "
                                         << actual.shape().ToString() << "\n"
                                         << actual.ToString();
  }
  if (expected.shape().IsTuple()) {
    for (size_t i = 0; i < expected.tuple_elements().size(); ++i) {
      auto element = LiteralsNear(expected.tuple_elements()[i], actual.tuple_elements()[i], tolerance);
      if (!element) return element << " (tuple element " << i << ")";
    }
    return ::testing::AssertionSuccess();
  }
  if (tolerance == 0.0 || !primitive_util::IsFloatingPointType(expected.shape().element_type())) {
    if (expected == actual) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected\n" << expected.ToString() << "\ngot\n" << actual.ToString();
  }
  auto e = internal::ToIrLiteral(expected);
  auto a = internal::ToIrLiteral(actual);
  for (int64_t i = 0; i < expected.element_count(); ++i) {
    const double x = e->GetFloat(i), y = a->GetFloat(i);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (std::abs(x - y) > tolerance * std::max(1.0, std::abs(x))) {
      return ::testing::AssertionFailure() << "element " << i << ": expected " << x << ", got " << y << "\nexpected\n"
                                           << expected.ToString() << "\ngot\n"
                                           << actual.ToString();
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace vkhlo::testing
