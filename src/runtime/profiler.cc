#include "runtime/profiler.h"

#include <fmt/format.h>

#include <algorithm>


namespace vkhlo::runtime {

ProfileEvent DispatchEvent(const KernelProfile* kernel, std::string name, const std::string& config, uint64_t bytes,
                           uint64_t flops) {
  ProfileEvent event;
  event.name = std::move(name);
  if (kernel != nullptr) {
    event.kernel = kernel->kernel;
    event.kernel_class = kernel->kernel_class;
    event.config = kernel->config;
    event.source_op = kernel->source_op;
    event.fused_ops = kernel->fused_ops;
    event.detail = kernel->detail;
  }
  if (!config.empty()) event.config = config;
  event.bytes = bytes;
  event.flops = flops;
  return event;
}

Profiler::Profiler(ExecutionProfile& out, const device::Device& device, bool host_times)
    : out_(out), origin_(std::chrono::steady_clock::now()) {
  out_ = ExecutionProfile{};
  const device::DeviceCapabilities& caps = device.capabilities();
  out_.device = fmt::format("{} ({} profile)", caps.name, caps.profile);
  if (host_times) {
    out_.timing = "host times (asked for): each dispatch submitted alone, timed from submit to completion";
  } else if (caps.limits.timestamp_valid_bits == 0) {
    out_.timing = "host times: the device's compute queue family has no timestamps (timestampValidBits = 0); "
                  "each dispatch submitted alone, timed from submit to completion";
  } else {
    out_.device_timestamps = true;
    out_.timing = fmt::format("GPU timestamp queries ({} valid bits, {} ns per tick)", caps.limits.timestamp_valid_bits,
                              caps.limits.timestamp_period_ns);
  }
}

double Profiler::NowUs() const {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - origin_).count();
}

void Profiler::Recorded(ProfileEvent event) {
  event.track = ProfileEvent::Track::kDevice;
  pending_.push_back(std::move(event));
}

Status Profiler::Completed(const device::Submission& done, double submit_us, double done_us) {
  std::vector<ProfileEvent> events = std::move(pending_);
  pending_.clear();
  if (events.empty()) return OkStatus();
  // The device track stays in order: a list starts once it is submitted and the last one ended.
  const double anchor = std::max(submit_us, device_end_us_);
  if (out_.device_timestamps) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<device::DispatchTiming> timings, done.Timings());
    if (timings.size() != events.size()) {
      // A recording the profile did not note (never expected): say so rather than fail the run.
      out_.timing += fmt::format("; a submission had {} dispatches noted and {} timed: they are left untimed",
                                 events.size(), timings.size());
      timings.assign(events.size(), device::DispatchTiming{});
    }
    for (size_t i = 0; i < events.size(); ++i) {
      events[i].start_us = anchor + timings[i].start_milliseconds * 1e3;
      events[i].duration_us = timings[i].milliseconds * 1e3;
      device_end_us_ = std::max(device_end_us_, events[i].start_us + events[i].duration_us);
    }
  } else {
    // One dispatch per list (Execution submits after each): its time is the list's. Should a
    // list hold several, they share it in order.
    const double each = std::max(0.0, done_us - anchor) / static_cast<double>(events.size());
    for (size_t i = 0; i < events.size(); ++i) {
      events[i].start_us = anchor + each * static_cast<double>(i);
      events[i].duration_us = each;
    }
    device_end_us_ = std::max(device_end_us_, done_us);
  }
  for (ProfileEvent& e : events) out_.events.push_back(std::move(e));
  return OkStatus();
}

void Profiler::Host(std::string name, std::string kernel_class, std::string source_op, double start_us, uint64_t bytes) {
  ProfileEvent event;
  event.track = ProfileEvent::Track::kHost;
  event.name = std::move(name);
  event.kernel_class = std::move(kernel_class);
  event.source_op = std::move(source_op);
  event.start_us = start_us;
  event.duration_us = std::max(0.0, NowUs() - start_us);
  event.bytes = bytes;
  out_.events.push_back(std::move(event));
}

void Profiler::Finish() {
  pending_.clear();
  out_.wall_us = NowUs();
}

}  // namespace vkhlo::runtime
