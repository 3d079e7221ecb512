// Client::LoadExecutable (issue 22): a compiled executable serialized to a .vkx plan and loaded
// back runs with the same results, byte for byte (the five real models, control flow, constants,
// host callbacks, a test program's checks); what a loader must refuse — truncated or corrupted
// files, a device lacking what the plan needs, a host callback nobody registered — is a clear
// error, and a loaded executable writes the very bytes it was read from.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "plan/plan_reader.h"
#include "plan/plan_writer.h"
#include "runtime/runtime_internal.h"
#include "tests/support/device_fixture.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_files.h"
#include "vkhlo/checks.h"
#include "vkhlo/custom_call.h"
#include "vkhlo/runtime.h"

namespace vkhlo {
namespace {

using testing::ReadFile;
using testing::SharedClient;

const std::filesystem::path kModels = std::filesystem::path(VKHLO_SOURCE_DIR) / "tests/frontend/bytecode/models";

std::span<const uint8_t> Bytes(const std::string& s) {
  return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// Arguments for `types`: floats uniform in [-1, 1], integers small, booleans random.
std::vector<Buffer> Arguments(const Client& client, const std::vector<TensorType>& types, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Buffer> out;
  for (const TensorType& t : types) {
    const int64_t n = t.num_elements();
    std::vector<uint8_t> bytes;
    if (t.element_type == "f32") {
      std::uniform_real_distribution<float> value(-1.0f, 1.0f);
      bytes.resize(static_cast<size_t>(n) * 4);
      for (int64_t i = 0; i < n; ++i) {
        const float f = value(rng);
        std::memcpy(bytes.data() + 4 * i, &f, 4);
      }
    } else if (t.element_type == "i32" || t.element_type == "ui32") {
      bytes.resize(static_cast<size_t>(n) * 4);
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t v = static_cast<uint32_t>(rng() % 5);
        std::memcpy(bytes.data() + 4 * i, &v, 4);
      }
    } else if (t.element_type == "i1") {
      for (int64_t i = 0; i < n; ++i) bytes.push_back(static_cast<uint8_t>(rng() & 1));
    } else {
      ADD_FAILURE() << "no argument maker for " << t.ToString();
      return {};
    }
    auto buffer = client.BufferFromHost(t, bytes);
    EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
    if (!buffer.ok()) return {};
    out.push_back(std::move(*buffer));
  }
  return out;
}

// The results' bytes.
std::vector<std::vector<uint8_t>> Download(const std::vector<Buffer>& results) {
  std::vector<std::vector<uint8_t>> out;
  for (const Buffer& b : results) {
    auto bytes = b.ToHost();
    EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
    out.push_back(bytes.ok() ? std::move(*bytes) : std::vector<uint8_t>{});
  }
  return out;
}

// Compiles `program`, serializes it, loads the plan back, runs both on the same arguments and
// expects the same bytes; returns the plan's bytes.
std::vector<uint8_t> ExpectSameThroughPlan(const Client& client, const ProgramSource& program, const std::string& what) {
  SCOPED_TRACE(what);
  auto compiled = client.Compile(program);
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  if (!compiled.ok()) return {};
  auto bytes = compiled->Serialize();
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return {};
  auto loaded = client.LoadExecutable(*bytes);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  if (!loaded.ok()) return {};
  EXPECT_EQ(loaded->parameter_types(), compiled->parameter_types());
  EXPECT_EQ(loaded->result_types(), compiled->result_types());
  const std::vector<Buffer> arguments = Arguments(client, compiled->parameter_types(), 7);
  auto direct = compiled->ExecuteBuffers(arguments);
  auto through = loaded->ExecuteBuffers(arguments);
  EXPECT_TRUE(direct.ok()) << direct.status().ToString();
  EXPECT_TRUE(through.ok()) << through.status().ToString();
  if (!direct.ok() || !through.ok()) return {};
  EXPECT_EQ(Download(*through), Download(*direct));
  const ExecutionStats a = compiled->last_stats(), b = loaded->last_stats();
  EXPECT_EQ(a.kernels_dispatched, b.kernels_dispatched);
  EXPECT_EQ(a.command_buffers, b.command_buffers);
  EXPECT_EQ(a.predicate_readbacks, b.predicate_readbacks);
  // A loaded executable serializes to the bytes it was read from.
  auto again = loaded->Serialize();
  EXPECT_TRUE(again.ok() && *again == *bytes);
  return *bytes;
}

TEST(LoadExecutable, RealModelsRunAsCompiled) {
  const Client& client = SharedClient();
  for (const char* model : {"cnn_forward", "lstm_scan", "mlp_forward", "mlp_train_step", "transformer_block"}) {
    const std::string bytes = ReadFile(kModels / (std::string(model) + ".mlirbc"));
    const std::vector<uint8_t> plan = ExpectSameThroughPlan(client, ProgramSource(Bytes(bytes)), model);
    EXPECT_FALSE(plan.empty()) << model;
  }
}

// Control flow of every kind, buffer constants, a device kernel and tuples.
constexpr const char* kControlFlow = R"(
func.func @main(%x: tensor<64xf32>, %m: tensor<16x16xf32>, %k: tensor<i32>) -> (tensor<64xf32>, tensor<16x16xf32>, tensor<f32>) {
  %table = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0]> : tensor<64xf32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %ten = stablehlo.constant dense<10> : tensor<i32>
  %loop:3 = stablehlo.while(%i = %zero, %acc = %x, %mm = %m) : tensor<i32>, tensor<64xf32>, tensor<16x16xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %next = stablehlo.add %i, %one : tensor<i32>
      %scaled = stablehlo.multiply %acc, %table : tensor<64xf32>
      %squashed = stablehlo.tanh %scaled : tensor<64xf32>
      %prod = stablehlo.dot_general %mm, %m, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
      %norm = stablehlo.tanh %prod : tensor<16x16xf32>
      stablehlo.return %next, %squashed, %norm : tensor<i32>, tensor<64xf32>, tensor<16x16xf32>
    }
  %positive = stablehlo.compare GT, %k, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %picked = "stablehlo.if"(%positive) ({
    %s = stablehlo.add %loop#1, %table : tensor<64xf32>
    stablehlo.return %s : tensor<64xf32>
  }, {
    %n = stablehlo.negate %loop#1 : tensor<64xf32>
    stablehlo.return %n : tensor<64xf32>
  }) : (tensor<i1>) -> tensor<64xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%picked init: %init) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
  %branch = "stablehlo.case"(%k) ({
    stablehlo.return %sum : tensor<f32>
  }, {
    %d = stablehlo.add %sum, %sum : tensor<f32>
    stablehlo.return %d : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %picked, %loop#2, %branch : tensor<64xf32>, tensor<16x16xf32>, tensor<f32>
}
)";

