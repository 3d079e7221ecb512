// The verifier on IR built in memory: the error format, the op table's coverage, shape
// inference, and the IR no text could express (missing attributes of the wrong kind, negative
// and overflowing dimensions, empty regions, missing terminators, dangling values).
#include "verify/verifier.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "verify/op_rules.h"

namespace vkhlo {
namespace {

using ir::Attribute;
using ir::ElementType;
using ir::OpCode;
using ir::Type;

Type F32(std::vector<int64_t> dims) { return Type::Tensor(ElementType::kF32, std::move(dims)); }
Type I64(std::vector<int64_t> dims) { return Type::Tensor(ElementType::kS64, std::move(dims)); }

// A module with one function @main whose body the test fills; Finish() appends func.return.
class Program {
 public:
  explicit Program(std::vector<Type> inputs = {}, std::vector<Type> results = {}) {
    module_.set_source_name("test.mlir");
    function_ = module_.AddFunction(std::make_unique<ir::Function>("main", ir::FunctionType{inputs, results}));
    block_ = &function_->body().AddBlock();
    for (const Type& t : inputs) block_->AddArgument(t, "arg" + std::to_string(block_->num_arguments()));
  }

  ir::Value* arg(size_t i) const { return block_->argument(i); }
  ir::Block& block() { return *block_; }
  ir::Module& module() { return module_; }
  ir::Function& function() { return *function_; }

  ir::Operation* Add(ir::Block& block, OpCode code, std::vector<ir::Value*> operands, std::vector<Type> results,
                     std::vector<ir::NamedAttribute> attributes = {}, int regions = 0) {
    const uint32_t line = next_line_++;
    return block.Append(ir::Operation::Create(code, std::move(operands), results, std::move(attributes), regions,
                                              ir::Location{line, 3}));
  }
  ir::Operation* Add(OpCode code, std::vector<ir::Value*> operands, std::vector<Type> results,
                     std::vector<ir::NamedAttribute> attributes = {}, int regions = 0) {
    return Add(*block_, code, std::move(operands), std::move(results), std::move(attributes), regions);
  }
  // func.return of `values`.
  void Finish(std::vector<ir::Value*> values) { Add(OpCode::kFuncReturn, std::move(values), {}); }

  std::string Verify() const {
    Status status = verify::VerifyModule(module_);
    return status.ok() ? "OK" : status.message();
  }

