// The element-wise, data-movement and control-flow conformance programs of ../shared/conformance
// run on the Vulkan device, as `vkhlo-run --device=vulkan --check --split-input-file` would: every
// chunk must pass all of its checks. A chunk that cannot pass yet is listed, with its reason, in
// vulkan_expectations.txt; a listed chunk that passes fails the test too, so the list stays true.
// Under VKHLO_PROFILE=mobile (tests named mobile.*) the listed failures must be the compile-time
// "needs shaderFloat64/shaderInt64" errors.
//
// The files are split into a few shards (one test each) so that one process compiles many
// programs with one device and one warm SPIR-V cache.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
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

// The interpreter tests in scope: element-wise ops, data movement that is index arithmetic,
// constants, control flow and tuples (one file per op).
const std::set<std::string>& InterpretScope() {
  static const std::set<std::string> scope = {
      "abs", "add", "and", "atan2", "bitcast_convert", "broadcast_in_dim", "call", "case", "cbrt", "ceil",
      "clamp", "compare", "complex", "concatenate", "constant", "convert", "cosine", "count_leading_zeros",
      "divide", "dynamic_slice", "exponential", "exponential_minus_one", "floor", "get_dimension_size", "if",
      "imag", "iota", "is_finite", "log", "log_plus_one", "logistic", "map", "maximum", "minimum", "multiply",
      "negate", "not", "optimization_barrier", "or", "pad", "popcnt", "power", "real", "reduce_precision",
      "remainder", "reshape", "reverse", "round_nearest_afz", "round_nearest_even", "rsqrt", "select",
      "shift_left", "shift_right_arithmetic", "shift_right_logical", "sign", "sine", "slice", "sqrt", "subtract",
      "tan", "tanh", "transpose", "tuple_and_get_tuple_element", "while", "xor"};
  return scope;
}

// JAX exports of element-wise and data-movement ops (by the jax primitive the file is named for).
const std::vector<std::string>& JaxPrefixes() {
  static const std::vector<std::string> prefixes = {
      "abs_", "add_", "and_", "atan2_", "bitcast_convert_", "broadcast_in_dim_", "cbrt_", "ceil_", "clamp_",
      "complex_", "concatenate_", "convert_element_type_", "cos_", "div_", "eq_", "exp_", "expm1_", "floor_",
      "ge_", "gt_", "imag_", "iota_", "is_finite_", "le_", "log_", "log1p_", "logistic_", "lt_", "max_", "min_",
      "mul_", "ne_", "neg_", "not_", "or_", "pad_", "population_count_", "pow_", "real_", "reduce_precision_",
      "rem_", "reshape_", "rev_", "round_", "rsqrt_", "select_n_", "shift_left_", "shift_right_arithmetic_",
      "shift_right_logical_", "sign_", "sin_", "slice_", "sqrt_", "squeeze_", "sub_", "tan_", "tanh_",
      "transpose_", "xor_", "integer_pow_", "clz_", "dynamic_slice_", "stop_gradient_", "square_"};
  return prefixes;
}

bool InScope(const std::string& relative) {
  const fs::path path(relative);
  if (relative.rfind("interpret/", 0) == 0) {
    return path.parent_path() == "interpret" && InterpretScope().count(path.stem().string());
  }
  const std::string name = path.filename().string();
  for (const std::string& prefix : JaxPrefixes()) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

bool MobileProfile() { return GetEnv("VKHLO_PROFILE").value_or("native") == "mobile"; }

// "<profile> <file>[:<first line>] <reason>", profile one of all / native / mobile.
const std::map<std::string, std::string>& Expectations() {
  static const auto* expectations = [] {
    auto* map = new std::map<std::string, std::string>();
    const std::string profile = MobileProfile() ? "mobile" : "native";
    std::ifstream in(VKHLO_VULKAN_EXPECTATIONS_FILE);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::string which, key, reason;
      fields >> which >> key;
      std::getline(fields, reason);
      if (which == "all" || which == profile) (*map)[key] = reason;
    }
    return map;
  }();
  return *expectations;
}

class VulkanConformance : public ::testing::TestWithParam<int> {};

TEST_P(VulkanConformance, ChunksPassTheirChecks) {
  const std::vector<std::string> files = testing::ConformanceFiles(kRoot, InScope);
  ASSERT_FALSE(files.empty()) << "no conformance programs under " << kRoot;
  auto client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  tools::CheckOptions options;
  options.device = tools::CheckOptions::Device::kVulkan;
  options.client = &*client;
  ExecutionStats totals;
  options.totals = &totals;
  int chunks_run = 0;
  for (size_t f = static_cast<size_t>(GetParam()); f < files.size(); f += kShards) {
    for (const testing::ChunkOutcome& chunk : testing::RunConformanceFile(kRoot, files[f], options)) {
      const std::string& key = chunk.key;
      const std::string& failure = chunk.failure;
      ++chunks_run;
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
  EXPECT_GT(chunks_run, 0);
  EXPECT_EQ(totals.host_evaluated_ops, 0u);
}

INSTANTIATE_TEST_SUITE_P(Shards, VulkanConformance, ::testing::Range(0, kShards));

}  // namespace
}  // namespace vkhlo
