#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <thread>

#include "plan/describe.h"
#include "plan/plan_reader.h"
#include "tests/builder/builder_harness.h"
#include "tests/support/runtime_test_util.h"
#include "vkhlo/vkhlo.h"

namespace vkhlo {
namespace {

using testing::BuildOrDie;
using testing::SharedClient;

XlaComputation Axpy() {
  XlaBuilder b("axpy");
  auto alpha = Parameter(&b, 0, ShapeUtil::MakeShape(F32, {}), "alpha");
  auto x = Parameter(&b, 1, ShapeUtil::MakeShape(F32, {4}), "x");
  auto y = Parameter(&b, 2, ShapeUtil::MakeShape(F32, {4}), "y");
  Add(Mul(alpha, x), y);
  return BuildOrDie(b);
}

TEST(ClientTest, CreateWithOptionsAndTheEnvironment) {
  // The issue's signature, as embedders write it.
  StatusOr<std::unique_ptr<Client>> client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  EXPECT_NE((*client)->device_description().find("native"), std::string::npos);

  auto mobile = Client::Create({.profile = "mobile", .validation = false});
  ASSERT_TRUE(mobile.ok()) << mobile.status().ToString();
  EXPECT_NE((*mobile)->device_description().find("mobile"), std::string::npos) << (*mobile)->device_description();

  auto by_index = Client::Create({.device = "0"});
  EXPECT_TRUE(by_index.ok()) << by_index.status().ToString();

  auto missing = Client::Create({.device = "no such device anywhere"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no such device anywhere"), std::string::npos) << missing.status().ToString();

  auto bad_profile = Client::Create({.profile = "desktop"});
  ASSERT_FALSE(bad_profile.ok());
  EXPECT_NE(bad_profile.status().message().find("mobile"), std::string::npos) << bad_profile.status().ToString();
}

TEST(ClientTest, CompileTransferExecuteToLiteral) {
  const Client& client = SharedClient();
  auto executable = client.Compile(Axpy());
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  auto alpha = client.TransferToDevice(LiteralUtil::CreateR0<float>(3));
  auto x = client.TransferToDevice(LiteralUtil::CreateR1<float>({1, 2, 3, 4}));
  auto y = client.TransferToDevice(LiteralUtil::CreateR1<float>({10, 20, 30, 40}));
  ASSERT_TRUE(alpha.ok() && x.ok() && y.ok());
  EXPECT_EQ(x->shape(), ShapeUtil::MakeShape(F32, {4}));
  StatusOr<std::vector<Buffer>> results = (*executable)->Execute({&*alpha, &*x, &*y});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  ASSERT_EQ(results->size(), 1u);
  StatusOr<Literal> literal = (*results)[0].ToLiteral();
  ASSERT_TRUE(literal.ok()) << literal.status().ToString();
  EXPECT_EQ(*literal, LiteralUtil::CreateR1<float>({13, 26, 39, 52}));

  // Buffers by value still work (the tools' calls), and mismatches are argument errors.
  EXPECT_TRUE((*executable)->Execute({*alpha, *x, *y}).ok());
  auto wrong = (*executable)->Execute({&*x, &*x, &*y});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("argument 0 must be tensor<f32>"), std::string::npos) << wrong.status().ToString();
  auto null = (*executable)->Execute({&*alpha, nullptr, &*y});
  ASSERT_FALSE(null.ok());
  EXPECT_NE(null.status().message().find("argument 1 is a null pointer"), std::string::npos);

  EXPECT_FALSE(client.Compile(XlaComputation()).ok());
  EXPECT_FALSE(client.TransferToDevice(LiteralUtil::MakeTupleOwned({})).ok());
  EXPECT_FALSE(client.TransferToDevice(LiteralUtil::CreateToken()).ok());
}

TEST(ClientTest, CompileStableHloReportsLineAndColumn) {
  const Client& client = SharedClient();
  auto good = client.CompileStableHlo(Axpy().ToStableHlo());
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ((*good)->parameter_types().size(), 3u);

  auto bad = client.CompileStableHlo(
      "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %y = stablehlo.add %x, %z : tensor<2xf32>\n"
      "  return %y : tensor<2xf32>\n"
      "}\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(":2:"), std::string::npos) << bad.status().ToString();
}

// One Compile takes every kind of program: a built computation, its text, a portable artifact's
// bytes; result_types() says what Execute returns (tuples flattened, tokens left out).
TEST(ClientTest, OneCompileForComputationsTextAndArtifacts) {
  const Client& client = SharedClient();
  XlaBuilder b("tuples");
  auto x = Parameter(&b, 0, ShapeUtil::MakeShape(S32, {3}), "x");
  auto token = CreateToken(&b);
  Tuple(&b, {Neg(x), Tuple(&b, {ConvertElementType(x, F32), ConstantR0<bool>(&b, true)}), token, Iota(&b, U8, 2)});
  const XlaComputation computation = BuildOrDie(b);
  const std::vector<TensorType> expected = {{"i32", {3}}, {"f32", {3}}, {"i1", {}}, {"ui8", {2}}};
  const std::string text = computation.ToStableHlo();
  for (const ProgramSource& source : {ProgramSource(computation), ProgramSource(text)}) {
    auto executable = client.Compile(source, {.entry = "main"});
    ASSERT_TRUE(executable.ok()) << executable.status().ToString();
    EXPECT_EQ(executable->parameter_types(), (std::vector<TensorType>{{"i32", {3}}}));
    ASSERT_EQ(executable->result_types(), expected);
    auto arg = client.TransferToDevice(LiteralUtil::CreateR1<int32_t>({1, -2, 3}));
    ASSERT_TRUE(arg.ok()) << arg.status().ToString();
    auto results = executable->Execute({&*arg});
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    ASSERT_EQ(results->size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ((*results)[i].type(), expected[i]) << i;
  }

  // A portable artifact (VHLO bytecode, as jax.export writes it), as bytes.
  std::ifstream file(VKHLO_BYTECODE_MODELS_DIR "/mlp_forward.mlirbc", std::ios::binary);
  ASSERT_TRUE(file.good());
  const std::vector<uint8_t> artifact((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  auto from_bytes = client.Compile(artifact);
  ASSERT_TRUE(from_bytes.ok()) << from_bytes.status().ToString();
  EXPECT_FALSE(from_bytes->parameter_types().empty());
  EXPECT_FALSE(from_bytes->result_types().empty());

  // The options apply whatever the source: an entry that does not exist is an error.
  auto missing = client.Compile(computation, {.entry = "no_such_function"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no_such_function"), std::string::npos) << missing.status().ToString();
}

// Serialize writes the executable as a plan file that reads back with its signature; a
// shape-polymorphic executable has no plan of its own.
TEST(ClientTest, SerializeWritesAPlanFile) {
  const Client& client = SharedClient();
  auto executable = client.Compile(Axpy(), {});
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  auto bytes = executable->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto plan = plan::ReadPlan(*bytes);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->header.entry_name, "main");
  EXPECT_NE(plan::DescribeHeader(plan->header).find("entry @main(tensor<f32>, tensor<4xf32>, tensor<4xf32>)"),
            std::string::npos)
      << plan::DescribeHeader(plan->header);
  EXPECT_FALSE(plan->kernels.empty());

  auto polymorphic = client.Compile(R"(func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = stablehlo.add %x, %x : tensor<?xf32>
  func.return %y : tensor<?xf32>
})");
  ASSERT_TRUE(polymorphic.ok()) << polymorphic.status().ToString();
  ASSERT_TRUE(polymorphic->is_polymorphic());
  auto none = polymorphic->Serialize();
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kUnimplemented) << none.status().ToString();
}

TEST(ClientTest, UnknownPassNameIsAnError) {
  const Client& client = SharedClient();
  CompileOptions options;
  options.passes = "canonicalize,no-such-pass";
  auto executable = client.Compile(Axpy().ToStableHlo(), options);
  ASSERT_FALSE(executable.ok());
  EXPECT_NE(executable.status().message().find("unknown pass 'no-such-pass'"), std::string::npos)
      << executable.status().ToString();
  options.passes = "canonicalize,cse,dce";
  EXPECT_TRUE(client.Compile(Axpy().ToStableHlo(), options).ok());
}

TEST(ClientTest, TypesRoundTripThroughTheDevice) {
  const Client& client = SharedClient();
  const std::vector<Literal> literals = {
      LiteralUtil::CreateR1<bool>({true, false, true}),
      LiteralUtil::CreateR1<int8_t>({-128, 0, 127}),
      LiteralUtil::CreateR1<uint16_t>({0, 1, 65535}),
      LiteralUtil::CreateR1<int64_t>({-1, int64_t{1} << 40, 7}),
      LiteralUtil::CreateR1<half>({half(1.5f), half(-2.0f)}),
      LiteralUtil::CreateR1<bfloat16>({bfloat16(0.25f), bfloat16(3.0f)}),
      LiteralUtil::CreateR1<int4>({int4(-8), int4(7), int4(1)}),
      LiteralUtil::CreateR1<complex64>({{1, 2}, {-3, 4}}),
      LiteralUtil::CreateR2<double>({{1, 2}, {3, 4}}),
      LiteralUtil::CreateR1<float>({}),
  };
  for (const Literal& literal : literals) {
    auto buffer = client.TransferToDevice(literal);
    ASSERT_TRUE(buffer.ok()) << literal.ToString() << ": " << buffer.status().ToString();
    auto back = buffer->ToLiteral();
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, literal) << back->ToString();
  }
}

// xla_overview.md, "Layout": a literal in any layout goes in (the device keeps tensors
// row-major); results come back row-major, with the same values.
TEST(LayoutTest, LiteralsInAnyLayoutRoundTrip) {
  const Client& client = SharedClient();
  const Literal row_major = LiteralUtil::CreateR2<float>({{1, 2, 3}, {4, 5, 6}});
  const Literal column_major = row_major.Relayout(LayoutUtil::MakeLayout({0, 1}));
  ASSERT_EQ(*column_major.physical_data<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  auto buffer = client.TransferToDevice(column_major);
  ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
  auto back = buffer->ToLiteral();
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, row_major);
  EXPECT_EQ(back->shape().layout(), LayoutUtil::MakeLayout({1, 0}));
  EXPECT_EQ(*back->physical_data<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));

  // Through a computation: a column-major argument and a rank-3 one with layout {0, 2, 1}.
  XlaBuilder b("layouts");
  auto m = Parameter(&b, 0, ShapeUtil::MakeShapeWithLayout(F32, {2, 3}, {0, 1}), "m");
  auto c = Parameter(&b, 1, ShapeUtil::MakeShapeWithLayout(S32, {2, 2, 3}, {0, 2, 1}), "c");
  Tuple(&b, {Transpose(m, {1, 0}), Add(c, ConstantR0<int32_t>(&b, 100))});
  XlaComputation computation = BuildOrDie(b);
  std::vector<int32_t> values(12);
  for (int i = 0; i < 12; ++i) values[static_cast<size_t>(i)] = i;
  const Literal cube = LiteralUtil::CreateFromVectorWithLayout(values, {2, 2, 3}, {0, 2, 1});
  auto result = client.ExecuteAndTransfer(computation, {&column_major, &cube});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> parts = result->DecomposeTuple();
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], LiteralUtil::CreateR2<float>({{1, 4}, {2, 5}, {3, 6}}));
  for (int i = 0; i < 12; ++i) EXPECT_EQ(parts[1].data<int32_t>()[static_cast<size_t>(i)], 100 + i);
  // And the interpreter agrees (the harness checks the device as well).
  auto reference = testing::Execute(computation, {&column_major, &cube});
  ASSERT_TRUE(reference.ok());
}

TEST(ExecuteAndTransferTest, CompilesOncePerComputation) {
  auto created = Client::Create();
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const Client& client = **created;
  const XlaComputation axpy = Axpy();
  const Literal alpha = LiteralUtil::CreateR0<float>(2), x = LiteralUtil::CreateR1<float>({1, 2, 3, 4}),
                y = LiteralUtil::CreateR1<float>({1, 1, 1, 1});
  for (int i = 0; i < 3; ++i) {
    auto result = client.ExecuteAndTransfer(axpy, {&alpha, &x, &y});
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(*result, LiteralUtil::CreateR1<float>({3, 5, 7, 9}));
  }
  EXPECT_EQ(client.computations_compiled(), 1u);
  const XlaComputation copy = axpy;  // copies share the program: still one executable
  EXPECT_TRUE(client.ExecuteAndTransfer(copy, {&alpha, &x, &y}).ok());
  EXPECT_EQ(client.computations_compiled(), 1u);
  const XlaComputation other = Axpy();  // built again: another computation
  EXPECT_TRUE(client.ExecuteAndTransfer(other, {&alpha, &x, &y}).ok());
  EXPECT_EQ(client.computations_compiled(), 2u);

  auto too_few = client.ExecuteAndTransfer(axpy, {&alpha, &x});
  ASSERT_FALSE(too_few.ok());
  EXPECT_NE(too_few.status().message().find("takes 3 arguments, given 2"), std::string::npos);
  auto mistyped = client.ExecuteAndTransfer(axpy, {&alpha, &y, &alpha});
  ASSERT_FALSE(mistyped.ok());
  EXPECT_NE(mistyped.status().message().find("argument 2 must be f32[4]"), std::string::npos)
      << mistyped.status().ToString();
  EXPECT_FALSE(client.ExecuteAndTransfer(XlaComputation(), {}).ok());
}

TEST(ExecuteAndTransferTest, TupleResultsComeBackAsTuples) {
  XlaBuilder b("tuples");
  auto x = Parameter(&b, 0, ShapeUtil::MakeShape(S32, {3}), "x");
  auto token = CreateToken(&b);
  Tuple(&b, {Neg(x), Tuple(&b, {ConvertElementType(x, F32), ConstantR0<bool>(&b, true)}), token,
             Iota(&b, U8, 2)});
  XlaComputation computation = BuildOrDie(b);
  const Literal arg = LiteralUtil::CreateR1<int32_t>({1, -2, 3});
  auto result = SharedClient().ExecuteAndTransfer(computation, {&arg});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const Literal f = LiteralUtil::CreateR1<float>({1, -2, 3}), t = LiteralUtil::CreateR0<bool>(true);
  const Literal inner = LiteralUtil::MakeTuple({&f, &t});
  const Literal neg = LiteralUtil::CreateR1<int32_t>({-1, 2, -3}), tok = LiteralUtil::CreateToken(),
                iota = LiteralUtil::CreateR1<uint8_t>({0, 1});
  EXPECT_EQ(*result, LiteralUtil::MakeTuple({&neg, &inner, &tok, &iota})) << result->ToString();
}

// Errors while building stay with the builder: Build() reports the first, and nothing
// half-built reaches the device.
TEST(StickyErrorTest, NothingReachesTheDevice) {
  XlaBuilder b("broken");
  auto x = Parameter(&b, 0, ShapeUtil::MakeShape(F32, {2, 3}), "x");
  auto bad = Add(x, ConstantR1<float>(&b, {1, 2}));  // (2,3) + (2): needs broadcast_dimensions
  Neg(bad);
  StatusOr<XlaComputation> computation = b.Build();
  ASSERT_FALSE(computation.ok());
  EXPECT_NE(computation.status().message().find("f32[2,3]"), std::string::npos) << computation.status().ToString();
  EXPECT_FALSE(SharedClient().Compile(XlaComputation()).ok());
}

TEST(ExecutableTest, ConcurrentExecuteFromFourThreads) {
  const Client& client = SharedClient();
  auto executable = client.Compile(Axpy());
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  const Executable& exe = **executable;
  constexpr int kThreads = 4, kRuns = 8;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < kRuns; ++run) {
        const float a = static_cast<float>(t * 100 + run);
        auto alpha = client.TransferToDevice(LiteralUtil::CreateR0<float>(a));
        auto x = client.TransferToDevice(LiteralUtil::CreateR1<float>({1, 2, 3, 4}));
        auto y = client.TransferToDevice(LiteralUtil::CreateR1<float>({0, 0, 0, 1}));
        if (!alpha.ok() || !x.ok() || !y.ok()) {
          failures[static_cast<size_t>(t)] = "transfer failed";
          return;
        }
        auto results = exe.Execute({&*alpha, &*x, &*y});
        if (!results.ok()) {
          failures[static_cast<size_t>(t)] = results.status().ToString();
          return;
        }
        auto literal = (*results)[0].ToLiteral();
        if (!literal.ok() || *literal != LiteralUtil::CreateR1<float>({a, 2 * a, 3 * a, 4 * a + 1})) {
          failures[static_cast<size_t>(t)] = "wrong result for alpha " + std::to_string(a);
          return;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[static_cast<size_t>(t)], "") << "thread " << t;
}

}  // namespace
}  // namespace vkhlo

