// Every conformance program of ../shared/conformance runs on the Vulkan device, as
// `vkhlo-run --device=vulkan --check --split-input-file` would: every chunk must pass all of its
// checks. A chunk that cannot pass yet is listed, with its reason, in vulkan_expectations.txt; a
// listed chunk that passes fails the test too, so the list stays true. Under
// VKHLO_PROFILE=mobile (tests named mobile.*) the listed "needs shader..." failures must be
// exactly the compile-time errors for the masked features.
//
// To rewrite the list after a change: tests/conformance/update_vulkan_expectations.sh BUILD_DIR
// (runs both profiles with VKHLO_EXPECTATIONS_OUT set; every shard appends its failures).
//
// The files are split into a few shards (one test each) so that one process compiles many
// programs with one device and one warm SPIR-V cache.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "support/env.h"
#include "tests/conformance/conformance_chunks.h"
#include "vkhlo/runtime.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = VKHLO_CONFORMANCE_DIR;
constexpr int kShards = 6;

bool MobileProfile() { return GetEnv("VKHLO_PROFILE").value_or("native") == "mobile"; }

// "<profile> <file>[:<first line>] <reason>", profile one of all / native / mobile.
const std::map<std::string, std::string>& Expectations() {
  static const auto* expectations = new std::map<std::string, std::string>(
      testing::ReadExpectations(VKHLO_VULKAN_EXPECTATIONS_FILE, MobileProfile() ? "mobile" : "native"));
  return *expectations;
}

class VulkanConformance : public ::testing::TestWithParam<int> {};

TEST_P(VulkanConformance, ChunksPassTheirChecks) {
  const std::vector<std::string> files = testing::ConformanceFiles(kRoot);
  ASSERT_FALSE(files.empty()) << "no conformance programs under " << kRoot;
  auto client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  ExecutionStats totals;
  const tools::CheckOptions options = testing::VulkanCheckOptions(client->get(), &totals);
  int chunks_run = 0;
  const std::optional<std::string> out_path = GetEnv("VKHLO_EXPECTATIONS_OUT");
  std::string failures;
  for (size_t f = static_cast<size_t>(GetParam()); f < files.size(); f += kShards) {
    for (const testing::ChunkOutcome& chunk : testing::RunConformanceFile(kRoot, files[f], options)) {
      const std::string& key = chunk.key;
      const std::string& failure = chunk.failure;
      ++chunks_run;
      if (out_path && !failure.empty()) {
        std::string reason = failure.substr(0, failure.find('\n'));
        if (reason.size() > 200) reason = reason.substr(0, 200);
        failures += fmt::format("{} {} {}\n", MobileProfile() ? "mobile" : "native", key, reason);
      }
      auto expected = Expectations().find(key);
      if (expected == Expectations().end()) {
        EXPECT_TRUE(failure.empty()) << key << ": " << failure;
      } else {
        EXPECT_FALSE(failure.empty()) << key << " passes now: remove it from vulkan_expectations.txt";
        if (MobileProfile() && expected->second.find("needs shader") != std::string::npos) {
          // The profile's failures are the clear compile-time errors, nothing else.
          EXPECT_NE(failure.find("needs shader"), std::string::npos) << key << ": " << failure;
        }
      }
    }
  }
  if (out_path) {
    std::ofstream out(*out_path, std::ios::app);  // one write per shard
    out << failures << std::flush;
  }
  EXPECT_GT(chunks_run, 0);
  EXPECT_EQ(totals.host_evaluated_ops, 0u);
}

INSTANTIATE_TEST_SUITE_P(Shards, VulkanConformance, ::testing::Range(0, kShards));

}  // namespace
}  // namespace vkhlo
