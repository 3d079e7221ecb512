// A test program's checks in a plan (include/vkhlo/checks.h, as CompileOptions::checks compiles
// them): how the host compares the values the compiled program hands back, so that a test
// program compiled to a .vkx file can be run and judged (`vkhlo-run --check x.vkx`) without the
// compiler. Kept in an optional section ('chck'): a plan without checks has none, and a reader
// that does not know the section skips it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkhlo/runtime.h"  // TensorType

namespace vkhlo::plan {

// One comparison (vkhlo::CompiledCheck): exact, almost (|actual - expected| <= tolerance) or
// close (ULP distance in [min, max]), the reference interpreter's rules.
struct TestCheck {
  enum class Comparison : uint8_t { kExact = 0, kAlmost = 1, kClose = 2 };
  Comparison comparison = Comparison::kExact;
  double tolerance = 1e-4;
  int64_t max_ulp_difference = 1;
  int64_t min_ulp_difference = 0;
  // The expectation when the program states it as a constant; else the device computes it.
  bool has_expected = false;
  TensorType expected_type;
  std::vector<uint8_t> expected_bytes;
  std::string location;         // the check op's "file:line:col"
  int64_t actual_result = -1;   // checks of the entry's body: indices into the flattened results
  int64_t expected_result = -1; // (-1: unused)
  bool operator==(const TestCheck&) const = default;
};

// check.expect_serialized_eq: result `result` equals probe `probe_key`'s recorded value.
struct SerializedTestCheck {
  std::string probe_key;  // "probe_id#iteration"
  int64_t result = -1;
  std::string location;
  bool operator==(const SerializedTestCheck&) const = default;
};

// vkhlo::CompiledChecks: checks of the entry's body compared from the results (after the
// program's own `program_results`), nested checks and probes from the outfeed.
struct TestChecks {
  std::string function;
  int64_t program_results = 0;
  std::vector<TestCheck> results;
  std::vector<TestCheck> nested;
  std::vector<std::string> probe_ids;
  std::vector<SerializedTestCheck> serialized;
  bool operator==(const TestChecks&) const = default;
};

}  // namespace vkhlo::plan
