// Pass tests: text in, checked text out. Every tests/passes/cases/*.mlir names its pipeline on
// a `// PASSES: a,b` line; each `// -----` chunk is parsed, verified, run through the pipeline,
// printed, and checked against its `// CHECK...` lines (tests/support/file_check.h). A chunk
// with `// CHECK-ERROR: text` must instead fail with a message containing `text`.
//
// Every chunk is also a semantic test: its @main (when it takes only tensors) is run by the
// reference interpreter before and after the passes on inputs full of edge values (+-0, +-inf,
// NaN, integer extremes), and the results must be identical bit for bit (NaN matches NaN); its
// check.* ops must pass after the passes when they passed before.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/printer.h"
#include "passes/pipeline.h"
#include "tests/passes/interp_compare.h"
#include "tests/support/file_check.h"
#include "tests/support/test_files.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

std::vector<std::string> CaseFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(VKHLO_PASS_CASES_DIR)) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string FindDirective(std::string_view text, std::string_view prefix) {
  size_t at = text.find(prefix);
  if (at == std::string_view::npos) return "";
  size_t end = text.find('\n', at);
  std::string value(text.substr(at + prefix.size(), end == text.npos ? text.npos : end - at - prefix.size()));
  while (!value.empty() && value.front() == ' ') value.erase(value.begin());
  return value;
}

// Runs @main of `before` and `after` on the same edge-value inputs; "" when they agree (or when
// @main is absent, takes non-tensors, or fails on the original program).
std::string CompareRuns(const ir::Module& before, const ir::Module& after) {
  const ir::Function* main = before.FindFunction("main");
  if (main == nullptr || main->body().empty()) return "";
  for (int seed = 0; seed < 4; ++seed) {
    interp::InterpValues arguments;
    if (!testing::EdgeCaseArguments(*main, seed, arguments)) return "";
    auto expected = interp::RunFunction(before, "main", arguments);
    if (!expected.ok()) return "";
    auto actual = interp::RunFunction(after, "main", arguments);
    if (!actual.ok()) return "fails after the passes: " + actual.status().message();
    std::string difference = testing::CompareExactly(expected->outputs, actual->outputs);
    if (!difference.empty()) return "inputs #" + std::to_string(seed) + ": " + difference;
    if (actual->check_failures.size() > expected->check_failures.size()) {
      return "a check fails after the passes: " + actual->check_failures.front().message;
    }
  }
  return "";
}

class PassFileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PassFileTest, ChecksHold) {
  const std::string path = std::string(VKHLO_PASS_CASES_DIR) + "/" + GetParam();
  const std::string text = testing::ReadFile(path);
  ASSERT_FALSE(text.empty()) << path;
  const std::string spec = FindDirective(text, "// PASSES:");
  ASSERT_FALSE(spec.empty()) << path << ": no `// PASSES:` line";
  auto pipeline = passes::PassPipeline::Parse(spec);
  ASSERT_TRUE(pipeline.ok()) << pipeline.status().message();

  for (const frontend::SourceChunk& chunk : frontend::SplitInputFile(text)) {
    SCOPED_TRACE(path + ":" + std::to_string(chunk.first_line));
    auto module = frontend::ParseModule(chunk.text, {path, chunk.first_line});
    ASSERT_TRUE(module.ok()) << module.status().message();
    ASSERT_TRUE(verify::VerifyModule(**module).ok());
    const std::string expected_error = FindDirective(chunk.text, "// CHECK-ERROR:");
    auto ran = pipeline->Run(**module);
    if (!expected_error.empty()) {
      ASSERT_FALSE(ran.ok()) << "expected an error containing '" << expected_error << "'";
      EXPECT_NE(ran.status().message().find(expected_error), std::string::npos)
          << ran.status().message();
      continue;
    }
    ASSERT_TRUE(ran.ok()) << ran.status().message();
    auto checks = testing::ParseCheckDirectives(chunk.text, static_cast<int>(chunk.first_line));
    ASSERT_FALSE(checks.empty()) << "chunk has no CHECK lines";
    EXPECT_EQ(testing::RunFileCheck(ir::PrintModule(**module), checks), "");
    auto original = frontend::ParseModule(chunk.text, {path, chunk.first_line});
    ASSERT_TRUE(original.ok());
    EXPECT_EQ(CompareRuns(**original, **module), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, PassFileTest, ::testing::ValuesIn(CaseFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.size() - 5);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace vkhlo