 private:
  ir::Module module_;
  ir::Function* function_;
  ir::Block* block_;
  uint32_t next_line_ = 2;
};

// A reducer region (a, b) -> a + b over scalars of `t`.
void AddReducer(Program& p, ir::Region& region, Type t, OpCode combine = OpCode::kAdd) {
  ir::Block& body = region.AddBlock();
  ir::Value* a = body.AddArgument(t);
  ir::Value* b = body.AddArgument(t);
  ir::Operation* sum = p.Add(body, combine, {a, b}, {t});
  p.Add(body, OpCode::kReturn, {sum->result(0)}, {});
}

TEST(VerifierTest, EveryOpHasARule) {
  for (int i = 0; i < ir::NumOpCodes(); ++i) {
    const auto code = static_cast<OpCode>(i);
    EXPECT_NE(verify::FindRule(code), nullptr) << ir::GetOpInfo(code).name;
  }
}

TEST(VerifierTest, ValidProgram) {
  Program p({F32({2}), F32({2})}, {F32({2})});
  ir::Operation* add = p.Add(OpCode::kAdd, {p.arg(0), p.arg(1)}, {F32({2})});
  p.Finish({add->result(0)});
  EXPECT_EQ(p.Verify(), "OK");
}

TEST(VerifierTest, ErrorFormatWithLocation) {
  Program p({F32({2}), F32({3})}, {F32({2})});
  ir::Operation* add = p.Add(OpCode::kAdd, {p.arg(0), p.arg(1)}, {F32({2})});
  p.Finish({add->result(0)});
  EXPECT_EQ(p.Verify(),
            "test.mlir:2:3: error: 'stablehlo.add' operand types must match (C1): expected tensor<2xf32>, "
            "found tensor<3xf32>");
}

TEST(VerifierTest, ErrorFormatWithoutLocation) {
  Program p({F32({2}), F32({2})}, {F32({2})});
  ir::Operation* add = p.Add(OpCode::kAdd, {p.arg(0), p.arg(1)}, {F32({3})});
  add->set_location({});
  p.Finish({add->result(0)});
  EXPECT_EQ(p.Verify(),
            "test.mlir: error: 'stablehlo.add' result type must match the operands' (C1): expected tensor<2xf32>, "
            "found tensor<3xf32>");
}

TEST(VerifierTest, DetachedOpHasNoPrefix) {
  ir::Block block;
  ir::Value* a = block.AddArgument(F32({2}));
  auto op = ir::Operation::Create(OpCode::kNegate, {a}, {F32({3})});
  EXPECT_EQ(verify::VerifyOperation(*op).message(),
            "error: 'stablehlo.negate' result type must match the operand's (C1): expected tensor<2xf32>, found "
            "tensor<3xf32>");
}

TEST(VerifierTest, NegativeAndOverflowingDimensions) {
  {
    Program p({F32({2})}, {});
    p.Add(OpCode::kNegate, {p.arg(0)}, {F32({-1})});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.negate' result #0 has an invalid type: expected "
                          "non-negative dimension sizes, found tensor<-1xf32>");
  }
  {
    Program p({F32({2})}, {});
    p.Add(OpCode::kNegate, {p.arg(0)}, {F32({INT64_MAX, 4})});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.negate' result #0 has an invalid type: expected at "
                          "most 9223372036854775807 elements, found tensor<9223372036854775807x4xf32>");
  }
  {
    // Few enough elements for int64, too many bytes (issue 18: such types made the interpreter
    // loop over a splat of 2^63 elements).
    Program p({F32({2})}, {});
    p.Add(OpCode::kNegate, {p.arg(0)}, {F32({INT64_MAX})});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.negate' result #0 has an invalid type: expected at "
                          "most 9223372036854775807 bytes of elements, found tensor<9223372036854775807xf32>");
  }
  {
    Program p({F32({-3})}, {});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir: error: 'func.func' @main: signature has an invalid type: expected "
                          "non-negative dimension sizes, found tensor<-3xf32>");
  }
}

TEST(VerifierTest, WindowOverflowIsAnError) {
  Program p({F32({3}), F32({})}, {});
  ir::Operation* window = p.Add(OpCode::kReduceWindow, {p.arg(0), p.arg(1)}, {F32({1})},
                                {{"window_dimensions", Attribute::I64Array({1})},
                                 {"base_dilations", Attribute::I64Array({INT64_MAX})}},
                                1);
  AddReducer(p, window->region(0), F32({}));
  p.Finish({});
  EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.reduce_window' window arithmetic overflows (C15): "
                        "expected sizes that fit in int64, found size 3, window 1, padding [0, 0], dilations "
                        "9223372036854775807 and 1");
}

TEST(VerifierTest, PadOverflowIsAnError) {
  // i8: INT64_MAX / 2 elements of 4 bytes would already be too many bytes for the type.
  const auto i8 = [](std::vector<int64_t> dims) { return Type::Tensor(ElementType::kS8, std::move(dims)); };
  Program p({i8({INT64_MAX / 2}), i8({})}, {});
  p.Add(OpCode::kPad, {p.arg(0), p.arg(1)}, {i8({1})},
        {{"edge_padding_low", Attribute::I64Array({0})},
         {"edge_padding_high", Attribute::I64Array({0})},
         {"interior_padding", Attribute::I64Array({4})}});
  p.Finish({});
  EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.pad' result dimension 0 must be non-negative (C4): "
                        "expected a size >= 0, found an overflow");
}