namespace vkhlo {
namespace {

// XLA's feed calls: infeed entries go in before Execute, outfeed entries come out after.
TEST(FeedApiTest, InfeedAndOutfeedThroughTheClient) {
  auto created = Client::Create();  // a client of its own: its queues start empty
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const Client& client = **created;
  XlaBuilder b("feeds");
  auto token = CreateToken(&b);
  auto pair = InfeedWithToken(token, ShapeUtil::MakeTupleShape({ShapeUtil::MakeShape(S32, {3}), ShapeUtil::MakeShape(F32, {})}));
  auto data = GetTupleElement(pair, 0);  // (s32[3], f32[]); element 1 is the token
  auto values = GetTupleElement(data, 0);
  auto scale = GetTupleElement(data, 1);
  auto doubled = Add(values, values);
  auto t1 = OutfeedWithToken(doubled, GetTupleElement(pair, 1), ShapeUtil::MakeShape(S32, {3}), "");
  auto scaled = Mul(scale, ConstantR0<float>(&b, 4.0f));
  OutfeedWithToken(Tuple(&b, {scaled, doubled}), t1,
                   ShapeUtil::MakeTupleShape({ShapeUtil::MakeShape(F32, {}), ShapeUtil::MakeShape(S32, {3})}), "");
  XlaComputation computation = BuildOrDie(b, values);
  auto exe = client.Compile(computation);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();

  // An infeed on an empty queue fails with the op's name.
  auto empty = (*exe)->Execute(std::vector<const Buffer*>{});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("infeed"), std::string::npos) << empty.status().ToString();

