// Profiles of one execution: where the time of an Execute went, kernel by kernel, for a user
// making a model fast (vkhlo-run / vkhlo-bench --profile=FILE.json and --profile-summary, or
// ExecuteOptions::profile in the C++ API).
//
//   vkhlo::ExecutionProfile profile;
//   auto results = executable.Execute(arguments, {.profile = &profile});
//   profile.WriteChromeTrace("run.json");      // chrome://tracing, ui.perfetto.dev
//   std::printf("%s", profile.Summary().c_str());
//
// Every dispatch is one device event with its GPU time from Vulkan timestamp queries, the kernel
// it belongs to, its class and configuration, the StableHLO ops fused into it with their source
// locations, the bytes it moves and its FLOPs where known (matmul, convolution). What the host
// does between device work (predicate reads of while/if/case, transfers, host callbacks) are
// host events on a track of their own. A device without timestamps (a compute queue family
// with timestampValidBits = 0) gets host times instead: each dispatch is then submitted on its
// own and timed from submit to completion, and the profile says so.
//
// Profiling never changes results; without a profile nothing is measured or recorded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo {

struct ProfileEvent {
  enum class Track { kDevice, kHost };
  Track track = Track::kDevice;
  // Device: the dispatch (pipeline) name, "fusion_3" or "fusion_7.packed". Host: the step,
  // "predicate read", "host callback @my.cumsum", "upload argument 0".
  std::string name;
  std::string kernel;  // device: the kernel (fusion) the dispatch belongs to, "fusion_7"
  // "loop fusion", "reduction", "matmul", "convolution", "sort", "scatter", "fft",
  // "custom call", ...; host events: "host: predicate read", "host: transfer", "host: callback".
  std::string kernel_class;
  // Device: the configuration chosen where known (a library tile config's name such as
  // "cpu.packed_12x64", a loop kernel's "wg 256 x 4 elements", a reduction's strategy).
  std::string config;
  // The op the time is charged to in the summary: "stablehlo.dot_general at model.mlir:12:10"
  // (a device kernel's own op, a loop fusion's last op, the while/if/case of a predicate read).
  std::string source_op;
  // Device: every StableHLO op fused into the kernel, "stablehlo.add at model.mlir:3:8", in
  // program order.
  std::vector<std::string> fused_ops;
  // Device: what the kernel computes and why, as its emitter says (a device kernel's summary: the
  // normalized problem, the config and the reason for it; empty for loop kernels).
  std::string detail;
  double start_us = 0;     // from the start of the profiled Execute (host steady clock)
  double duration_us = 0;  // GPU time from timestamps, or host time (ExecutionProfile::device_timestamps)
  uint64_t bytes = 0;      // device: read + written by the dispatch; host: bytes transferred
  uint64_t flops = 0;      // floating-point (or integer) operations where known; 0: unknown
};

// A row of a summary table: time charged to a kernel class or a source op.
struct ProfileSummaryRow {
  std::string label;
  double total_us = 0;
  uint64_t count = 0;  // events
};

struct ProfileSummary {
  std::vector<ProfileSummaryRow> by_class;  // every class, longest first
  // The `top` longest source ops, then one row for the rest (when there is any).
  std::vector<ProfileSummaryRow> by_source_op;
  // What no event accounts for: Execute's wall time less the events' time (recording,
  // submission, waiting); the last row of both tables when positive.
  double unaccounted_us = 0;
  double total_us = 0;  // the sum of either table's rows: max(wall time, the events' time)
};

struct ExecutionProfile {
  std::string device;  // "<device name> (<profile>)"
  // Whether device events carry GPU time from timestamp queries; false: host times, and
  // `timing` says why.
  bool device_timestamps = false;
  std::string timing;          // how device events were timed, in words
  double wall_us = 0;          // Execute, from its start to its results being complete
  std::vector<ProfileEvent> events;  // in the order they happened (per track)

  // The Chrome trace event format ({"traceEvents": [...], "otherData": {...}}), which
  // chrome://tracing and ui.perfetto.dev load: "X" events on a device and a host track, each
  // with the fields above as args; otherData holds the device, the timing source and totals.
  std::string ToChromeTrace() const;
  Status WriteChromeTrace(const std::string& path) const;
  ProfileSummary Summarize(size_t top = 10) const;
  // Summarize's tables as text (times in ms, with shares of the total), ending with the total.
  std::string Summary(size_t top = 10) const;
};

// Options of one Executable::Execute.
struct ExecuteOptions {
  // When set, filled with this execution's profile (replacing what it held).
  ExecutionProfile* profile = nullptr;
  // Time device events on the host even where the device has timestamps (what a device
  // without them gets; for comparing the two, and tests).
  bool profile_host_times = false;
  // Run every while loop as before counted loops: the condition evaluated and read back by the
  // host after each iteration (for comparison, and tests).
  bool host_loops = false;
  // The most dispatches a counted loop records into one submission before closing it between
  // iterations (0: the runtime's default, 4096; docs/design.md "Loops on the device").
  uint32_t max_dispatches_per_submission = 0;
};

}  // namespace vkhlo