TEST(VerifierTest, MissingAndWrongKindAttributes) {
  {
    Program p({F32({2})}, {});
    p.Add(OpCode::kBroadcastInDim, {p.arg(0)}, {F32({3, 2})});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.broadcast_in_dim' requires attribute "
                          "'broadcast_dimensions': expected a 1-dimensional list of integers, found none");
  }
  {
    Program p({F32({2})}, {});
    p.Add(OpCode::kBroadcastInDim, {p.arg(0)}, {F32({3, 2})}, {{"broadcast_dimensions", Attribute::String("x")}});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.broadcast_in_dim' attribute 'broadcast_dimensions' "
                          "has the wrong kind: expected a 1-dimensional list of integers, found \"x\"");
  }
  {
    Program p({F32({2}), F32({2})}, {});
    p.Add(OpCode::kCompare, {p.arg(0), p.arg(1)}, {Type::Tensor(ElementType::kI1, {2})},
          {{"comparison_direction", Attribute::Enum("stablehlo", "comparison_direction", "XX")}});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.compare' attribute 'comparison_direction' has an "
                          "unknown value: expected one of EQ, NE, GE, GT, LE, LT, found XX");
  }
  {
    Program p({F32({2, 3})}, {});
    p.Add(OpCode::kTranspose, {p.arg(0)}, {F32({3, 2})}, {{"permutation", Attribute::Int(1)}});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.transpose' attribute 'permutation' has the wrong "
                          "kind: expected a 1-dimensional list of integers, found 1 : i64");
  }
}

TEST(VerifierTest, OutOfRangeDimensionNumbers) {
  Program p({F32({2, 3}), F32({3, 4})}, {});
  ir::DotDimensionNumbers d;
  d.lhs_contracting_dimensions = {7};
  d.rhs_contracting_dimensions = {0};
  p.Add(OpCode::kDotGeneral, {p.arg(0), p.arg(1)}, {F32({2, 4})}, {{"dot_dimension_numbers", Attribute(d)}});
  p.Finish({});
  EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.dot_general' lhs_contracting_dimensions must be in "
                        "range (C7): expected values in [0, 2), found [7]");
}

TEST(VerifierTest, HugeListAttributeIsRefused) {
  Program p({F32({2, 3})}, {});
  auto literal = ir::Literal::CreateSplat(I64({int64_t{1} << 40}), std::vector<uint8_t>(8, 0));
  ASSERT_TRUE(literal.ok());
  p.Add(OpCode::kReverse, {p.arg(0)}, {F32({2, 3})}, {{"dimensions", Attribute::Dense(*literal)}});
  p.Finish({});
  EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.reverse' attribute 'dimensions' is too long: expected "
                        "at most 4194304 values, found 1099511627776 values");
}

TEST(VerifierTest, RegionsMustBeWellFormed) {
  {
    Program p({F32({4}), F32({})}, {});
    p.Add(OpCode::kReduce, {p.arg(0), p.arg(1)}, {F32({})}, {{"dimensions", Attribute::I64Array({0})}}, 1);
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.reduce' region 'body' must have one block: expected 1 "
                          "block, found 0 blocks");
  }
  {
    Program p({F32({4}), F32({})}, {});
    ir::Operation* reduce =
        p.Add(OpCode::kReduce, {p.arg(0), p.arg(1)}, {F32({})}, {{"dimensions", Attribute::I64Array({0})}}, 1);
    ir::Block& body = reduce->region(0).AddBlock();
    ir::Value* a = body.AddArgument(F32({}));
    ir::Value* b = body.AddArgument(F32({}));
    p.Add(body, OpCode::kAdd, {a, b}, {F32({})});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.reduce' region #0 must end with 'stablehlo.return': "
                          "expected stablehlo.return, found stablehlo.add");
  }
  {
    Program p({F32({4}), F32({})}, {});
    ir::Operation* reduce =
        p.Add(OpCode::kReduce, {p.arg(0), p.arg(1)}, {F32({})}, {{"dimensions", Attribute::I64Array({0})}}, 1);
    reduce->region(0).AddBlock();
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.reduce' region #0 must end with 'stablehlo.return': "
                          "expected stablehlo.return, found an empty block");
  }
}

TEST(VerifierTest, ReduceBodySignature) {
  Program p({F32({4, 5}), F32({})}, {});
  ir::Operation* reduce =
      p.Add(OpCode::kReduce, {p.arg(0), p.arg(1)}, {F32({5})}, {{"dimensions", Attribute::I64Array({0})}}, 1);
  AddReducer(p, reduce->region(0), I64({}));
  p.Finish({});
  EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.reduce' body must have type (C6): expected "
                        "(tensor<f32>, tensor<f32>) -> tensor<f32>, found (tensor<i64>, tensor<i64>) -> tensor<i64>");
}

