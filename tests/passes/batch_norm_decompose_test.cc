// batch-norm-decompose against the interpreter's direct batch_norm_* implementation (the oracle,
// computed in double): random operands for each op, element type and feature_index, run before
// and after the pass (alone, and followed by the cleanup passes). The decomposition computes in
// the element type (f32 for narrower floats), so results agree to a tolerance of a few ulps of
// the compute type.
#include <gtest/gtest.h>

#include <random>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/printer.h"
#include "passes/pipeline.h"
#include "tests/passes/interp_compare.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using ir::ElementType;

struct Case {
  std::string op;  // inference, training, grad
  ElementType type;
  std::vector<int64_t> dims;
  int64_t feature_index;
};

std::string TensorType(ElementType type, const std::vector<int64_t>& dims) {
  return ir::Type::Tensor(type, dims).ToString();
}

// @main(operands...) -> results of the one batch_norm op.
std::string Program(const Case& c) {
  const std::string x = TensorType(c.type, c.dims);
  const std::string f = TensorType(c.type, {c.dims[static_cast<size_t>(c.feature_index)]});
  const std::string attributes =
      "{epsilon = 1.0e-3 : f32, feature_index = " + std::to_string(c.feature_index) + " : i64}";
  std::vector<std::string> inputs, results;
  if (c.op == "inference") {
    inputs = {x, f, f, f, f};
    results = {x};
  } else if (c.op == "training") {
    inputs = {x, f, f};
    results = {x, f, f};
  } else {
    inputs = {x, f, f, f, x};
    results = {x, f, f};
  }
  std::string params, args, input_list, result_list, names;
  for (size_t i = 0; i < inputs.size(); ++i) {
    params += (i ? ", " : "") + std::string("%a") + std::to_string(i) + ": " + inputs[i];
    args += (i ? ", " : "") + std::string("%a") + std::to_string(i);
    input_list += (i ? ", " : "") + inputs[i];
  }
  for (size_t i = 0; i < results.size(); ++i) {
    result_list += (i ? ", " : "") + results[i];
    names += (i ? ", " : "") + std::string("%r") + std::to_string(i);
  }
  return "func.func @main(" + params + ") -> (" + result_list + ") {\n  " + names +
         " = \"stablehlo.batch_norm_" + c.op + "\"(" + args + ") " + attributes + " : (" + input_list +
         ") -> (" + result_list + ")\n  return " + names + " : " + result_list + "\n}\n";
}

interp::InterpValues Arguments(const ir::Function& main, const Case& c, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> value(-2.0, 2.0), positive(0.05, 2.0);
  interp::InterpValues arguments;
  for (size_t a = 0; a < main.type().inputs.size(); ++a) {
    ir::Literal l = ir::Literal::Create(main.type().inputs[a]).value();
    // Operand 4 of inference and operand 3 of grad are variances: positive.
    const bool variance = (c.op == "inference" && a == 4) || (c.op == "grad" && a == 3);
    for (int64_t i = 0; i < l.num_elements(); ++i) l.SetFloat(i, variance ? positive(gen) : value(gen));
    arguments.push_back(interp::InterpValue::Tensor(std::move(l)));
  }
  return arguments;
}

double Tolerance(ElementType type) {
  switch (type) {
    case ElementType::kF64: return 1e-12;
    case ElementType::kF32: return 2e-5;
    case ElementType::kF16: return 4e-3;   // a couple of f16 ulps after rounding once
    default: return 3e-2;                  // bf16
  }
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const std::vector<std::pair<std::vector<int64_t>, int64_t>> shapes = {
      {{6}, 0}, {{4, 3}, 0}, {{4, 3}, 1}, {{2, 5, 3}, 1}, {{3, 2, 2, 4}, 3}, {{2, 3, 4}, 0}, {{0, 3}, 1}};
  for (const char* op : {"inference", "training", "grad"}) {
    for (ElementType type : {ElementType::kF32, ElementType::kF64, ElementType::kF16, ElementType::kBF16}) {
      for (const auto& [dims, feature] : shapes) cases.push_back({op, type, dims, feature});
    }
  }
  return cases;
}

class BatchNormDecompose : public ::testing::TestWithParam<Case> {};

TEST_P(BatchNormDecompose, MatchesTheInterpreter) {
  const Case& c = GetParam();
  const std::string text = Program(c);
  SCOPED_TRACE(text);
  auto original = frontend::ParseModule(text);
  ASSERT_TRUE(original.ok()) << original.status().message();
  ASSERT_TRUE(verify::VerifyModule(**original).ok()) << verify::VerifyModule(**original).message();
  for (const char* spec : {"batch-norm-decompose", "batch-norm-decompose,canonicalize,cse,dce"}) {
    auto decomposed = frontend::ParseModule(text);
    ASSERT_TRUE(decomposed.ok());
    auto pipeline = passes::PassPipeline::Parse(spec);
    ASSERT_TRUE(pipeline.ok());
    auto ran = pipeline->Run(**decomposed);
    ASSERT_TRUE(ran.ok()) << ran.status().message();
    const std::string printed = ir::PrintModule(**decomposed);
    EXPECT_EQ(printed.find("batch_norm"), std::string::npos) << printed;
    for (uint32_t seed = 1; seed <= 3; ++seed) {
      const interp::InterpValues arguments = Arguments(*(*original)->FindFunction("main"), c, seed);
      auto expected = interp::RunFunction(**original, "main", arguments);
      ASSERT_TRUE(expected.ok()) << expected.status().message();
      auto actual = interp::RunFunction(**decomposed, "main", arguments);
      ASSERT_TRUE(actual.ok()) << actual.status().message();
      EXPECT_EQ(testing::CompareClose(expected->outputs, actual->outputs, Tolerance(c.type)), "")
          << spec << ", seed " << seed;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, BatchNormDecompose, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string name =
                               info.param.op + "_" + std::string(ir::ElementTypeName(info.param.type));
                           for (int64_t d : info.param.dims) name += "_" + std::to_string(d);
                           name += "_f" + std::to_string(info.param.feature_index);
                           return name;
                         });

}  // namespace
}  // namespace vkhlo
