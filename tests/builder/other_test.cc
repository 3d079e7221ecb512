// Random numbers, custom calls, collectives (one replica), feeds and tokens.
#include <gtest/gtest.h>

#include "builder/computation_module.h"
#include "builder/literal_conversion.h"
#include "ir/printer.h"
#include "verify/verifier.h"
#include "builder_harness.h"
#include "interp/eval_context.h"

namespace vkhlo {
namespace {

using testing::BuildOrDie;
using testing::CountOps;
using testing::Evaluate;
using testing::Execute;
using testing::RoundTripText;

TEST(RngTest, UniformAndNormalHaveTheShapeAndRange) {
  XlaBuilder b("rng");
  Tuple(&b, {RngUniform(ConstantR0<float>(&b, 2), ConstantR0<float>(&b, 3), ShapeUtil::MakeShape(F32, {100})),
             RngNormal(ConstantR0<float>(&b, 0), ConstantR0<float>(&b, 1), ShapeUtil::MakeShape(F32, {4, 5})),
             RngUniform(ConstantR0<int32_t>(&b, -5), ConstantR0<int32_t>(&b, 5), ShapeUtil::MakeShape(S32, {50}))});
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].shape().ToString(), "f32[100]");
  for (float v : p[0].data<float>()) {
    EXPECT_GE(v, 2.0f);
    EXPECT_LT(v, 3.0f);
  }
  EXPECT_EQ(p[1].shape().ToString(), "f32[4,5]");
  for (int32_t v : p[2].data<int32_t>()) {
    EXPECT_GE(v, -5);
    EXPECT_LT(v, 5);
  }
}

TEST(RngTest, BitGeneratorMatchesXla) {
  // XLA's outputs (tests/interp/library/rng_xla_outputs.mlir) for this PHILOX state.
  XlaBuilder b("rbg");
  auto state = ConstantR1<uint64_t>(&b, {11150031900141442680ull, 30064771114ull});
  RngBitGenerator(RNG_PHILOX, state, ShapeUtil::MakeShape(U32, {2, 3}));
  Literal result = Evaluate(b);
  std::vector<Literal> p = result.DecomposeTuple();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<uint64_t>({11150031900141442680ull, 30064771116ull}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR2<uint32_t>({{4238270186u, 2673442375u, 991976948u},
                                                  {3204768699u, 3544869810u, 914263769u}}));
}

TEST(CustomCallTest, PrintsTargetAndConfig) {
  XlaBuilder b("custom");
  auto x = Parameter(&b, 0, ShapeUtil::MakeShape(F32, {2}), "x");
  CustomCall(&b, "my_function", {x, x},
             ShapeUtil::MakeTupleShape({ShapeUtil::MakeShape(F32, {3, 3}), ShapeUtil::MakeShape(S32, {})}), "opaque!",
             /*has_side_effect=*/true);
  XlaComputation c = BuildOrDie(b);
  auto text = RoundTripText(c);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_NE(text->find("call_target_name = \"my_function\""), std::string::npos) << *text;
  EXPECT_NE(text->find("backend_config = \"opaque!\""), std::string::npos) << *text;
  EXPECT_NE(text->find("has_side_effect = true"), std::string::npos) << *text;
  EXPECT_NE(text->find("-> (tensor<3x3xf32>, tensor<i32>)"), std::string::npos) << *text;
  EXPECT_EQ(c.GetProgramShape()->result().ToString(), "(f32[3,3], s32[])");
}

XlaComputation AddF32() {
  XlaBuilder b("add");
  Add(Parameter(&b, 0, ShapeUtil::MakeShape(F32, {}), "a"), Parameter(&b, 1, ShapeUtil::MakeShape(F32, {}), "b"));
  return BuildOrDie(b);
}

TEST(CollectivesTest, OneReplica) {
  // With a single replica every collective sees only this process's value.
  XlaBuilder b("collectives");
  auto x = ConstantR2<float>(&b, {{1, 2}, {3, 4}});
  ReplicaGroup group;
  group.add_replica_ids(0);
  ChannelHandle channel;
  channel.set_handle(1);
  channel.set_type(ChannelHandle::DEVICE_TO_DEVICE);
  Tuple(&b, {AllReduce(x, AddF32()), AllReduce(x, AddF32(), {group}), AllGather(x, 1, 1, {group}),
             AllToAll(x, 0, 1, 1, {group}), CollectivePermute(x, {{0, 0}}), ReduceScatter(x, AddF32(), 0, 1, {group}),
             ReplicaId(&b), AllReduce(Tuple(&b, {x, x}), AddF32(), {group})});
  XlaComputation c = BuildOrDie(b);
  EXPECT_EQ(CountOps(c, "stablehlo.all_reduce"), 3);
  auto result = Execute(c);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  ASSERT_EQ(p.size(), 8u);
  Literal m = LiteralUtil::CreateR2<float>({{1, 2}, {3, 4}});
  for (int i : {0, 1, 2, 3, 4, 5}) EXPECT_EQ(p[static_cast<size_t>(i)], m) << i;
  EXPECT_EQ(p[6], LiteralUtil::CreateR0<uint32_t>(0));
  EXPECT_EQ(p[7], LiteralUtil::MakeTuple({&m, &m}));
  // A channel handle and several groups are printed as StableHLO attributes.
  XlaBuilder g("groups");
  ReplicaGroup g0, g1;
  g0.add_replica_ids(0);
  g0.add_replica_ids(2);
  g1.add_replica_ids(1);
  g1.add_replica_ids(3);
  AllGather(Parameter(&g, 0, ShapeUtil::MakeShape(F32, {2}), "p"), 0, 2, {g0, g1}, channel);
  XlaComputation gc = BuildOrDie(g);
  auto text = RoundTripText(gc);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_NE(text->find("replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>"), std::string::npos) << *text;
  EXPECT_NE(text->find("#stablehlo.channel_handle<handle = 1, type = 1>"), std::string::npos) << *text;
  EXPECT_NE(text->find("-> tensor<4xf32>"), std::string::npos) << *text;
}

