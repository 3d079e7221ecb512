// Dynamic types in the IR, the text parser and printer, the bytecode reader and the verifier:
// `?` sizes, bounds (#stablehlo.bounds), the `index` element type; constraints checked where
// sizes are known and deferred where they are not; which parameters decide shapes.
#include <gtest/gtest.h>

#include <filesystem>

#include "frontend/bytecode/program.h"
#include "frontend/parser.h"
#include "ir/printer.h"
#include "passes/shapes/refine.h"
#include "tests/support/test_files.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

Status Check(std::string_view text) {
  VKHLO_ASSIGN_OR_RETURN(auto module, frontend::ParseModule(text, {"t.mlir", 1}));
  return verify::VerifyModule(*module);
}

TEST(DynamicTypes, ParseAndPrint) {
  for (const char* spelling : {"tensor<?x4xf32>", "tensor<?x?xi8>", "tensor<2x?xf32, #stablehlo.bounds<?, 16>>",
                               "tensor<?xf32, #stablehlo.bounds<8>>", "tensor<2xindex>", "tensor<index>",
                               "tensor<?xindex>"}) {
    auto type = frontend::ParseType(spelling);
    ASSERT_TRUE(type.ok()) << spelling << ": " << type.status().message();
    EXPECT_EQ(type->ToString(), spelling);
  }
  auto t = frontend::ParseType("tensor<?x4xf32, #stablehlo.bounds<8, ?>>");
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t->is_static());
  EXPECT_TRUE(t->is_dynamic_dim(0));
  EXPECT_EQ(t->dim(1), 4);
  EXPECT_EQ(t->bounds(), (std::vector<int64_t>{8, ir::kDynamic}));
  EXPECT_NE(*t, *frontend::ParseType("tensor<?x4xf32>"));  // bounds are part of the type
  auto index = frontend::ParseType("tensor<3xindex>");
  ASSERT_TRUE(index.ok());
  EXPECT_TRUE(index->is_index());
  EXPECT_EQ(index->element_type(), ir::ElementType::kS64);
  EXPECT_NE(*index, *frontend::ParseType("tensor<3xi64>"));
}

TEST(DynamicTypes, MalformedOnesAreLocatedErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"tensor<?4xf32>", "expected 'x' after a dimension size"},
      {"tensor<*xf32>", "unranked tensors"},
      {"tensor<4x?xf32, #stablehlo.bounds<8, ?>>", "dimension 0 is static (4): only dynamic dimensions have bounds"},
      {"tensor<?xf32, #stablehlo.bounds<8, 2>>", "more entries than the tensor's rank 1"},
      {"tensor<?x?xf32, #stablehlo.bounds<8>>", "one entry per dimension: expected 2, found 1"},
      {"tensor<?xf32, #stablehlo.bounds<-1>>", "must be non-negative"},
      {"tensor<?xf32, #foo.bar<1>>", "tensor encodings other than #stablehlo.bounds are not supported"},
  };
  for (const auto& [text, message] : cases) {
    auto type = frontend::ParseType(text);
    ASSERT_FALSE(type.ok()) << text;
    EXPECT_NE(type.status().message().find(message), std::string::npos) << text << ": " << type.status().message();
  }
  // Constants are values: their shapes are static.
  Status dense = Check("func.func @main() -> tensor<?xf32> {\n"
                       "  %c = stablehlo.constant dense<[1.0]> : tensor<?xf32>\n  return %c : tensor<?xf32>\n}");
  ASSERT_FALSE(dense.ok());
  EXPECT_NE(dense.message().find("a dense literal needs a static shape"), std::string::npos) << dense.message();
}

TEST(DynamicTypes, RoundTripThroughThePrinter) {
  const char* text =
      "func.func @main(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %s: tensor<2xindex>) -> tensor<?x?xf32> {\n"
      "  %b = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 1] : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, "
      "tensor<2xindex>) -> tensor<?x?xf32>\n"
      "  return %b : tensor<?x?xf32>\n}\n";
  auto module = frontend::ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status().message();
  ASSERT_TRUE(verify::VerifyModule(**module).ok());
  const std::string printed = ir::PrintModule(**module);
  EXPECT_NE(printed.find("tensor<?x4xf32, #stablehlo.bounds<8, ?>>"), std::string::npos) << printed;
  EXPECT_NE(printed.find("tensor<2xindex>"), std::string::npos) << printed;
  auto again = frontend::ParseModule(printed);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(ir::PrintModule(**again), printed);
}

