#include "builder_harness.h"

#include <cmath>
#include <deque>

#include "builder/builder_state.h"
#include "builder/literal_conversion.h"
#include "builder/type_conversion.h"
#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/printer.h"
#include "passes/pass_registry.h"
#include "runtime/runtime_internal.h"
#include "tests/support/runtime_test_util.h"
#include "verify/verifier.h"
#include "vkhlo/process_grid.h"

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

bool AnyTupleOrToken(const std::vector<const Literal*>& arguments) {
  for (const Literal* argument : arguments) {
    if (!argument->shape().IsArray()) return true;
  }
  return false;
}

::testing::AssertionResult SameOnDevice(const Literal& expected, const Literal& actual, bool values_defined) {
  if (!ShapeUtil::Compatible(expected.shape(), actual.shape())) {
    return ::testing::AssertionFailure() << "shapes differ: interpreter " << expected.shape().ToString()
                                         << ", device " << actual.shape().ToString();
  }
  if (expected.shape().IsTuple()) {
    for (size_t i = 0; i < expected.tuple_elements().size(); ++i) {
      auto element = SameOnDevice(expected.tuple_elements()[i], actual.tuple_elements()[i], values_defined);
      if (!element) return element << " (tuple element " << i << ")";
    }
    return ::testing::AssertionSuccess();
  }
  if (!expected.shape().IsArray() || !values_defined) return ::testing::AssertionSuccess();
  auto e = internal::ToIrLiteral(expected);
  auto a = internal::ToIrLiteral(actual);
  if (!e.ok() || !a.ok()) return ::testing::AssertionFailure() << "not comparable: " << expected.shape().ToString();
  std::string why;
  // Transcendentals: the device's and the host's libm are each within an ULP or so of exact.
  if (SameBits(*e, *a, &why, /*max_ulp=*/2)) return ::testing::AssertionSuccess();
  // Reductions, dots, FFTs and the batch norms built on them sum in another order on the
  // device (and may give -0 for +0): floats agree to a tolerance of the type's precision.
  const PrimitiveType type = expected.shape().element_type();
  const bool complex = primitive_util::IsComplexType(type);
  if (primitive_util::IsFloatingPointType(type) || complex) {
    const int bits = complex ? primitive_util::BitWidth(type) / 2 : primitive_util::BitWidth(type);
    const double tolerance = bits >= 64 ? 1e-12 : bits >= 32 ? 1e-5 : bits >= 16 ? 1e-2 : 1e-1;
    auto near = [&](double x, double y) {
      return (std::isnan(x) && std::isnan(y)) || x == y || std::abs(x - y) <= tolerance * std::max(1.0, std::abs(x));
    };
    bool all_near = true;
    for (int64_t i = 0; i < expected.element_count() && all_near; ++i) {
      if (complex) {
        const std::complex<double> x = e->GetComplex(i), y = a->GetComplex(i);
        all_near = near(x.real(), y.real()) && near(x.imag(), y.imag());
      } else {
        all_near = near(e->GetFloat(i), a->GetFloat(i));
      }
    }
    if (all_near) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << why << "\ninterpreter\n" << expected.ToString() << "\ndevice\n" << actual.ToString();
}

// Runs `computation` on the Vulkan device (lavapipe in CI) through the embedding API and
// compares with the interpreter's `expected`; a test failure when they differ or when the
// device fails.
void CheckOnDevice(const XlaComputation& computation, const std::vector<const Literal*>& arguments,
                   const Literal& expected) {
  if (AnyTupleOrToken(arguments)) {
    std::printf("[interpreter only] %s: tuple or token arguments are not device buffers\n", computation.name().c_str());
    return;
  }
  StatusOr<Literal> actual = SharedClient().ExecuteAndTransfer(computation, arguments);
  if (!actual.ok()) {
    // Every op the builder makes runs on the device, so any failure there is a test failure.
    ADD_FAILURE() << "on the device: " << actual.status().ToString() << "\n" << computation.ToStableHlo();
    return;
  }
  // stablehlo.rng's values are implementation-defined: only its shape must agree.
  const bool values_defined = CountOps(computation, "stablehlo.rng") == 0;
  EXPECT_TRUE(SameOnDevice(expected, *actual, values_defined)) << computation.ToStableHlo();
}

// A feed entry (the values of one infeed or outfeed) as one literal: a tuple for several.
StatusOr<Literal> EntryLiteral(const interp::InterpValues& entry) {
  if (entry.size() == 1) return FromValue(entry[0]);
  std::vector<Literal> elements;
  for (const interp::InterpValue& value : entry) {
    VKHLO_ASSIGN_OR_RETURN(Literal literal, FromValue(value));
    elements.push_back(std::move(literal));
  }
  return LiteralUtil::MakeTupleOwned(std::move(elements));
}

// CheckOnDevice for a computation with infeed/outfeed: the entries the interpreter read go to
// the client's infeed first (Client::TransferToInfeed), and what the device's outfeeds give must
// equal the interpreter's outfeed, entry by entry (Client::TransferFromOutfeed).
void CheckFeedsOnDevice(const XlaComputation& computation, const std::vector<const Literal*>& arguments,
                        const Literal& expected, const std::deque<interp::InterpValues>& infeed,
                        const std::vector<interp::InterpValues>& outfeed) {
  const Client& client = SharedClient();
  auto drain = [&] {
    while (client.infeed().Pop()) {
    }
    while (client.outfeed().Pop()) {
    }
  };
  drain();
  for (const interp::InterpValues& entry : infeed) {
    StatusOr<Literal> literal = EntryLiteral(entry);
    ASSERT_TRUE(literal.ok()) << literal.status().ToString();
    ASSERT_TRUE(client.TransferToInfeed(*literal).ok());
  }
  const size_t outfeeds_before = client.outfeed().size();
  CheckOnDevice(computation, arguments, expected);
  if (client.outfeed().size() != outfeeds_before) {  // it ran on the device
    EXPECT_EQ(client.infeed().size(), 0u) << "the device read another number of infeed entries";
    EXPECT_EQ(client.outfeed().size(), outfeed.size()) << "the device wrote another number of outfeed entries";
    for (const interp::InterpValues& entry : outfeed) {
      StatusOr<Literal> want = EntryLiteral(entry);
      ASSERT_TRUE(want.ok()) << want.status().ToString();
      StatusOr<Literal> got = client.TransferFromOutfeed(want->shape());
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      EXPECT_TRUE(SameOnDevice(*want, *got, true)) << "outfeed entry";
    }
  }
  drain();
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
  std::deque<interp::InterpValues> infeed;  // what the interpreter will read, for the device
  if (queues != nullptr) infeed = queues->infeed;
  VKHLO_ASSIGN_OR_RETURN(interp::RunResult result, interp::RunFunction(*module, "main", std::move(values), interp::RunOptions{queues}));
  VKHLO_ASSIGN_OR_RETURN(ProgramShape shape, computation.GetProgramShape());
  Literal literal;
  if (shape.result().IsTuple()) {
    std::vector<Literal> elements;
    for (const interp::InterpValue& output : result.outputs) {
      VKHLO_ASSIGN_OR_RETURN(Literal element, FromValue(output));
      elements.push_back(std::move(element));
    }
    literal = LiteralUtil::MakeTupleOwned(std::move(elements));
  } else {
    if (result.outputs.size() != 1) return InternalError("expected one output");
    VKHLO_ASSIGN_OR_RETURN(literal, FromValue(result.outputs[0]));
  }
  if (queues == nullptr) {
    CheckOnDevice(computation, arguments, literal);
  } else {
    CheckFeedsOnDevice(computation, arguments, literal, infeed, queues->outfeed);
  }
  return literal;
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
