// The checks of a test program, as CompileOptions::checks compiles them. StableHLO test programs
// (the spec's interpret tests, JAX's exports) state their expectations with test ops —
// check.expect_eq / expect_almost_eq / expect_close and their _const forms, custom_call
// @check.*, interpreter.probe and check.expect_serialized_eq — which are not device work. With
// `checks` set, the compiler rewrites the entry (a test function, no parameters) so that the
// device computes every value a check reads and hands it back, and describes here how the host
// compares them:
//   - a check in the entry's body: the values it reads become extra results of Execute, after
//     the program's own (`program_results` of them), compared once;
//   - a check inside a region (a loop body, a branch) and every interpreter.probe: each
//     evaluation's values go to the outfeed, tagged with an s32 index as the entry's last
//     tensor — probe k of `probe_ids` as k, nested check k of `nested` as -(k + 1) — so the
//     executable must run with an outfeed queue (a 1 x 1 process grid, vkhlo/process_grid.h);
//   - a check.expect_serialized_eq compares a result with the value a probe recorded under
//     "probe_id#iteration".
// The comparisons are the StableHLO reference interpreter's (`vkhlo-run --check` makes them;
// docs/tools.md). No test op ever runs on the device or in the interpreter behind its back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vkhlo/process_grid.h"

namespace vkhlo {

// How a check compares (the reference interpreter's rules): exact (floats by value, NaN never
// equal), almost (|actual - expected| <= tolerance) or close (ULP distance in [min, max]).
struct CheckComparison {
  enum class Kind { kExact, kAlmost, kClose };
  Kind kind = Kind::kExact;
  double tolerance = 1e-4;
  int64_t max_ulp_difference = 1;
  int64_t min_ulp_difference = 0;
};

struct CompiledCheck {
  CheckComparison comparison;
  // The expectation when the program states it as a constant (the _const forms); otherwise the
  // device computes it.
  std::optional<HostTensor> expected;
  std::string location;  // the check op's "file:line:col"
  // Checks of the entry's body: indices into Execute's results (expected_result -1 when
  // `expected` is set). Nested checks: unused (-1).
  int64_t actual_result = -1;
  int64_t expected_result = -1;
};

// check.expect_serialized_eq: result `result` equals probe `probe_key`'s recorded value.
struct SerializedCheck {
  std::string probe_key;  // "probe_id#iteration"
  int64_t result = -1;
  std::string location;
};

struct CompiledChecks {
  std::string function;          // the test function compiled
  int64_t program_results = 0;   // Execute's results before the checks' values
  std::vector<CompiledCheck> results;   // compared from Execute's results
  std::vector<CompiledCheck> nested;    // compared at each evaluation, from the outfeed
  std::vector<std::string> probe_ids;   // probes, by outfeed index
  std::vector<SerializedCheck> serialized;
  // Whether the executable sends values to the outfeed (it must run with an outfeed queue).
  bool uses_outfeed() const { return !nested.empty() || !probe_ids.empty(); }
};

}  // namespace vkhlo
