// Real jax.export artifacts (tests/frontend/bytecode/models, made by tools/bytecode/export_models.py):
// an MLP and its training step, a small CNN, a transformer block and an LSTM over lax.scan.
// Each runs from its .mlirbc file through vkhlo-run (reference interpreter and Vulkan) and
// through the C++ API (Client::CompileStableHlo on the artifact's bytes), and its results must
// match JAX's CPU results saved beside it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "builder/literal_conversion.h"
#include "tests/support/test_files.h"
#include "tools/common/npy.h"
#include "vkhlo/portable_artifact.h"
#include "vkhlo/runtime.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

const fs::path kModels = VKHLO_BYTECODE_MODELS_DIR;

std::vector<fs::path> Numbered(const std::string& model, const std::string& kind) {
  std::vector<fs::path> files;
  for (int i = 0; fs::exists(kModels / fmt::format("{}.{}{}.npy", model, kind, i)); ++i) {
    files.push_back(kModels / fmt::format("{}.{}{}.npy", model, kind, i));
  }
  return files;
}

// JAX's CPU results against vkhlo's: f32, within a few ulps of the largest magnitudes.
void ExpectClose(const ir::Literal& actual, const ir::Literal& expected, const std::string& what) {
  ASSERT_EQ(actual.type(), expected.type()) << what;
  for (int64_t i = 0; i < expected.num_elements(); ++i) {
    const double a = actual.GetFloat(i), e = expected.GetFloat(i);
    ASSERT_LE(std::abs(a - e), 2e-5 + 1e-4 * std::abs(e)) << what << " element " << i << ": " << a << " vs JAX's " << e;
  }
}

class JaxExportedModel : public ::testing::TestWithParam<std::string> {};

TEST_P(JaxExportedModel, RunsThroughVkhloRunAsOnJaxCpu) {
  const std::string& model = GetParam();
  for (const char* device : {"reference", "vulkan"}) {
    const fs::path out = fs::path(::testing::TempDir()) / fmt::format("bytecode_{}_{}", model, device);
    fs::remove_all(out);
    std::string command = fmt::format("{} --device={} {} --output-dir={}", VKHLO_RUN, device,
                                      (kModels / (model + ".mlirbc")).string(), out.string());
    for (const fs::path& input : Numbered(model, "in")) command += " --input=" + input.string();
    ASSERT_EQ(std::system((command + " > " + (out.string() + ".log") + " 2>&1").c_str()), 0)
        << command << "\n" << testing::ReadFile(out.string() + ".log");
    const std::vector<fs::path> expected = Numbered(model, "out");
    ASSERT_FALSE(expected.empty());
    for (size_t i = 0; i < expected.size(); ++i) {
      auto actual = tools::ReadNpy((out / fmt::format("result_{}.npy", i)).string());
      ASSERT_TRUE(actual.ok()) << actual.status().message();
      ExpectClose(*actual, *tools::ReadNpy(expected[i].string()), fmt::format("{} on {}: result {}", model, device, i));
    }
  }
}

TEST_P(JaxExportedModel, CompilesFromBytesThroughTheCppApi) {
  const std::string& model = GetParam();
  const std::string bytes = testing::ReadFile(kModels / (model + ".mlirbc"));
  const std::span<const uint8_t> program(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  ASSERT_TRUE(IsPortableArtifact(program));
  auto info = InspectPortableArtifact(program);
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->bytecode_version, 6u);
  ASSERT_TRUE(info->stablehlo_version.has_value()) << info->producer;
  EXPECT_EQ(info->stablehlo_version->ToString(), "1.15.0");  // jax 0.10.2's WEEK_4

  auto client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  auto executable = (*client)->CompileStableHlo(program);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  std::vector<Buffer> buffers;
  for (const fs::path& input : Numbered(model, "in")) {
    auto literal = tools::ReadNpy(input.string());
    ASSERT_TRUE(literal.ok()) << literal.status().message();
    auto host = internal::FromIrLiteral(*literal);
    ASSERT_TRUE(host.ok()) << host.status().ToString();
    auto buffer = (*client)->TransferToDevice(*host);
    ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
    buffers.push_back(std::move(buffer).value());
  }
  std::vector<const Buffer*> arguments;
  for (const Buffer& b : buffers) arguments.push_back(&b);
  auto results = (*executable)->Execute(arguments);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  const std::vector<fs::path> expected = Numbered(model, "out");
  ASSERT_EQ(results->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    auto literal = (*results)[i].ToLiteral();
    ASSERT_TRUE(literal.ok()) << literal.status().ToString();
    auto actual = internal::ToIrLiteral(*literal);
    ASSERT_TRUE(actual.ok()) << actual.status().ToString();
    ExpectClose(*actual, *tools::ReadNpy(expected[i].string()), fmt::format("{} through the API: result {}", model, i));
  }
}

INSTANTIATE_TEST_SUITE_P(Models, JaxExportedModel,
                         ::testing::Values("mlp_forward", "mlp_train_step", "cnn_forward", "transformer_block",
                                           "lstm_scan"));

}  // namespace
}  // namespace vkhlo
