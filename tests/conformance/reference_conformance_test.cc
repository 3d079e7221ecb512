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

#include "tests/conformance/conformance_chunks.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = VKHLO_CONFORMANCE_DIR;

// "interpret/add.mlir:15" -> reason.
const std::map<std::string, std::string>& Expectations() {
  static const auto* expectations =
      new std::map<std::string, std::string>(testing::ReadExpectations(VKHLO_EXPECTATIONS_FILE));
  return *expectations;
}

class ReferenceConformance : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceConformance, ChunksPassTheirChecks) {
  for (const testing::ChunkOutcome& chunk : testing::RunConformanceFile(kRoot, GetParam())) {
    auto expected = Expectations().find(chunk.key);
    if (expected == Expectations().end()) {
      EXPECT_TRUE(chunk.failure.empty()) << chunk.key << ": " << chunk.failure;
    } else {
      EXPECT_FALSE(chunk.failure.empty()) << chunk.key << " passes now: remove it from reference_expectations.txt";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Files, ReferenceConformance, ::testing::ValuesIn(testing::ConformanceFiles(kRoot)),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace vkhlo
