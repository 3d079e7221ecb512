// The printer on IR built by hand: exact text for the shapes of IR JAX produces, and no crash on
// broken IR.
#include "ir/printer.h"

#include <gtest/gtest.h>

namespace vkhlo::ir {
namespace {

Type F32(std::vector<int64_t> dims) { return Type::Tensor(ElementType::kF32, std::move(dims)); }

// A function with an entry block whose arguments match its signature.
Function* AddFunction(Module& m, std::string name, FunctionType type, std::string visibility = "") {
  auto f = std::make_unique<Function>(std::move(name), type);
  f->set_visibility(std::move(visibility));
  Block& entry = f->body().AddBlock();
  for (const Type& t : type.inputs) entry.AddArgument(t);
  return m.AddFunction(std::move(f));
}

Operation* Append(Block& block, OpCode code, std::vector<Value*> operands, std::vector<Type> results,
                  std::vector<NamedAttribute> attributes = {}, int regions = 0) {
  return block.Append(Operation::Create(code, std::move(operands), results, std::move(attributes), regions));
}

TEST(Printer, JaxStyleModuleWithSortRegion) {
  Module m;
  m.set_name("jit_main");
  m.attributes().emplace_back("mhlo.num_partitions", Attribute::Int(1, ElementType::kS32));
  Function* f = AddFunction(m, "main", {{F32({2}), F32({2})}, {F32({2})}}, "public");
  f->arg_attributes() = {{{"mhlo.layout_mode", Attribute::String("default")}}, {}};
  f->result_attributes() = {{{"jax.result_info", Attribute::String("")}}};
  Block& body = f->body().front();

  Operation* add = Append(body, OpCode::kAdd, {body.argument(0), body.argument(1)}, {F32({2})});
  Operation* sort = Append(body, OpCode::kSort, {add->result(0), add->result(0)}, {F32({2}), F32({2})},
                           {{"dimension", Attribute::Int(0)}, {"is_stable", Attribute::Bool(false)}}, 1);
  Block& cmp = sort->region(0).AddBlock();
  for (int i = 0; i < 4; ++i) cmp.AddArgument(F32({}));
  Operation* gt = Append(cmp, OpCode::kCompare, {cmp.argument(0), cmp.argument(1)},
                         {Type::Scalar(ElementType::kI1)},
                         {{"comparison_direction", Attribute::Enum("stablehlo", "comparison_direction", "GT")}});
  Append(cmp, OpCode::kReturn, {gt->result(0)}, {});
  Append(body, OpCode::kFuncReturn, {sort->result(0)}, {});

  EXPECT_EQ(PrintModule(m),
            R"(module @jit_main attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<2xf32>) -> (tensor<2xf32> {jax.result_info = ""}) {
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %1:2 = "stablehlo.sort"(%0, %0) ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<f32>):
      %3 = "stablehlo.compare"(%arg2, %arg3) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%3) : (tensor<i1>) -> ()
    }) {dimension = 0 : i64, is_stable = false} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    "func.return"(%1#0) : (tensor<2xf32>) -> ()
  }
}
)");

  // One op prints with the numbering of its whole function, without a trailing newline.
  EXPECT_EQ(PrintOperation(*gt),
            "%3 = \"stablehlo.compare\"(%arg2, %arg3) {comparison_direction = #stablehlo<comparison_direction GT>}"
            " : (tensor<f32>, tensor<f32>) -> tensor<i1>");
}

TEST(Printer, UnnamedModuleVisibilityAttributesAndEmptyResults) {
  Module m;
  Function* priv = AddFunction(m, "helper", {{}, {}}, "private");
  Append(priv->body().front(), OpCode::kFuncReturn, {}, {});
  Function* plain = AddFunction(m, "plain", {{F32({})}, {F32({}), F32({})}});
  plain->attributes().emplace_back("llvm.emit_c_interface", Attribute::Unit());
  Block& b = plain->body().front();
  Append(b, OpCode::kCall, {}, {}, {{"callee", Attribute::Symbol("helper")}});
  Append(b, OpCode::kFuncReturn, {b.argument(0), b.argument(0)}, {});

  EXPECT_EQ(PrintModule(m), R"(module {
  func.func private @helper() -> () {
    "func.return"() : () -> ()
  }
  func.func @plain(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) attributes {llvm.emit_c_interface} {
    "func.call"() {callee = @helper} : () -> ()
    "func.return"(%arg0, %arg0) : (tensor<f32>, tensor<f32>) -> ()
  }
}
)");
}

TEST(Printer, SingleResultBareTupleAndTokenParenthesized) {
  Module m;
  Type tuple = Type::Tuple({F32({}), Type::Token()});
  Function* f = AddFunction(m, "f", {{F32({})}, {F32({})}});
  Append(f->body().front(), OpCode::kFuncReturn, {f->body().front().argument(0)}, {});
  Function* g = AddFunction(m, "g", {{tuple}, {tuple}});
  Append(g->body().front(), OpCode::kFuncReturn, {g->body().front().argument(0)}, {});

  EXPECT_EQ(PrintFunction(*f), R"(func.func @f(%arg0: tensor<f32>) -> tensor<f32> {
  "func.return"(%arg0) : (tensor<f32>) -> ()
}
)");
  EXPECT_EQ(PrintFunction(*g), R"(func.func @g(%arg0: tuple<tensor<f32>, !stablehlo.token>) -> (tuple<tensor<f32>, !stablehlo.token>) {
  "func.return"(%arg0) : (tuple<tensor<f32>, !stablehlo.token>) -> ()
}
)");
}