TEST(VerifierTest, ReducePromotesToAWiderAccumulator) {
  Program p({Type::Tensor(ElementType::kBF16, {4, 5}), Type::Tensor(ElementType::kBF16, {})}, {});
  ir::Operation* reduce = p.Add(OpCode::kReduce, {p.arg(0), p.arg(1)}, {F32({5})},
                                {{"dimensions", Attribute::I64Array({0})}}, 1);
  AddReducer(p, reduce->region(0), F32({}));
  p.Finish({});
  EXPECT_EQ(p.Verify(), "OK");
}

TEST(VerifierTest, FunctionStructure) {
  {
    Program p({F32({2})}, {F32({2})});
    p.Add(OpCode::kNegate, {p.arg(0)}, {F32({2})});
    EXPECT_EQ(p.Verify(), "test.mlir: error: 'func.func' @main: body must end with 'func.return': expected "
                          "func.return, found stablehlo.negate");
  }
  {
    Program p({F32({2})}, {F32({2})});
    p.Finish({p.arg(0)});
    p.Add(OpCode::kNegate, {p.arg(0)}, {F32({2})});
    EXPECT_EQ(p.Verify(), "test.mlir: error: 'func.func' @main: body must end with 'func.return': expected "
                          "func.return, found stablehlo.negate");
  }
  {
    Program p({F32({2})}, {F32({2})});
    p.Finish({p.arg(0)});
    p.Finish({p.arg(0)});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'func.return' must be the last op of its block: expected no ops "
                          "after it, found 'func.return'");
  }
  {
    Program p({F32({2})}, {F32({3})});
    p.Finish({p.arg(0)});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'func.return' operand types must match the result types of "
                          "@main: expected (tensor<3xf32>), found (tensor<2xf32>)");
  }
  {
    Program p({F32({2})}, {});
    p.Finish({});
    p.module().AddFunction(std::make_unique<ir::Function>("main", ir::FunctionType{}));
    EXPECT_EQ(p.Verify(), "test.mlir: error: 'func.func' @main: function names must be unique: expected one "
                          "function named @main, found a second one");
  }
}

TEST(VerifierTest, SsaDominance) {
  {
    Program p({F32({2})}, {});
    ir::Block scratch;
    ir::Value* stray = scratch.AddArgument(F32({2}), "stray");
    p.Add(OpCode::kNegate, {stray}, {F32({2})});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.negate' operand #0 must be defined before its use "
                          "(SSA dominance): expected a value defined earlier in the same block or in an enclosing "
                          "region, found %stray");
  }
  {
    // A value used before the op that defines it.
    Program p({F32({2})}, {});
    ir::Operation* first = p.Add(OpCode::kNegate, {p.arg(0)}, {F32({2})});
    ir::Operation* second = p.Add(OpCode::kNegate, {p.arg(0)}, {F32({2})});
    second->result(0)->set_name_hint("late");
    first->set_operand(0, second->result(0));
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.negate' operand #0 must be defined before its use "
                          "(SSA dominance): expected a value defined earlier in the same block or in an enclosing "
                          "region, found %late");
  }
  {
    Program p({F32({2})}, {});
    p.Add(OpCode::kNegate, {nullptr}, {F32({2})});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.negate' operand #0 is missing: expected a value, "
                          "found none");
  }
}

TEST(VerifierTest, RegionsSeeEnclosingValues) {
  Program p({Type::Scalar(ElementType::kI1), F32({2})}, {F32({2})});
  ir::Operation* branch = p.Add(OpCode::kIf, {p.arg(0)}, {F32({2})}, {}, 2);
  for (int i = 0; i < 2; ++i) {
    ir::Block& block = branch->region(i).AddBlock();
    p.Add(block, OpCode::kReturn, {p.arg(1)}, {});
  }
  p.Finish({branch->result(0)});
  EXPECT_EQ(p.Verify(), "OK");
}

TEST(VerifierTest, Calls) {
  {
    Program p({F32({2})}, {});
    p.Add(OpCode::kCall, {p.arg(0)}, {F32({2})}, {{"callee", Attribute::Symbol("missing")}});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'func.call' callee must name a function of the module: expected "
                          "a function named @missing, found none");
  }
  {
    Program p({F32({2})}, {});
    auto callee = std::make_unique<ir::Function>("f", ir::FunctionType{{F32({3})}, {F32({3})}});
    callee->set_visibility("private");
    p.module().AddFunction(std::move(callee));
    p.Add(OpCode::kCall, {p.arg(0)}, {F32({2})}, {{"callee", Attribute::Symbol("f")}});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'func.call' operand types must match the inputs of callee @f: "
                          "expected (tensor<3xf32>), found (tensor<2xf32>)");
  }
}

