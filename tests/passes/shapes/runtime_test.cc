// Self-specialising executables (include/vkhlo/runtime.h): the first Execute with new argument
// shapes (and shape-argument values) compiles a specialisation, later ones reuse it; the cache
// is bounded; Specialize and CompileOptions::argument_types compile ahead of time; errors say
// which argument and which constraint; concurrent Executes compile each shape once.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <thread>

#include "runtime/runtime_internal.h"

namespace vkhlo {
namespace {

// Rows of x (any count) plus n * [0, 1, 2] where n, a dimension argument, says how many rows
// the iota broadcast has: n must equal the rows.
constexpr const char* kProgram = R"(
func.func @main(%x: tensor<?x3xf32>, %n: tensor<i32>) -> tensor<?x3xf32> {
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %three = stablehlo.constant dense<[3]> : tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %three, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %iota = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi32>) -> tensor<?x3xf32>
  %r = stablehlo.add %x, %iota : tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
)";

class Polymorphic : public ::testing::Test {
 protected:
  void SetUp() override {
    auto client = Client::Create(options_);
    ASSERT_TRUE(client.ok()) << client.status().message();
    client_ = std::move(*client);
  }

  Buffer Rows(int64_t rows, float value) {
    std::vector<float> data(static_cast<size_t>(rows * 3), value);
    auto b = client_->BufferFromHost({"f32", {rows, 3}}, std::span(reinterpret_cast<const uint8_t*>(data.data()), data.size() * 4));
    EXPECT_TRUE(b.ok()) << b.status().message();
    return *b;
  }
  Buffer Scalar(int32_t v) {
    auto b = client_->BufferFromHost({"i32", {}}, std::span(reinterpret_cast<const uint8_t*>(&v), 4));
    EXPECT_TRUE(b.ok()) << b.status().message();
    return *b;
  }
  static std::vector<float> Floats(const Buffer& b) {
    auto bytes = b.ToHost();
    EXPECT_TRUE(bytes.ok());
    std::vector<float> out(bytes->size() / 4);
    std::memcpy(out.data(), bytes->data(), bytes->size());
    return out;
  }

  ClientOptions options_;
  std::unique_ptr<Client> client_;
};

TEST_F(Polymorphic, SpecialisesOncePerShapeAndValue) {
  auto executable = client_->Compile(kProgram);
  ASSERT_TRUE(executable.ok()) << executable.status().message();
  ASSERT_TRUE(executable->is_polymorphic());
  EXPECT_EQ(executable->shape_arguments(), (std::vector<int64_t>{1}));
  ASSERT_EQ(executable->parameter_types().size(), 2u);
  EXPECT_EQ(executable->parameter_types()[0].ToString(), "tensor<?x3xf32>");
  for (int64_t rows : {2, 5, 2, 5, 1}) {
    auto results = executable->Execute({Rows(rows, 10.0f), Scalar(static_cast<int32_t>(rows))});
    ASSERT_TRUE(results.ok()) << results.status().message();
    ASSERT_EQ((*results)[0].type().ToString(), fmt::format("tensor<{}x3xf32>", rows));
    const std::vector<float> values = Floats((*results)[0]);
    for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(values[i], 10.0f + static_cast<float>(i % 3));
  }
  const SpecializationStats stats = executable->specialization_stats();
  EXPECT_EQ(stats.compiled, 3u);
  EXPECT_EQ(stats.hits, 2u);
  EXPECT_EQ(stats.cached, 3u);
  EXPECT_GT(stats.compile_ms, 0.0);
  EXPECT_EQ(executable->last_stats().host_evaluated_ops, 0u);
}

TEST_F(Polymorphic, ContradictingSizesAreErrorsNamingOpAndValues) {
  auto executable = client_->Compile(kProgram);
  ASSERT_TRUE(executable.ok()) << executable.status().message();
  // A dimension argument of 5 for 3 rows.
  auto results = executable->Execute({Rows(3, 1.0f), Scalar(5)});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(results.status().message().find(
                "error: 'stablehlo.add' operand types must match (C1): expected tensor<3x3xf32>, found tensor<5x3xf32>"),
            std::string::npos)
      << results.status().message();
  // A rank the program cannot take, and an element type.
  auto rank = executable->Execute({Rows(3, 1.0f), Rows(1, 1.0f)});
  ASSERT_FALSE(rank.ok());
  EXPECT_NE(rank.status().message().find("@main: argument 1 must be tensor<i32>, given tensor<1x3xf32>"),
            std::string::npos)
      << rank.status().message();
  // Nothing was cached for the failures; the executable still works.
  EXPECT_EQ(executable->specialization_stats().cached, 0u);
  EXPECT_TRUE(executable->Execute({Rows(3, 1.0f), Scalar(3)}).ok());
}

TEST_F(Polymorphic, AheadOfTime) {
  auto executable = client_->Compile(kProgram);
  ASSERT_TRUE(executable.ok()) << executable.status().message();
  auto specialized = executable->Specialize({{"f32", {4, 3}}, {"i32", {}}}, {{1, 4}});
  ASSERT_TRUE(specialized.ok()) << specialized.status().message();
  EXPECT_FALSE(specialized->is_polymorphic());
  EXPECT_EQ(specialized->parameter_types()[0].ToString(), "tensor<4x3xf32>");
  EXPECT_GT(specialized->compile_stats().kernels, 0u);
  auto results = specialized->Execute({Rows(4, 0.5f), Scalar(4)});
  ASSERT_TRUE(results.ok()) << results.status().message();
  // The polymorphic executable finds it cached.
  ASSERT_TRUE(executable->Execute({Rows(4, 0.5f), Scalar(4)}).ok());
  EXPECT_EQ(executable->specialization_stats().compiled, 1u);
  EXPECT_EQ(executable->specialization_stats().hits, 1u);
  // A missing value for the shape argument is an error saying so.
  auto missing = executable->Specialize({{"f32", {4, 3}}, {"i32", {}}});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("argument 1 of @main (tensor<i32>) decides shapes"), std::string::npos)
      << missing.status().message();