  ASSERT_TRUE(client
                  .TransferToInfeed(LiteralUtil::MakeTupleOwned(
                      {LiteralUtil::CreateR1<int32_t>({1, -2, 3}), LiteralUtil::CreateR0<float>(0.5f)}))
                  .ok());
  auto result = (*exe)->Execute(std::vector<const Buffer*>{});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(client.infeed().size(), 0u);
  // The wrong shape is an error naming both; the entry is gone either way.
  auto wrong = client.TransferFromOutfeed(ShapeUtil::MakeShape(F32, {3}));
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("expected f32[3]"), std::string::npos) << wrong.status().ToString();
  const Shape pair_shape = ShapeUtil::MakeTupleShape({ShapeUtil::MakeShape(F32, {}), ShapeUtil::MakeShape(S32, {3})});
  auto second = client.TransferFromOutfeed(pair_shape);  // a tuple outfeed comes back as a tuple
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(*second, LiteralUtil::MakeTupleOwned({LiteralUtil::CreateR0<float>(2.0f),
                                                  LiteralUtil::CreateR1<int32_t>({2, -4, 6})}));
  auto none = client.TransferFromOutfeed(ShapeUtil::MakeShape(S32, {3}));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("empty"), std::string::npos) << none.status().ToString();

  ASSERT_TRUE(client
                  .TransferToInfeed(LiteralUtil::MakeTupleOwned(
                      {LiteralUtil::CreateR1<int32_t>({7, 8, 9}), LiteralUtil::CreateR0<float>(2.0f)}))
                  .ok());
  ASSERT_TRUE((*exe)->Execute(std::vector<const Buffer*>{}).ok());
  auto first = client.TransferFromOutfeed(ShapeUtil::MakeShape(S32, {3}));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(*first, LiteralUtil::CreateR1<int32_t>({14, 16, 18}));
  auto both = client.TransferFromOutfeed(pair_shape);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ(*both, LiteralUtil::MakeTupleOwned(
                       {LiteralUtil::CreateR0<float>(8.0f), LiteralUtil::CreateR1<int32_t>({14, 16, 18})}));
}

}  // namespace
}  // namespace vkhlo