TEST(VerifierTest, QuantizedTypes) {
  ir::QuantizedElement q;
  q.storage = ElementType::kS8;
  q.storage_min = -128;
  q.storage_max = 127;
  q.expressed = ElementType::kF32;
  q.scales = {0.5};
  q.zero_points = {3};
  const Type good = Type::QuantizedTensor(q, {2});
  {
    // Element-wise ops accept operands whose quantization parameters differ.
    ir::QuantizedElement other = q;
    other.scales = {0.25};
    const Type other_type = Type::QuantizedTensor(other, {2});
    Program p({good, other_type}, {});
    p.Add(OpCode::kAdd, {p.arg(0), p.arg(1)}, {other_type});
    p.Add(OpCode::kUniformDequantize, {p.arg(0)}, {F32({2})});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "OK");
  }
  {
    ir::QuantizedElement bad = q;
    bad.scales = {0.0};
    Program p({Type::QuantizedTensor(bad, {2})}, {});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir: error: 'func.func' @main: signature has an invalid type: expected positive "
                          "finite scales, found tensor<2x!quant.uniform<i8:f32, 0.0:3>>");
  }
  {
    ir::QuantizedElement axis = q;
    axis.quantized_dimension = 0;
    axis.scales = {0.5, 0.5, 0.5};
    axis.zero_points = {0, 0, 0};
    Program p({Type::QuantizedTensor(axis, {2})}, {});
    p.Finish({});
    EXPECT_EQ(p.Verify(), "test.mlir: error: 'func.func' @main: signature has an invalid type: expected one scale "
                          "per slice along the quantization dimension, found "
                          "tensor<2x!quant.uniform<i8:f32:0, {0.5:0,0.5:0,0.5:0}>>");
  }
}

TEST(VerifierTest, VariadicAllReduceWithPromotion) {
  const Type bf16 = Type::Tensor(ElementType::kBF16, {4});
  Program p({bf16, bf16}, {});
  ir::Operation* reduce = p.Add(OpCode::kAllReduce, {p.arg(0), p.arg(1)}, {F32({4}), F32({4})}, {}, 1);
  AddReducer(p, reduce->region(0), F32({}));
  p.Finish({});
  EXPECT_EQ(p.Verify(), "OK");
}

TEST(VerifierTest, CollectiveBroadcastWithDynamicRoot) {
  const Type data = I64({1, 2});
  const Type roots = Type::Tensor(ElementType::kS32, {2});
  Program p({data, data, roots}, {});
  auto groups = ir::Literal::Create(I64({1, 2}));
  ASSERT_TRUE(groups.ok());
  groups->SetInt(1, 1);
  p.Add(OpCode::kCollectiveBroadcast, {p.arg(0), p.arg(1), p.arg(2)}, {data, data},
        {{"replica_groups", Attribute::Dense(*groups)}, {"has_dynamic_root", Attribute::Unit()}});
  p.Add(OpCode::kCollectiveBroadcast, {p.arg(0), p.arg(2)}, {data},
        {{"replica_groups", Attribute::Dense(*groups)}, {"has_dynamic_root", Attribute::Unit()}});
  p.Finish({});
  EXPECT_EQ(p.Verify(), "test.mlir:3:3: error: 'stablehlo.collective_broadcast' root has an invalid type: expected "
                        "1-dimensional integer tensor of 1 elements after the data operands, found tensor<2xi32>");
}

TEST(VerifierTest, WrongArity) {
  Program p({F32({2})}, {});
  p.Add(OpCode::kAdd, {p.arg(0)}, {F32({2})});
  p.Finish({});
  EXPECT_EQ(p.Verify(), "test.mlir:2:3: error: 'stablehlo.add' has the wrong number of operands: expected 2, "
                        "found 1");
}