  // CompileOptions::argument_types: a static executable straight away.
  CompileOptions options;
  options.argument_types = {{"f32", {2, 3}}, {"i32", {}}};
  options.argument_values = {{1, 2}};
  auto direct = client_->Compile(kProgram, options);
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  EXPECT_FALSE(direct->is_polymorphic());
  auto out = direct->Execute({Rows(2, 1.0f), Scalar(2)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(Floats((*out)[0]), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  // A static program takes only its own types.
  CompileOptions wrong;
  wrong.argument_types = {{"f32", {5}}};
  auto refused = client_->Compile("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }",
                                  wrong);
  ASSERT_FALSE(refused.ok());
}

TEST_F(Polymorphic, CacheIsBounded) {
  options_.specialization_cache_entries = 2;
  SetUp();
  auto executable = client_->Compile(kProgram);
  ASSERT_TRUE(executable.ok()) << executable.status().message();
  for (int64_t rows : {1, 2, 3, 1}) {
    ASSERT_TRUE(executable->Execute({Rows(rows, 0.0f), Scalar(static_cast<int32_t>(rows))}).ok());
  }
  const SpecializationStats stats = executable->specialization_stats();
  EXPECT_EQ(stats.cached, 2u);
  EXPECT_EQ(stats.compiled, 4u);  // 1 was evicted by 3 and compiled again
  EXPECT_EQ(stats.evicted, 2u);
}

TEST_F(Polymorphic, ConcurrentFirstCallsCompileEachShapeOnce) {
  auto executable = client_->Compile(kProgram);
  ASSERT_TRUE(executable.ok()) << executable.status().message();
  std::vector<std::thread> threads;
  std::atomic<int> failures = 0;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 6; ++i) {
        const int64_t rows = 1 + (t + i) % 3;
        auto r = executable->Execute({Rows(rows, 1.0f), Scalar(static_cast<int32_t>(rows))});
        if (!r.ok() || Floats((*r)[0]).size() != static_cast<size_t>(rows * 3)) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(executable->specialization_stats().compiled, 3u);
  EXPECT_EQ(executable->specialization_stats().hits, 21u);
}

// A static signature whose insides are dynamic compiles into a static executable at once.
TEST_F(Polymorphic, StaticSignatureDynamicInsidesCompilesOnce) {
  auto executable = client_->Compile(R"(
func.func @main(%x: tensor<3x2xf32>) -> tensor<?x2xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<3x2xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<[2]> : tensor<1xi32>
  %s = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.dynamic_broadcast_in_dim %one, %s, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
  %r = stablehlo.add %x, %b : (tensor<3x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
)");
  ASSERT_TRUE(executable.ok()) << executable.status().message();
  EXPECT_FALSE(executable->is_polymorphic());
  EXPECT_EQ(executable->parameter_types()[0].ToString(), "tensor<3x2xf32>");
}

}  // namespace
}  // namespace vkhlo
