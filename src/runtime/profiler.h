// The runtime side of profiles (include/vkhlo/profile.h): what a compiled kernel tells a profile
// (KernelProfile, made once at compile time) and the Profiler an Execution reports to while it
// runs. Without ExecuteOptions::profile no Profiler exists and an Execution only tests a null
// pointer: no timestamps are recorded, nothing is measured.
//
// Device events: each dispatch is noted when recorded (Recorded) and gets its time when its
// command list has completed (Completed): GPU time from the list's timestamp queries, placed on
// the host's timeline at the submission's host time (the device's timestamp clock has an origin
// of its own), or, without timestamps, the host time from submit to completion of a list that
// holds that dispatch alone (the Execution then submits after every dispatch).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "device/command_list.h"
#include "device/device.h"
#include "vkhlo/profile.h"

namespace vkhlo::runtime {

// What profiles say about one compiled kernel (shared by its dispatches' events).
struct KernelProfile {
  std::string kernel;        // the fusion's name
  std::string kernel_class;  // "loop fusion", "matmul", "reduction", ...
  std::string config;        // loop kernels: "wg 256 x 4 elements"; device kernels: per dispatch
  std::string source_op;     // the op the summary charges: the device op, or the loop's last op
  std::vector<std::string> fused_ops;  // "stablehlo.add at file:3:8"
  std::string detail;  // device kernels: the emitter's summary
};

// The event of one dispatch of `kernel` (null: a step with no compiled kernel); `config`
// overrides the kernel's where not empty.
ProfileEvent DispatchEvent(const KernelProfile* kernel, std::string name, const std::string& config, uint64_t bytes,
                           uint64_t flops);

class Profiler {
 public:
  // Fills `out` (cleared). Timestamps are used when the device's compute queue family has them
  // and `host_times` is false.
  Profiler(ExecutionProfile& out, const device::Device& device, bool host_times);

  // Command lists record timestamps around each dispatch.
  bool timestamps() const { return out_.device_timestamps; }
  // Without timestamps, every dispatch is submitted and waited for on its own.
  bool submit_each_dispatch() const { return !out_.device_timestamps; }
  // Microseconds since the profile began.
  double NowUs() const;

  // A dispatch recorded into the command list being built (its time comes with Completed).
  void Recorded(ProfileEvent event);
  // The list holding the dispatches recorded since the last call was submitted at `submit_us`
  // and has completed (`done` waited for) at `done_us`.
  Status Completed(const device::Submission& done, double submit_us, double done_us);
  // The list was dropped unsubmitted (an error): its dispatches never ran.
  void Dropped() { pending_.clear(); }
  // A host step that began at `start_us` and ends now.
  void Host(std::string name, std::string kernel_class, std::string source_op, double start_us, uint64_t bytes);
  // The execution is complete (or failed).
  void Finish();

 private:
  ExecutionProfile& out_;
  std::chrono::steady_clock::time_point origin_;
  std::vector<ProfileEvent> pending_;
  double device_end_us_ = 0;  // where the device track's last event ends
};

}  // namespace vkhlo::runtime