TEST(InferResultTypesTest, ElementwiseAndLibraryOps) {
  std::vector<Type> operands = {F32({2, 3}), F32({2, 3})};
  auto add = verify::InferResultTypes(OpCode::kAdd, operands, {});
  ASSERT_TRUE(add.ok()) << add.status().message();
  EXPECT_EQ(*add, std::vector<Type>{F32({2, 3})});

  auto compare = verify::InferResultTypes(
      OpCode::kCompare, operands,
      {{"comparison_direction", Attribute::Enum("stablehlo", "comparison_direction", "LT")}});
  ASSERT_TRUE(compare.ok()) << compare.status().message();
  EXPECT_EQ(*compare, std::vector<Type>{Type::Tensor(ElementType::kI1, {2, 3})});

  ir::DotDimensionNumbers d;
  d.lhs_contracting_dimensions = {1};
  d.rhs_contracting_dimensions = {0};
  std::vector<Type> dot_operands = {F32({2, 3}), F32({3, 5})};
  auto dot = verify::InferResultTypes(OpCode::kDotGeneral, dot_operands, {{"dot_dimension_numbers", Attribute(d)}});
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  EXPECT_EQ(*dot, std::vector<Type>{F32({2, 5})});

  std::vector<Type> one = {F32({2, 3})};
  auto transpose = verify::InferResultTypes(OpCode::kTranspose, one, {{"permutation", Attribute::I64Array({1, 0})}});
  ASSERT_TRUE(transpose.ok());
  EXPECT_EQ(*transpose, std::vector<Type>{F32({3, 2})});

  auto slice = verify::InferResultTypes(OpCode::kSlice, one,
                                        {{"start_indices", Attribute::I64Array({0, 1})},
                                         {"limit_indices", Attribute::I64Array({2, 3})},
                                         {"strides", Attribute::I64Array({1, 2})}});
  ASSERT_TRUE(slice.ok());
  EXPECT_EQ(*slice, std::vector<Type>{F32({2, 1})});
}