TEST(FeedTest, InfeedOutfeedAndTokens) {
  XlaBuilder b("feeds");
  auto token = CreateToken(&b);
  auto data = InfeedWithToken(token, ShapeUtil::MakeShape(S32, {2}));
  auto value = GetTupleElement(data, 0);
  auto after = OutfeedWithToken(Add(value, value), GetTupleElement(data, 1), ShapeUtil::MakeShape(S32, {2}), "");
  auto plain = Infeed(&b, ShapeUtil::MakeShape(F32, {}));
  Outfeed(plain, ShapeUtil::MakeShape(F32, {}), "");
  Tuple(&b, {value, plain, AfterAll(&b, {token, after})});
  XlaComputation c = BuildOrDie(b);
  EXPECT_EQ(CountOps(c, "stablehlo.infeed"), 2);
  EXPECT_EQ(CountOps(c, "stablehlo.outfeed"), 2);
  interp::HostQueues queues;
  auto first = internal::ToIrLiteral(LiteralUtil::CreateR1<int32_t>({5, 6}));
  auto second = internal::ToIrLiteral(LiteralUtil::CreateR0<float>(1.5f));
  queues.infeed.push_back({interp::InterpValue::Tensor(*first)});
  queues.infeed.push_back({interp::InterpValue::Tensor(*second)});
  auto result = Execute(c, {}, &queues);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> p = result->DecomposeTuple();
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], LiteralUtil::CreateR1<int32_t>({5, 6}));
  EXPECT_EQ(p[1], LiteralUtil::CreateR0<float>(1.5f));
  EXPECT_TRUE(p[2].shape().IsToken());
  ASSERT_EQ(queues.outfeed.size(), 2u);
  EXPECT_EQ(queues.outfeed[0][0].literal().ToString(), "[10, 12]");
  EXPECT_EQ(queues.outfeed[1][0].literal().ToString(), "1.5");
}

// What the runtime uses: the module of a computation and literal conversions.
TEST(RuntimeAccessTest, ModuleAndLiterals) {
  XlaBuilder b("access");
  Add(Parameter(&b, 0, ShapeUtil::MakeShape(F32, {2}), "x"), ConstantR0<float>(&b, 1));
  XlaComputation c = BuildOrDie(b);
  const ir::Module* module = internal::ComputationModule(c);
  ASSERT_NE(module, nullptr);
  EXPECT_NE(module->FindFunction("main"), nullptr);
  std::unique_ptr<ir::Module> copy = internal::CloneComputationModule(c);
  ASSERT_NE(copy, nullptr);
  EXPECT_TRUE(verify::VerifyModule(*copy).ok());
  EXPECT_EQ(ir::PrintModule(*copy), c.ToStableHlo());
  EXPECT_EQ(internal::ComputationModule(XlaComputation()), nullptr);
  EXPECT_EQ(internal::CloneComputationModule(XlaComputation()), nullptr);

  // Literals to IR and back keep every bit; layouts are dropped (IR values are row-major).
  Literal column = LiteralUtil::CreateR2WithLayout<bfloat16>({{bfloat16(1.5f), bfloat16(-0.0f)}, {bfloat16(3), bfloat16(4)}},
                                                              LayoutUtil::MakeLayout({0, 1}));
  auto ir_literal = internal::ToIrLiteral(column);
  ASSERT_TRUE(ir_literal.ok()) << ir_literal.status().ToString();
  EXPECT_EQ(ir_literal->type().ToString(), "tensor<2x2xbf16>");
  EXPECT_EQ(ir_literal->ToString(false), "[[1.5, -0.0], [3.0, 4.0]]");
  auto back = internal::FromIrLiteral(*ir_literal);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, column);
  EXPECT_TRUE(LayoutUtil::IsMonotonicWithDim0Major(back->shape().layout()));
  auto splat = ir::Literal::CreateSplat(ir::Type::Tensor(ir::ElementType::kS16, {3}), std::vector<uint8_t>{7, 0});
  ASSERT_TRUE(splat.ok());
  EXPECT_EQ(*internal::FromIrLiteral(*splat), LiteralUtil::CreateR1<int16_t>({7, 7, 7}));
  EXPECT_FALSE(internal::ToIrLiteral(LiteralUtil::CreateToken()).ok());
}

}  // namespace
}  // namespace vkhlo
