// Module structure: modules and bare functions, func.func signatures with attributes, SSA
// names and scoping, multi-result values, source locations (kept as op positions, `loc(...)`
// dropped), and --split-input-file chunks.
#include <gtest/gtest.h>

#include <string>

#include "frontend/parser.h"

namespace vkhlo::frontend {
namespace {

using ir::Attribute;
using ir::ElementType;
using ir::Type;

std::unique_ptr<ir::Module> Parse(std::string_view text, const ParseOptions& options = {}) {
  auto module = ParseModule(text, options);
  EXPECT_TRUE(module.ok()) << module.status().message();
  return module.ok() ? std::move(module).value() : std::make_unique<ir::Module>();
}

const ir::Operation& OpAt(const ir::Function& f, size_t i) { return *f.body().front().operations()[i]; }

TEST(FrontendModule, JaxStyleModule) {
  auto module = Parse(R"mlir(
#loc1 = loc("x.py":3:4)
module @jit_main attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32> {mhlo.layout_mode = "default"}) -> (tensor<2xf32> {jax.result_info = "", mhlo.layout_mode = "default"}, tensor<i32>) {
    %0:2 = call @inputs() : () -> (tensor<2xf32>, tensor<i32>)
    %1 = stablehlo.add %0#0, %arg0 : tensor<2xf32> loc(#loc1)
    stablehlo.custom_call @check.expect_close(%1, %0#0) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    return %1, %0#1 : tensor<2xf32>, tensor<i32>
  }
  func.func private @inputs() -> (tensor<2xf32> {mhlo.layout_mode = "default"}, tensor<i32>) {
    %cst = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
    %c = stablehlo.constant dense<7> : tensor<i32>
    return %cst, %c : tensor<2xf32>, tensor<i32>
  }
} loc(#loc)
#loc = loc(unknown)
)mlir");
  EXPECT_EQ(module->name(), "jit_main");
  ASSERT_EQ(module->attributes().size(), 2u);
  EXPECT_EQ(module->attributes()[0].first, "mhlo.num_partitions");
  EXPECT_EQ(module->attributes()[0].second, Attribute::Int(1, ElementType::kS32));
  ASSERT_EQ(module->functions().size(), 2u);
  const ir::Function& main = *module->functions()[0];
  EXPECT_EQ(main.visibility(), "public");
  EXPECT_TRUE(main.is_public());
  EXPECT_EQ(main.type().ToString(), "(tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)");
  ASSERT_EQ(main.arg_attributes().size(), 1u);
  EXPECT_EQ(main.arg_attributes()[0][0].first, "mhlo.layout_mode");
  ASSERT_EQ(main.result_attributes().size(), 2u);
  EXPECT_EQ(main.result_attributes()[0].size(), 2u);
  EXPECT_TRUE(main.result_attributes()[1].empty());
  EXPECT_EQ(main.body().front().argument(0)->name_hint(), "arg0");

  const ir::Operation& call = OpAt(main, 0);
  EXPECT_EQ(call.code(), ir::OpCode::kCall);
  EXPECT_EQ(*call.attribute("callee"), Attribute::Symbol("inputs"));
  EXPECT_EQ(call.result(1)->name_hint(), "0#1");
  const ir::Operation& add = OpAt(main, 1);
  EXPECT_EQ(add.operand(0), call.result(0));
  EXPECT_EQ(add.location().line, 6u);
  EXPECT_EQ(add.location().column, 5u);
  const ir::Operation& check = OpAt(main, 2);
  EXPECT_EQ(check.code(), ir::OpCode::kCustomCall);
  EXPECT_EQ(*check.attribute("call_target_name"), Attribute::String("check.expect_close"));
  EXPECT_EQ(check.num_results(), 0u);
  const ir::Operation& ret = OpAt(main, 3);
  EXPECT_EQ(ret.code(), ir::OpCode::kFuncReturn);
  EXPECT_EQ(ret.operand(1), call.result(1));
  EXPECT_EQ(module->functions()[1]->visibility(), "private");
}

TEST(FrontendModule, BareFunctionsAndDeclarations) {
  auto module = Parse(
      "func.func private @decl(tensor<f32>, tensor<i1> {a.b}) -> tensor<f32>\n"
      "func.func @f() {\n  func.return\n}\n");
  EXPECT_EQ(module->name(), "");
  ASSERT_EQ(module->functions().size(), 2u);
  EXPECT_TRUE(module->functions()[0]->body().empty());
  EXPECT_EQ(module->functions()[0]->arg_attributes()[1][0].first, "a.b");
  EXPECT_EQ(module->functions()[1]->visibility(), "");
  EXPECT_TRUE(Parse("")->functions().empty());
  EXPECT_TRUE(Parse("// only a comment\n")->functions().empty());
  EXPECT_TRUE(Parse("module {\n}")->functions().empty());
}

TEST(FrontendModule, LocationsAreDroppedEverywhere) {
  auto module = Parse(R"mlir(
#loc = loc("a.py":1:1)
#loc3 = loc(callsite(#loc at fused[#loc, "b"(#loc)]))
module @m {
  func.func @f(%a: tensor<f32> loc("x":1:1), %b: tensor<f32> {x.y = 1 : i64} loc(#loc3)) -> tensor<f32> {
    %0 = "stablehlo.reduce"(%a, %b) ({
    ^bb0(%x: tensor<f32> loc(unknown), %y: tensor<f32> loc("q"("r":2:3))):
      %1 = stablehlo.add %x, %y : tensor<f32> loc(fused<"x">["y":1:2, #loc])
      stablehlo.return %1 : tensor<f32> loc(#loc)
    }) {dimensions = array<i64>} : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#loc)
    return %0 : tensor<f32> loc(#loc)
  } loc(#loc)
} loc(#loc)
)mlir");
  ASSERT_EQ(module->functions().size(), 1u);
  EXPECT_EQ(module->functions()[0]->body().front().operations().size(), 2u);
}

TEST(FrontendModule, ScopesFollowRegions) {
  // Regions see enclosing values; their own names end with them; functions start afresh.
  auto module = Parse(R"mlir(
func.func @f(%a: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    %1 = stablehlo.add %a, %a : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }, {
    %1 = stablehlo.abs %a : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  %1 = stablehlo.negate %0 : tensor<f32>
  return %1 : tensor<f32>
}
func.func @g(%a: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.abs %a : tensor<f32>
  return %0 : tensor<f32>
}
)mlir");
  const ir::Function& f = *module->functions()[0];
  const ir::Operation& if_op = OpAt(f, 0);
  ASSERT_EQ(if_op.num_regions(), 2u);
  const ir::Operation& inner = *if_op.region(0).front().operations()[0];
  EXPECT_EQ(inner.operand(0), f.body().front().argument(0));
  EXPECT_EQ(OpAt(f, 1).operand(0), if_op.result(0));
}

TEST(FrontendModule, GenericFormMergesPropertiesAndSortsAttributes) {
  auto module = Parse(R"mlir(
func.func @f(%a: tensor<3xi64>, %i: tensor<1x1xi32>) -> tensor<1xi64> {
  %0 = "stablehlo.gather"(%a, %i) <{slice_sizes = array<i64: 1>, dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> {indices_are_sorted = false} : (tensor<3xi64>, tensor<1x1xi32>) -> tensor<1xi64>
  return %0 : tensor<1xi64>
}
)mlir");
  const ir::Operation& gather = OpAt(*module->functions()[0], 0);
  ASSERT_EQ(gather.attributes().size(), 3u);
  EXPECT_EQ(gather.attributes()[0].first, "dimension_numbers");
  EXPECT_EQ(gather.attributes()[1].first, "indices_are_sorted");
  EXPECT_EQ(gather.attributes()[2].first, "slice_sizes");
  EXPECT_EQ(gather.attributes()[0].second.as<ir::GatherDimensionNumbers>()->index_vector_dim, 1);
}

TEST(FrontendModule, ResultGroups) {
  auto module = Parse(R"mlir(
func.func @f(%s: tensor<2xui64>) -> tensor<2xui32> {
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui32>)
  %a:2, %b = "stablehlo.optimization_barrier"(%state, %bits, %bits) : (tensor<2xui64>, tensor<2xui32>, tensor<2xui32>) -> (tensor<2xui64>, tensor<2xui32>, tensor<2xui32>)
  return %b : tensor<2xui32>
}
)mlir");
  const ir::Function& f = *module->functions()[0];
  const ir::Operation& barrier = OpAt(f, 1);
  EXPECT_EQ(barrier.operand(0), OpAt(f, 0).result(0));
  EXPECT_EQ(barrier.operand(1), OpAt(f, 0).result(1));
  EXPECT_EQ(OpAt(f, 2).operand(0), barrier.result(2));
  EXPECT_EQ(barrier.result(2)->name_hint(), "b");
  EXPECT_EQ(barrier.result(1)->name_hint(), "a#1");
}

TEST(FrontendModule, RegionsWithSeveralBlocksAndNoLabel) {
  auto module = Parse(R"mlir(
func.func @f(%i: tensor<i32>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<f32>
  }, {
  ^bb0:
    stablehlo.return %a : tensor<f32>
  ^bb1(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}
)mlir");
  const ir::Operation& c = OpAt(*module->functions()[0], 0);
  EXPECT_EQ(c.region(0).blocks().size(), 1u);
  EXPECT_EQ(c.region(1).blocks().size(), 2u);
  EXPECT_EQ(c.region(1).blocks()[1]->num_arguments(), 1u);
}

TEST(FrontendModule, OpLocationsUseTheAbsoluteLine) {
  ParseOptions options;
  options.first_line = 100;
  auto module = Parse("func.func @f() {\n\n    func.return\n}", options);
  const ir::Operation& ret = OpAt(*module->functions()[0], 0);
  EXPECT_EQ(ret.location().line, 102u);
  EXPECT_EQ(ret.location().column, 5u);
  EXPECT_EQ(module->functions()[0]->location().line, 100u);
}

TEST(FrontendSplitInputFile, SplitsAtMarkerLines) {
  const std::string text = "a\n// -----\nb\nc\n// -----  \r\n\nd\n//  -----\n";
  std::vector<SourceChunk> chunks = SplitInputFile(text);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].text, "a\n");
  EXPECT_EQ(chunks[0].first_line, 1u);
  EXPECT_EQ(chunks[1].text, "b\nc\n");
  EXPECT_EQ(chunks[1].first_line, 3u);
  EXPECT_EQ(chunks[2].text, "\nd\n//  -----\n");
  EXPECT_EQ(chunks[2].first_line, 6u);
  EXPECT_EQ(SplitInputFile("no marker").size(), 1u);
  EXPECT_EQ(SplitInputFile("// -----").size(), 2u);
}

}  // namespace
}  // namespace vkhlo::frontend