TEST(InferResultTypesTest, Errors) {
  std::vector<Type> operands = {F32({2}), F32({3})};
  EXPECT_EQ(verify::InferResultTypes(OpCode::kAdd, operands, {}).status().message(),
            "error: 'stablehlo.add' operand types must match (C1): expected tensor<2xf32>, found tensor<3xf32>");
  std::vector<Type> one = {F32({6})};
  EXPECT_EQ(verify::InferResultTypes(OpCode::kReshape, one, {}).status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(verify::InferResultTypes(OpCode::kAdd, one, {}).status().message(),
            "error: 'stablehlo.add' has the wrong number of operands: expected 2, found 1");
  // Ops with regions infer from them when given.
  {
    Program p({Type::Scalar(ElementType::kI1), F32({2})}, {});
    ir::Operation* branch = p.Add(OpCode::kIf, {p.arg(0)}, {F32({2})}, {}, 2);
    for (int i = 0; i < 2; ++i) p.Add(branch->region(i).AddBlock(), OpCode::kReturn, {p.arg(1)}, {});
    const ir::Region* regions[] = {&branch->region(0), &branch->region(1)};
    std::vector<Type> pred = {Type::Scalar(ElementType::kI1)};
    auto inferred = verify::InferResultTypes(OpCode::kIf, pred, {}, regions);
    ASSERT_TRUE(inferred.ok()) << inferred.status().message();
    EXPECT_EQ(*inferred, std::vector<Type>{F32({2})});
  }
  // Ops with regions need them.
  std::vector<Type> reduce_operands = {F32({4}), F32({})};
  EXPECT_EQ(verify::InferResultTypes(OpCode::kReduce, reduce_operands, {{"dimensions", Attribute::I64Array({0})}})
                .status()
                .message(),
            "error: 'stablehlo.reduce' requires region 'body': expected a region, found none");
}

// Attribute sets with extreme values under every name some op reads.
std::vector<std::vector<ir::NamedAttribute>> OddAttributeSets() {
  const char* kNames[] = {
      "dimensions", "dimension", "broadcast_dimensions", "permutation", "slice_sizes", "start_indices",
      "limit_indices", "strides", "window_dimensions", "window_strides", "padding", "base_dilations",
      "window_dilations", "lhs_dilation", "rhs_dilation", "edge_padding_low", "edge_padding_high",
      "interior_padding", "iota_dimension", "index", "feature_index", "all_gather_dim", "split_dimension",
      "concat_dimension", "split_count", "scatter_dimension", "replica_groups", "fft_length", "k",
      "exponent_bits", "mantissa_bits", "broadcast_sizes", "feature_group_count", "batch_group_count",
      "source_target_pairs", "window_reversal", "known_expanding_dimensions"};
  const std::vector<Attribute> kValues = {
      Attribute::I64Array({INT64_MAX, INT64_MIN, -1}), Attribute::I64Array({}), Attribute::I64Array({0, 0}),
      Attribute::I64Array({1, 0}), Attribute::Int(INT64_MIN), Attribute::Int(INT64_MAX), Attribute::Int(1),
      Attribute::String("x")};
  std::vector<std::vector<ir::NamedAttribute>> sets;
  for (const Attribute& value : kValues) {
    std::vector<ir::NamedAttribute> set;
    for (const char* name : kNames) set.emplace_back(name, value);
    ir::GatherDimensionNumbers g;
    g.offset_dims = {INT64_MAX, -1};
    g.collapsed_slice_dims = {5};
    g.start_index_map = {INT64_MIN};
    g.index_vector_dim = INT64_MAX;
    set.emplace_back("dimension_numbers", Attribute(g));
    ir::ScatterDimensionNumbers sd;
    sd.update_window_dims = {0, 1, 2};
    sd.inserted_window_dims = {-4};
    sd.index_vector_dim = -1;
    set.emplace_back("scatter_dimension_numbers", Attribute(sd));
    ir::DotDimensionNumbers dd;
    dd.lhs_batching_dimensions = {0};
    dd.rhs_batching_dimensions = {9};
    set.emplace_back("dot_dimension_numbers", Attribute(dd));
    sets.push_back(std::move(set));
  }
  ir::ConvDimensionNumbers c;
  c.input_spatial_dimensions = {INT64_MAX};
  c.kernel_spatial_dimensions = {-1};
  c.output_spatial_dimensions = {2};
  c.output_batch_dimension = INT64_MIN;
  sets.push_back({{"dimension_numbers", Attribute(c)}});
  return sets;
}

// Every op survives odd IR: no operands' worth of attributes, invalid types, tokens where
// tensors go. The verifier must answer (OK or an error), never crash.
TEST(VerifierTest, NeverCrashesOnOddOperands) {
  const std::vector<Type> kinds = {F32({}), F32({0}), F32({2, 3}), I64({3}), Type::Token(),
                                   Type::Tuple({F32({2})}), Type(), Type::Tensor(ElementType::kC64, {2, 2})};
  for (int code = 0; code < ir::NumOpCodes(); ++code) {
    const ir::OpInfo& info = ir::GetOpInfo(static_cast<OpCode>(code));
    for (const Type& kind : kinds) {
      for (int n : {info.min_operands, info.min_operands + 1, info.min_operands + 2}) {
        ir::Block block;
        std::vector<ir::Value*> operands;
        for (int i = 0; i < n; ++i) operands.push_back(block.AddArgument(kind));
        const int results = info.num_results == ir::kVariadic ? 1 : info.num_results;
        const int regions = info.num_regions == ir::kVariadic ? 1 : info.num_regions;
        auto op = ir::Operation::Create(static_cast<OpCode>(code), operands, std::vector<Type>(results, kind), {},
                                        regions);
        for (size_t r = 0; r < op->num_regions(); ++r) {
          ir::Block& body = op->region(r).AddBlock();
          body.AddArgument(kind);
          body.Append(ir::Operation::Create(OpCode::kReturn, {body.argument(0)}, {}));
        }
        (void)verify::VerifyOperation(*op);
        std::vector<Type> types(static_cast<size_t>(n), kind);
        (void)verify::InferResultTypes(static_cast<OpCode>(code), types, {});
        for (const auto& attributes : OddAttributeSets()) {
          for (const auto& attribute : attributes) op->SetAttribute(attribute.first, attribute.second);
          (void)verify::VerifyOperation(*op);
          (void)verify::InferResultTypes(static_cast<OpCode>(code), types, attributes);
        }
      }
    }
  }
}

}  // namespace
}  // namespace vkhlo