TEST(Printer, QuotesSymbolsThatAreNotIdentifiers) {
  Module m;
  m.set_name("my-module");
  AddFunction(m, "0weird name", {{}, {}});
  EXPECT_EQ(PrintModule(m), R"(module @"my-module" {
  func.func @"0weird name"() -> () {
  }
}
)");
}

TEST(Printer, DeclarationPrintsTypesOnly) {
  Module m;
  auto f = std::make_unique<Function>("extern", FunctionType{{F32({3})}, {F32({3})}});
  f->set_visibility("private");
  f->arg_attributes() = {{{"a", Attribute::Int(7, ElementType::kS32)}}};
  m.AddFunction(std::move(f));
  EXPECT_EQ(PrintModule(m), R"(module {
  func.func private @extern(tensor<3xf32> {a = 7 : i32}) -> tensor<3xf32>
}
)");
}

// Nested regions: numbering follows the text (results before region contents), block labels
// restart per region, empty regions and argument-less entry blocks print without a label.
TEST(Printer, NestedRegionsAndMultiResultNumbering) {
  Module m;
  Type i1 = Type::Scalar(ElementType::kI1);
  Function* f = AddFunction(m, "main", {{i1, F32({})}, {F32({})}});
  Block& body = f->body().front();
  Operation* cond = Append(body, OpCode::kIf, {body.argument(0)}, {F32({}), F32({})}, {}, 2);
  Block& then_block = cond->region(0).AddBlock();
  Operation* neg = Append(then_block, OpCode::kNegate, {body.argument(1)}, {F32({})});
  Append(then_block, OpCode::kReturn, {neg->result(0), neg->result(0)}, {});
  Block& else_block = cond->region(1).AddBlock();
  Append(else_block, OpCode::kReturn, {body.argument(1), body.argument(1)}, {});
  Operation* after = Append(body, OpCode::kAdd, {cond->result(0), cond->result(1)}, {F32({})});
  Operation* empty = Append(body, OpCode::kMap, {after->result(0)}, {F32({})}, {}, 1);
  Append(body, OpCode::kFuncReturn, {empty->result(0)}, {});

  EXPECT_EQ(PrintFunction(*f), R"(func.func @main(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  %0:2 = "stablehlo.if"(%arg0) ({
    %2 = "stablehlo.negate"(%arg1) : (tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%2, %2) : (tensor<f32>, tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%arg1, %arg1) : (tensor<f32>, tensor<f32>) -> ()
  }) : (tensor<i1>) -> (tensor<f32>, tensor<f32>)
  %3 = "stablehlo.add"(%0#0, %0#1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = "stablehlo.map"(%3) ({
  }) : (tensor<f32>) -> tensor<f32>
  "func.return"(%4) : (tensor<f32>) -> ()
}
)");
}

TEST(Printer, BrokenIrStillPrints) {
  Module m;
  Function* other = AddFunction(m, "other", {{F32({})}, {}});
  Function* f = AddFunction(m, "f", {{F32({})}, {}});
  // An operand from another function, a null operand, a use before its definition, and a body
  // whose block has fewer arguments than the signature.
  Block& body = f->body().front();
  auto late = Operation::Create(OpCode::kNegate, {body.argument(0)}, {F32({})});
  Append(body, OpCode::kAdd, {other->body().front().argument(0), nullptr}, {F32({})});
  Append(body, OpCode::kAbs, {late->result(0)}, {F32({})});
  body.Append(std::move(late));
  f->set_type({{F32({}), F32({})}, {}});

  std::string text = PrintFunction(*f);
  EXPECT_NE(text.find("(%arg0: tensor<f32>, %<unknown>: tensor<f32>)"), std::string::npos) << text;
  EXPECT_NE(text.find("\"stablehlo.add\"(%<unknown>, %<null>) : (tensor<f32>, <invalid type>)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("%1 = \"stablehlo.abs\"(%2)"), std::string::npos) << text;
}

TEST(Printer, DetachedOpNumbersItself) {
  auto op = Operation::Create(OpCode::kReduce, {nullptr, nullptr}, {F32({})}, {}, 1);
  Block& block = op->region(0).AddBlock();
  Value* a = block.AddArgument(F32({}));
  Value* b = block.AddArgument(F32({}));
  Operation* sum = Append(block, OpCode::kAdd, {a, b}, {F32({})});
  Append(block, OpCode::kReturn, {sum->result(0)}, {});
  EXPECT_EQ(PrintOperation(*op), R"(%0 = "stablehlo.reduce"(%<null>, %<null>) ({
^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
  %1 = "stablehlo.add"(%arg0, %arg1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  "stablehlo.return"(%1) : (tensor<f32>) -> ()
}) : (<invalid type>, <invalid type>) -> tensor<f32>)");
  // An op inside the detached op is named with the detached op's numbering.
  EXPECT_EQ(PrintOperation(*sum), "%1 = \"stablehlo.add\"(%arg0, %arg1) : (tensor<f32>, tensor<f32>) -> tensor<f32>");
}

TEST(Printer, Deterministic) {
  Module m;
  Function* f = AddFunction(m, "f", {{F32({})}, {F32({})}});
  Append(f->body().front(), OpCode::kFuncReturn, {f->body().front().argument(0)}, {});
  EXPECT_EQ(PrintModule(m), PrintModule(m));
}

}  // namespace
}  // namespace vkhlo::ir
