// Every program of ../shared/conformance run by the reference interpreter, as
// `vkhlo-run --device=reference --check --split-input-file` would: each chunk must parse, verify
// and pass all of its checks. A chunk that cannot pass yet is listed, with its reason, in
// reference_expectations.txt; a listed chunk that passes fails the test too, so the list stays
// true.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "frontend/parser.h"
#include "tests/support/test_files.h"
#include "tools/vkhlo-run/check_runner.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = VKHLO_CONFORMANCE_DIR;

// "interpret/add.mlir:15" -> reason.
const std::map<std::string, std::string>& Expectations() {
  static const auto* expectations = [] {
    auto* map = new std::map<std::string, std::string>();
    std::ifstream in(VKHLO_EXPECTATIONS_FILE);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::string key, reason;
      fields >> key;
      std::getline(fields, reason);
      (*map)[key] = reason;
    }
    return map;
  }();
  return *expectations;
}

std::vector<std::string> ConformanceFiles() {
  std::vector<std::string> files;
  if (!fs::exists(kRoot)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(kRoot)) {
    if (entry.path().extension() == ".mlir") files.push_back(fs::relative(entry.path(), kRoot).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class ReferenceConformance : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceConformance, ChunksPassTheirChecks) {
  const std::string relative = GetParam();
  const std::string text = testing::ReadFile(kRoot / relative);
  const bool split = relative.rfind("interpret/", 0) == 0;
  std::vector<frontend::SourceChunk> chunks =
      split ? frontend::SplitInputFile(text) : std::vector<frontend::SourceChunk>{{text, 1}};
  for (const frontend::SourceChunk& chunk : chunks) {
    const std::string key = split ? relative + ":" + std::to_string(chunk.first_line) : relative;
    frontend::ParseOptions options;
    options.source_name = relative;
    options.first_line = chunk.first_line;
    std::string failure;
    auto module = frontend::ParseModule(chunk.text, options);
    Status status = module.status();
    if (status.ok()) status = verify::VerifyModule(**module);
    if (!status.ok()) {
      failure = status.message();
    } else {
      for (const tools::TestOutcome& test : tools::RunTestFunctions(**module)) {
        if (!test.passed && failure.empty()) failure = "@" + test.name + ": " + test.message;
      }
    }
    auto expected = Expectations().find(key);
    if (expected == Expectations().end()) {
      EXPECT_TRUE(failure.empty()) << key << ": " << failure;
    } else {
      EXPECT_FALSE(failure.empty()) << key << " passes now: remove it from reference_expectations.txt";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Files, ReferenceConformance, ::testing::ValuesIn(ConformanceFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace vkhlo