TEST(LoadExecutable, ControlFlowConstantsAndKernelsRunAsCompiled) {
  ExpectSameThroughPlan(SharedClient(), ProgramSource(kControlFlow), "control flow");
}

TEST(LoadExecutable, DamagedFilesAreDataLossAndNeverRun) {
  const Client& client = SharedClient();
  auto compiled = client.Compile(ProgramSource(kControlFlow));
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  auto bytes = compiled->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  for (size_t cut : {size_t{0}, size_t{7}, bytes->size() / 2, bytes->size() - 1}) {
    auto loaded = client.LoadExecutable(std::span<const uint8_t>(bytes->data(), cut));
    ASSERT_FALSE(loaded.ok()) << "truncated to " << cut;
    EXPECT_EQ(loaded.status().code(), StatusCode::kDataLoss) << loaded.status().ToString();
  }
  for (size_t at : {size_t{20}, bytes->size() / 3, bytes->size() - 5}) {
    std::vector<uint8_t> damaged = *bytes;
    damaged[at] ^= 0x5a;
    auto loaded = client.LoadExecutable(damaged);
    ASSERT_FALSE(loaded.ok()) << "byte " << at;
    EXPECT_EQ(loaded.status().code(), StatusCode::kDataLoss) << loaded.status().ToString();
  }
  // The client still compiles and runs afterwards.
  auto loaded = client.LoadExecutable(*bytes);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
}

// kControlFlow compiled, serialized and read back: a plan to damage and write again.
plan::Plan ControlFlowPlan(const Client& client) {
  auto compiled = client.Compile(ProgramSource(kControlFlow));
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  if (!compiled.ok()) return {};
  auto bytes = compiled->Serialize();
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return {};
  auto plan = plan::ReadPlan(*bytes);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  return plan.ok() ? std::move(*plan) : plan::Plan{};
}

// A file whose CRCs are right but whose kernel is no valid SPIR-V (written on purpose): refused
// before the driver sees it.
TEST(LoadExecutable, KernelsThatAreNotValidSpirvNeverReachTheDriver) {
  const Client& client = SharedClient();
  const plan::Plan plan = ControlFlowPlan(client);
  ASSERT_FALSE(plan.kernels.empty());
  for (int damage = 0; damage < 2; ++damage) {
    plan::Plan bad = plan;
    std::vector<uint32_t>& words = bad.kernels[0].spirv;
    if (damage == 0) {
      words.resize(words.size() - 3);  // the last instruction cut short
    } else {
      words[5] = 0xffff0000u | (words[5] & 0xffffu);  // an instruction claiming 65535 words
    }
    auto loaded = client.LoadExecutable(plan::WritePlan(bad));
    ASSERT_FALSE(loaded.ok()) << "damage " << damage;
    EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument) << loaded.status().ToString();
    EXPECT_NE(loaded.status().message().find("plan kernel '" + bad.kernels[0].name + "'"), std::string::npos)
        << loaded.status().ToString();
  }
}

TEST(LoadExecutable, ADeviceLackingWhatThePlanNeedsIsToldWhat) {
  const Client& client = SharedClient();
  plan::Plan plan = ControlFlowPlan(client);
  ASSERT_FALSE(plan.kernels.empty());
  plan.header.requirements.shared_memory_bytes = 1u << 30;  // no device has a GiB of shared memory
  const std::vector<uint8_t> rewritten = plan::WritePlan(plan);
  auto loaded = client.LoadExecutable(rewritten);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kFailedPrecondition) << loaded.status().ToString();
  EXPECT_NE(loaded.status().message().find("maxComputeSharedMemorySize"), std::string::npos) << loaded.status().ToString();
}

