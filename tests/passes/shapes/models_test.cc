// Models exported once from JAX with symbolic dimensions (tests/passes/shapes/models, made by
// tools/bytecode/export_polymorphic.py): an MLP and a transformer block with a symbolic batch, a
// block over a symbolic sequence length, and slicing/strided convolution over symbolic sizes.
// Each polymorphic artifact is compiled once (Client::CompileStableHlo) and run on the Vulkan
// device at several sizes; every result must match the same model exported at that static
// size (run on the device too), JAX's CPU results, and the interpreter on the polymorphic
// program. The cost of a specialisation (first call with a new size) against a cached call is
// printed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include "frontend/bytecode/program.h"
#include "interp/interpreter.h"
#include "passes/pipeline.h"
#include "runtime/runtime_internal.h"
#include "tests/support/test_files.h"
#include "tools/common/npy.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const fs::path kModels = VKHLO_SHAPES_MODELS_DIR;

struct Model {
  std::string name;
  std::vector<int> sizes;
};

std::vector<Model> Models() {
  return {{"mlp", {1, 3, 8}}, {"transformer", {1, 2, 5}}, {"sequence", {1, 4, 7}}, {"trim_stride", {3, 6, 9}}};
}

std::vector<ir::Literal> Numbered(const std::string& stem, const std::string& kind) {
  std::vector<ir::Literal> literals;
  for (int i = 0; fs::exists(kModels / fmt::format("{}.{}{}.npy", stem, kind, i)); ++i) {
    auto literal = tools::ReadNpy((kModels / fmt::format("{}.{}{}.npy", stem, kind, i)).string());
    EXPECT_TRUE(literal.ok()) << literal.status().message();
    if (literal.ok()) literals.push_back(std::move(*literal));
  }
  return literals;
}

std::string Bytes(const std::string& file) { return testing::ReadFile(kModels / file); }

StatusOr<std::vector<ir::Literal>> RunOn(const Executable& executable, const Client& client,
                                       const std::vector<ir::Literal>& inputs) {
  std::vector<Buffer> arguments;
  for (const ir::Literal& l : inputs) {
    VKHLO_ASSIGN_OR_RETURN(Buffer b, runtime::BufferFromLiteral(client, l));
    arguments.push_back(std::move(b));
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable.Execute(arguments));
  std::vector<ir::Literal> out;
  for (const Buffer& b : results) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal l, runtime::BufferToLiteral(b));
    out.push_back(std::move(l));
  }
  return out;
}

void ExpectClose(const ir::Literal& actual, const ir::Literal& expected, double tolerance, const std::string& what) {
  ASSERT_EQ(actual.type(), expected.type()) << what;
  for (int64_t i = 0; i < expected.num_elements(); ++i) {
    const double a = actual.GetFloat(i), e = expected.GetFloat(i);
    ASSERT_LE(std::abs(a - e), tolerance * (1 + std::abs(e))) << what << " element " << i << ": " << a << " vs " << e;
  }
}

class PolymorphicModel : public ::testing::TestWithParam<Model> {};

TEST_P(PolymorphicModel, ExportOnceRunAtEverySize) {
  const Model& model = GetParam();
  auto client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.status().message();
  const std::string poly = Bytes(model.name + ".poly.mlirbc");
  ASSERT_FALSE(poly.empty());
  auto compiled = (*client)->Compile(poly);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const Executable& executable = *compiled;
  ASSERT_TRUE(executable.is_polymorphic());
  EXPECT_TRUE(executable.shape_arguments().empty());  // JAX derives its dimensions from the shapes
  bool some_dynamic = false;
  for (const TensorType& t : executable.parameter_types()) {
    for (int64_t d : t.dims) some_dynamic |= d < 0;
  }
  EXPECT_TRUE(some_dynamic);

  // The oracle: the interpreter on the polymorphic program as it is.
  auto reference = frontend::ParseProgram(poly, {model.name + ".poly.mlirbc", 1});
  ASSERT_TRUE(reference.ok()) << reference.status().message();
  auto decompose = passes::PassPipeline::Parse("chlo-decompose");
  ASSERT_TRUE(decompose->Run(**reference).ok());

  for (int n : model.sizes) {
    SCOPED_TRACE(fmt::format("{} at size {}", model.name, n));
    const std::string stem = fmt::format("{}.{}", model.name, n);
    const std::vector<ir::Literal> inputs = Numbered(stem, "in");
    const std::vector<ir::Literal> jax = Numbered(stem, "out");
    ASSERT_FALSE(inputs.empty());
    ASSERT_FALSE(jax.empty());

    auto polymorphic = RunOn(executable, **client, inputs);
    ASSERT_TRUE(polymorphic.ok()) << polymorphic.status().message();
    auto fixed = (*client)->Compile(Bytes(stem + ".mlirbc"));
    ASSERT_TRUE(fixed.ok()) << fixed.status().message();
    ASSERT_FALSE(fixed->is_polymorphic());
    auto static_results = RunOn(*fixed, **client, inputs);
    ASSERT_TRUE(static_results.ok()) << static_results.status().message();
    interp::InterpValues values;
    for (const ir::Literal& l : inputs) values.push_back(interp::InterpValue::Tensor(l));
    auto interpreted = interp::RunFunction(**reference, "main", values);
    ASSERT_TRUE(interpreted.ok()) << interpreted.status().message();

    ASSERT_EQ(polymorphic->size(), jax.size());
    ASSERT_EQ(static_results->size(), jax.size());
    ASSERT_EQ(interpreted->outputs.size(), jax.size());
    for (size_t i = 0; i < jax.size(); ++i) {
      ExpectClose((*polymorphic)[i], (*static_results)[i], 1e-6, fmt::format("result {} against the static export", i));
      ExpectClose((*polymorphic)[i], interpreted->outputs[i].literal(), 2e-5,
                  fmt::format("result {} against the interpreter", i));
      ExpectClose((*polymorphic)[i], jax[i], 2e-4, fmt::format("result {} against JAX on CPU", i));
    }
  }
  const SpecializationStats stats = executable.specialization_stats();
  EXPECT_EQ(stats.compiled, model.sizes.size());
  EXPECT_EQ(stats.cached, model.sizes.size());
}

INSTANTIATE_TEST_SUITE_P(Jax, PolymorphicModel, ::testing::ValuesIn(Models()),
                         [](const ::testing::TestParamInfo<Model>& info) { return info.param.name; });

// What specialising costs: the first call with a new batch size refines and compiles; a call
// with a size seen before only looks its executable up. Printed for docs/benchmarks.md.
TEST(Specialization, NewSizeCostsACompileCachedOneDoesNot) {
  auto client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.status().message();
  auto compiled = (*client)->Compile(Bytes("transformer.poly.mlirbc"));
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const Executable& executable = *compiled;
  const std::vector<ir::Literal> inputs = Numbered("transformer.2", "in");
  auto time = [&]() {
    const Clock::time_point start = Clock::now();
    auto results = RunOn(executable, **client, inputs);
    EXPECT_TRUE(results.ok()) << results.status().message();
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  };
  const double first = time();
  double cached = 1e9;
  for (int i = 0; i < 5; ++i) cached = std::min(cached, time());
  const SpecializationStats stats = executable.specialization_stats();
  EXPECT_EQ(stats.compiled, 1u);
  EXPECT_EQ(stats.hits, 5u);
  std::printf("transformer block, batch 2: first call %.2f ms (specialisation %.2f ms), cached call %.2f ms\n", first,
              stats.last_compile_ms, cached);
  EXPECT_LT(cached, first);
}

}  // namespace
}  // namespace vkhlo
