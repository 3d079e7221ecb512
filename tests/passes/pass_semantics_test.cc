// The passes preserve meaning: every conformance program chunk (../shared/conformance, split at
// `// -----` lines) is run by the reference interpreter as parsed and again after passes; exactly
// the chunks whose test functions passed before must pass after, and the ones that failed must
// still fail. (RunTestFunctions runs chlo-decompose first, as the reference path does.) Each pass
// is tried on its own, so a failure names the pass, and then whole pipelines.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "frontend/parser.h"
#include "passes/pipeline.h"
#include "tests/support/test_files.h"
#include "tools/vkhlo-run/check_runner.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = VKHLO_CONFORMANCE_DIR;

struct Chunk {
  std::string key;  // "interpret/add.mlir:15"
  std::string text;
  frontend::ParseOptions options;
};

const std::vector<Chunk>& Chunks() {
  static const auto* chunks = [] {
    auto* out = new std::vector<Chunk>();
    if (!fs::exists(kRoot)) return out;
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(kRoot)) {
      if (entry.path().extension() == ".mlir") files.push_back(fs::relative(entry.path(), kRoot).string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& file : files) {
      const std::string text = testing::ReadFile(kRoot / file);
      for (const frontend::SourceChunk& chunk : frontend::SplitInputFile(text)) {
        frontend::ParseOptions options;
        options.source_name = file;
        options.first_line = chunk.first_line;
        out->push_back({file + ":" + std::to_string(chunk.first_line), std::string(chunk.text), options});
      }
    }
    return out;
  }();
  return *chunks;
}

// Empty when every test function of the chunk passes, else why not.
std::string Outcome(const Chunk& chunk, const passes::PassPipeline* pipeline) {
  auto module = frontend::ParseModule(chunk.text, chunk.options);
  if (!module.ok()) return "parse: " + module.status().message();
  if (Status status = verify::VerifyModule(**module); !status.ok()) return "verify: " + status.message();
  if (pipeline != nullptr) {
    auto ran = pipeline->Run(**module);
    if (!ran.ok()) return "passes: " + ran.status().message();
  }
  for (const tools::TestOutcome& test : tools::RunTestFunctions(**module)) {
    if (!test.passed) return "@" + test.name + ": " + test.message;
  }
  return "";
}

// As parsed, computed once for all the pipelines.
const std::map<std::string, std::string>& Baseline() {
  static const auto* baseline = [] {
    auto* out = new std::map<std::string, std::string>();
    for (const Chunk& chunk : Chunks()) (*out)[chunk.key] = Outcome(chunk, nullptr);
    return out;
  }();
  return *baseline;
}

// Every chunk keeps its outcome (pass or fail) through `pipeline`.
void ExpectSameOutcomes(const passes::PassPipeline& pipeline, const std::string& name) {
  ASSERT_GT(Chunks().size(), 500u) << "the conformance programs are missing: " << kRoot;
  int passing = 0;
  for (const Chunk& chunk : Chunks()) {
    const std::string& before = Baseline().at(chunk.key);
    const std::string after = Outcome(chunk, &pipeline);
    if (before.empty()) {
      ++passing;
      EXPECT_EQ(after, "") << chunk.key << " passed before '" << name << "' and fails after";
    } else {
      EXPECT_NE(after, "") << chunk.key << " failed before '" << name << "' (" << before
                           << ") and passes after";
    }
  }
  EXPECT_GT(passing, 500);
}

class PassSemantics : public ::testing::TestWithParam<std::string> {};

TEST_P(PassSemantics, ConformanceChunksKeepTheirOutcome) {
  auto pipeline = passes::PassPipeline::Parse(GetParam());
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();
  ExpectSameOutcomes(*pipeline, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Pipelines, PassSemantics,
                         ::testing::Values("inline", "canonicalize", "fold-constants", "cse",
                                           "batch-norm-decompose", "quantized-decompose", "hoist-loop-products", "split-large-ffts",
                                           "transposed-products",
                                           "inline,batch-norm-decompose,canonicalize,fold-constants,cse,dce"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// DefaultPipeline is what the runtime runs; it must keep every outcome as well, with constant
// folding added too.
TEST(PassSemantics, DefaultPipelineKeepsOutcomes) {
  const passes::PassPipeline pipeline = passes::DefaultPipeline();
  EXPECT_EQ(pipeline.size(), 11u);
  ExpectSameOutcomes(pipeline, "DefaultPipeline");
}

TEST(PassSemantics, DefaultPipelineWithFoldingKeepsOutcomes) {
  const passes::PassPipeline pipeline = passes::DefaultPipeline({.fold_constants = true});
  EXPECT_EQ(pipeline.size(), 12u);
  ExpectSameOutcomes(pipeline, "DefaultPipeline+fold-constants");
}

TEST(PassPipelineParse, UnknownNameIsAnError) {
  StatusOr<passes::PassPipeline> pipeline = passes::PassPipeline::Parse("inline,no-such-pass,dce");
  ASSERT_FALSE(pipeline.ok());
  EXPECT_NE(pipeline.status().message().find("unknown pass 'no-such-pass'"), std::string::npos)
      << pipeline.status().message();
}

}  // namespace
}  // namespace vkhlo