TEST(DynamicTypes, VerifierDefersWhatDependsOnUnknownSizes) {
  // ? against 3: compatible (checked once refined); 2 against 3: an error.
  EXPECT_TRUE(Check("func.func @main(%a: tensor<?x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {\n"
                    "  %s = stablehlo.add %a, %b : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>\n"
                    "  return %s : tensor<3x4xf32>\n}")
                  .ok());
  Status mismatch = Check("func.func @main(%a: tensor<2x4xf32>, %b: tensor<3x?xf32>) -> tensor<3x4xf32> {\n"
                          "  %s = stablehlo.add %a, %b : (tensor<2x4xf32>, tensor<3x?xf32>) -> tensor<3x4xf32>\n"
                          "  return %s : tensor<3x4xf32>\n}");
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.message().find("t.mlir:2:3: error: 'stablehlo.add' operand types must match (C1)"),
            std::string::npos)
      << mismatch.message();
  // dot_general: a dynamic contracting size defers; static ones that differ do not.
  EXPECT_TRUE(Check("func.func @main(%a: tensor<?x?xf32>, %b: tensor<8x4xf32>) -> tensor<?x4xf32> {\n"
                    "  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x?xf32>, "
                    "tensor<8x4xf32>) -> tensor<?x4xf32>\n  return %d : tensor<?x4xf32>\n}")
                  .ok());
  Status contracting = Check("func.func @main(%a: tensor<?x7xf32>, %b: tensor<8x4xf32>) -> tensor<?x4xf32> {\n"
                             "  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x7xf32>, "
                             "tensor<8x4xf32>) -> tensor<?x4xf32>\n  return %d : tensor<?x4xf32>\n}");
  ASSERT_FALSE(contracting.ok());
  EXPECT_NE(contracting.message().find("contracting dimension 0 of lhs and rhs must have the same size (C11): "
                                       "expected 7, found 8"),
            std::string::npos)
      << contracting.message();
  // A constant shape operand is checked against the result where the result is static.
  Status shape = Check("func.func @main(%x: tensor<?xf32>) -> tensor<?x3xf32> {\n"
                       "  %s = stablehlo.constant dense<[2, 4]> : tensor<2xi64>\n"
                       "  %b = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0] : (tensor<?xf32>, tensor<2xi64>) "
                       "-> tensor<?x3xf32>\n  return %b : tensor<?x3xf32>\n}");
  ASSERT_FALSE(shape.ok());
  EXPECT_NE(shape.message().find("output_dimensions must match the result shape: expected [?, 3], found [2, 4]"),
            std::string::npos)
      << shape.message();
  // Reshape of a dynamic operand: element counts compared once refined.
  EXPECT_TRUE(Check("func.func @main(%x: tensor<?x4xf32>) -> tensor<8xf32> {\n"
                    "  %r = stablehlo.reshape %x : (tensor<?x4xf32>) -> tensor<8xf32>\n  return %r : tensor<8xf32>\n}")
                  .ok());
  // A call may pass static types to a polymorphic function; incompatible ones are refused.
  Status call = Check("func.func @main(%x: tensor<3xf32>) -> tensor<?xf32> {\n"
                      "  %r = func.call @f(%x) : (tensor<3xf32>) -> tensor<?xf32>\n  return %r : tensor<?xf32>\n}\n"
                      "func.func private @f(%x: tensor<?x2xf32>) -> tensor<?xf32> {\n"
                      "  %c = stablehlo.constant dense<[1.0]> : tensor<1xf32>\n"
                      "  %r = stablehlo.convert %c : (tensor<1xf32>) -> tensor<?xf32>\n  return %r : tensor<?xf32>\n}");
  ASSERT_FALSE(call.ok());
  EXPECT_NE(call.message().find("operand types must match the inputs of callee @f"), std::string::npos)
      << call.message();
}