constexpr const char* kHostCallback = R"(
func.func @main(%x: tensor<6xi32>) -> tensor<6xi32> {
  %d = stablehlo.add %x, %x : tensor<6xi32>
  %c = stablehlo.custom_call @test.load.prefix_sum(%d) {has_side_effect = true, backend_config = "scale=3"} : (tensor<6xi32>) -> tensor<6xi32>
  %one = stablehlo.constant dense<1> : tensor<6xi32>
  %r = stablehlo.subtract %c, %one : tensor<6xi32>
  return %r : tensor<6xi32>
}
)";

Status RegisterPrefixSum(const Client& client) {
  return client.custom_calls().RegisterHostCallback(
      "test.load.prefix_sum",
      [](std::span<const Literal> in, std::span<Literal> out, const CustomCallContext& context) -> Status {
        const std::string config(context.backend_config);
        const int32_t scale = std::stoi(config.substr(config.find('=') + 1));
        int32_t sum = 0;
        for (size_t i = 0; i < in[0].data<int32_t>().size(); ++i) {
          sum += in[0].data<int32_t>()[i];
          out[0].data<int32_t>()[i] = sum * scale;
        }
        return OkStatus();
      },
      CustomCallSignature{{{"i32", std::nullopt}}, {{"i32", std::nullopt}}});
}

TEST(LoadExecutable, HostCallbacksAreFoundByNameWhenLoading) {
  auto compiler = runtime::CreateClient(testing::TestDeviceOptions());
  ASSERT_TRUE(compiler.ok()) << compiler.status().ToString();
  ASSERT_TRUE(RegisterPrefixSum(*compiler).ok());
  auto compiled = compiler->Compile(ProgramSource(kHostCallback));
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  auto bytes = compiled->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();

  auto runner = runtime::CreateClient(testing::TestDeviceOptions());
  ASSERT_TRUE(runner.ok()) << runner.status().ToString();
  auto missing = runner->LoadExecutable(*bytes);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("test.load.prefix_sum"), std::string::npos) << missing.status().ToString();

  ASSERT_TRUE(RegisterPrefixSum(*runner).ok());
  auto loaded = runner->LoadExecutable(*bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const std::vector<int32_t> x = {1, 2, 3, 4, 5, 6};
  std::vector<uint8_t> x_bytes(24);
  std::memcpy(x_bytes.data(), x.data(), 24);
  auto arg = runner->BufferFromHost(TensorType{"i32", {6}}, x_bytes);
  ASSERT_TRUE(arg.ok()) << arg.status().ToString();
  auto results = loaded->Execute(std::vector<Buffer>{*arg});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  auto out = (*results)[0].ToHost();
  ASSERT_TRUE(out.ok());
  std::vector<int32_t> values(6);
  std::memcpy(values.data(), out->data(), 24);
  // 2x = 2 4 6 8 10 12; prefix sums 2 6 12 20 30 42; times 3, minus 1.
  EXPECT_EQ(values, (std::vector<int32_t>{5, 17, 35, 59, 89, 125}));
}

TEST(LoadExecutable, ATestProgramsChecksTravelInThePlan) {
  const Client& client = SharedClient();
  CompileOptions options;
  options.checks = true;
  auto compiled = client.Compile(ProgramSource(std::string(R"(
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.add %a, %a : tensor<2xf32>
  check.expect_almost_eq_const %b, dense<[2.0, 4.0]> : tensor<2xf32>
  func.return
}
)")), options);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  auto bytes = compiled->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto loaded = client.LoadExecutable(*bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const CompiledChecks* a = compiled->checks();
  const CompiledChecks* b = loaded->checks();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->function, a->function);
  EXPECT_EQ(b->program_results, a->program_results);
  ASSERT_EQ(b->results.size(), a->results.size());
  ASSERT_EQ(b->results.size(), 1u);
  EXPECT_EQ(b->results[0].location, a->results[0].location);
  EXPECT_EQ(b->results[0].comparison.kind, CheckComparison::Kind::kAlmost);
  ASSERT_TRUE(b->results[0].expected.has_value());
  EXPECT_EQ(b->results[0].expected->bytes, a->results[0].expected->bytes);
  auto results = loaded->Execute({});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  EXPECT_EQ(results->size(), 1u);
}

TEST(LoadExecutable, ArgumentsAreCheckedAgainstThePlansSignature) {
  const Client& client = SharedClient();
  auto compiled = client.Compile(ProgramSource(kControlFlow));
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  auto bytes = compiled->Serialize();
  ASSERT_TRUE(bytes.ok());
  auto loaded = client.LoadExecutable(*bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  auto none = loaded->Execute({});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("@main takes 3 arguments, given 0"), std::string::npos) << none.status().ToString();
}

}  // namespace
}  // namespace vkhlo