TEST(DynamicTypes, ShapeArgumentsFoundByDataFlow) {
  // %n reaches a shape operand through arithmetic and a call; %m is only data; %k feeds a shape
  // assertion. Names play no part.
  const char* text =
      "func.func @main(%x: tensor<?xf32>, %n: tensor<i64>, %m: tensor<i64>, %k: tensor<i32>) -> tensor<?xf32> {\n"
      "  %one = stablehlo.constant dense<1> : tensor<i64>\n"
      "  %n2 = stablehlo.add %n, %one : tensor<i64>\n"
      "  %r = func.call @f(%x, %n2) : (tensor<?xf32>, tensor<i64>) -> tensor<?xf32>\n"
      "  %t = stablehlo.constant dense<true> : tensor<i1>\n"
      "  stablehlo.custom_call @shape_assertion(%t, %k) {error_message = \"k = {0}\", has_side_effect = true} : "
      "(tensor<i1>, tensor<i32>) -> ()\n"
      "  %mf = stablehlo.convert %m : (tensor<i64>) -> tensor<f32>\n"
      "  %mb = stablehlo.broadcast_in_dim %mf, dims = [] : (tensor<f32>) -> tensor<1xf32>\n"
      "  return %r : tensor<?xf32>\n}\n"
      "func.func private @f(%x: tensor<?xf32>, %len: tensor<i64>) -> tensor<?xf32> {\n"
      "  %l1 = stablehlo.reshape %len : (tensor<i64>) -> tensor<1xi64>\n"
      "  %i = stablehlo.dynamic_iota %l1, dim = 0 : (tensor<1xi64>) -> tensor<?xf32>\n"
      "  return %i : tensor<?xf32>\n}\n";
  auto module = frontend::ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status().message();
  ASSERT_TRUE(verify::VerifyModule(**module).ok());
  auto arguments = passes::shapes::ShapeArguments(**module, "main");
  ASSERT_TRUE(arguments.ok());
  EXPECT_EQ(*arguments, (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(passes::shapes::IsPolymorphic(**module));

  // Without the values refinement cannot fold the shapes and says which argument it needs.
  passes::shapes::RefinementInputs inputs;
  for (const char* t : {"tensor<4xf32>", "tensor<i64>", "tensor<i64>", "tensor<i32>"}) {
    inputs.argument_types.push_back(*frontend::ParseType(t));
  }
  auto missing = passes::shapes::Specialize(**module, "main", inputs);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("argument 1 of @main (tensor<i64>) decides shapes"), std::string::npos)
      << missing.status().message();
  inputs.argument_values = {{1, 2}, {3, 7}, {2, 5}};
  auto extra = passes::shapes::Specialize(**module, "main", inputs);
  ASSERT_FALSE(extra.ok());
  EXPECT_NE(extra.status().message().find("argument 2 of @main is given a value (5), but it does not decide shapes"),
            std::string::npos)
      << extra.status().message();
  inputs.argument_values = {{1, 2}, {3, 7}};
  auto refined = passes::shapes::Specialize(**module, "main", inputs);
  ASSERT_TRUE(refined.ok()) << refined.status().message();
  EXPECT_FALSE(passes::shapes::IsPolymorphic(**refined));
  EXPECT_NE(ir::PrintModule(**refined).find("func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<i64>, "
                                            "%arg2: tensor<i64>, %arg3: tensor<i32>) -> tensor<3xf32>"),
            std::string::npos)
      << ir::PrintModule(**refined);
}

TEST(DynamicTypes, BoundsAndIndexFromBytecode) {
  // VHLO's ranked tensor with an encoding (#vhlo.type_extensions) and an index tensor, written
  // by JAX's tooling: the same module as the text's.
  const std::string text = testing::ReadFile(fs::path(VKHLO_SHAPES_MODELS_DIR) / "bounded_index.mlir");
  const std::string bytes = testing::ReadFile(fs::path(VKHLO_SHAPES_MODELS_DIR) / "bounded_index.mlirbc");
  auto from_text = frontend::ParseProgram(text);
  auto from_bytes = frontend::ParseProgram(bytes);
  ASSERT_TRUE(from_text.ok()) << from_text.status().message();
  ASSERT_TRUE(from_bytes.ok()) << from_bytes.status().message();
  ASSERT_TRUE(verify::VerifyModule(**from_bytes).ok());
  EXPECT_EQ(ir::PrintModule(**from_bytes), ir::PrintModule(**from_text));
  EXPECT_NE(ir::PrintModule(**from_bytes).find("%arg0: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %arg1: tensor<2xindex>"),
            std::string::npos);
}

TEST(DynamicTypes, JaxPolymorphicArtifactsRead) {
  // jax.export with symbolic dimensions: `?` sizes, dimension arguments of the wrapped function,
  // shape assertions. The bytecode reader gives the same IR as the text parser would.
  for (const char* model : {"mlp", "transformer", "sequence", "trim_stride"}) {
    const std::string bytes = testing::ReadFile(fs::path(VKHLO_SHAPES_MODELS_DIR) / (std::string(model) + ".poly.mlirbc"));
    ASSERT_FALSE(bytes.empty()) << model;
    auto module = frontend::ParseProgram(bytes, {std::string(model) + ".poly.mlirbc", 1});
    ASSERT_TRUE(module.ok()) << model << ": " << module.status().message();
    ASSERT_TRUE(verify::VerifyModule(**module).ok()) << model;
    EXPECT_TRUE(passes::shapes::IsPolymorphic(**module)) << model;
    auto arguments = passes::shapes::ShapeArguments(**module, "main");
    ASSERT_TRUE(arguments.ok());
    EXPECT_TRUE(arguments->empty()) << model << ": JAX computes its dimensions from the argument shapes";
    const std::string printed = ir::PrintModule(**module);
    EXPECT_NE(printed.find("?x"), std::string::npos) << model;
    EXPECT_NE(printed.find("shape_assertion"), std::string::npos) << model;
    auto text = frontend::ParseModule(printed);
    ASSERT_TRUE(text.ok()) << text.status().message();
    EXPECT_EQ(ir::PrintModule(**text), printed) << model;
  }
}

}  // namespace
}  // namespace vkhlo
