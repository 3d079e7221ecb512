// ExecutionProfile's outputs (include/vkhlo/profile.h): the Chrome trace event format and the
// summary tables. The JSON is written here by hand (the package's users need no JSON library).
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "vkhlo/profile.h"

namespace vkhlo {
namespace {

std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// Microseconds with nanosecond resolution (JSON numbers; never NaN or infinite here).
std::string Us(double us) { return fmt::format("{:.3f}", std::max(0.0, us)); }

constexpr int kDeviceTid = 1, kHostTid = 2;

std::string EventJson(const ProfileEvent& e) {
  const bool device = e.track == ProfileEvent::Track::kDevice;
  std::string args;
  auto field = [&](std::string_view key, const std::string& json_value) {
    args += (args.empty() ? "" : ", ") + Quoted(key) + ": " + json_value;
  };
  if (device) field("kernel", Quoted(e.kernel));
  field("class", Quoted(e.kernel_class));
  if (device) field("config", Quoted(e.config));
  field("source_op", Quoted(e.source_op));
  if (device) {
    std::string ops;
    for (const std::string& op : e.fused_ops) ops += (ops.empty() ? "" : ", ") + Quoted(op);
    field("fused_ops", "[" + ops + "]");
    if (!e.detail.empty()) field("detail", Quoted(e.detail));
  }
  field("bytes", std::to_string(e.bytes));
  if (device) {
    field("flops", std::to_string(e.flops));
    if (e.duration_us > 0) {
      field("GB_per_s", fmt::format("{:.3f}", static_cast<double>(e.bytes) / (e.duration_us * 1e3)));
      if (e.flops > 0) field("GFLOP_per_s", fmt::format("{:.3f}", static_cast<double>(e.flops) / (e.duration_us * 1e3)));
    }
  }
  return fmt::format("{{\"name\": {}, \"cat\": {}, \"ph\": \"X\", \"pid\": 1, \"tid\": {}, \"ts\": {}, \"dur\": {}, "
                     "\"args\": {{{}}}}}",
                     Quoted(e.name), Quoted(e.kernel_class), device ? kDeviceTid : kHostTid, Us(e.start_us),
                     Us(e.duration_us), args);
}

void Add(std::map<std::string, ProfileSummaryRow>& rows, const std::string& label, double us) {
  ProfileSummaryRow& row = rows[label];
  row.label = label;
  row.total_us += us;
  row.count++;
}

std::vector<ProfileSummaryRow> Sorted(const std::map<std::string, ProfileSummaryRow>& rows) {
  std::vector<ProfileSummaryRow> out;
  for (const auto& [label, row] : rows) out.push_back(row);
  std::stable_sort(out.begin(), out.end(), [](const ProfileSummaryRow& a, const ProfileSummaryRow& b) {
    return a.total_us > b.total_us;
  });
  return out;
}

constexpr const char* kUnaccounted = "(unaccounted: recording, submission, waits)";

}  // namespace

std::string ExecutionProfile::ToChromeTrace() const {
  std::string out = "{\"traceEvents\": [\n";
  out += fmt::format("  {{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {{\"name\": {}}}}},\n",
                     Quoted("vkhlo: " + device));
  out += fmt::format("  {{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": {}, \"args\": {{\"name\": {}}}}},\n",
                     kDeviceTid, Quoted(device_timestamps ? "device (GPU timestamps)" : "device (host times)"));
  out += fmt::format("  {{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": {}, \"args\": {{\"name\": \"host\"}}}}",
                     kHostTid);
  uint64_t dispatches = 0, host_steps = 0;
  for (const ProfileEvent& e : events) {
    out += ",\n  " + EventJson(e);
    (e.track == ProfileEvent::Track::kDevice ? dispatches : host_steps)++;
  }
  const ProfileSummary summary = Summarize();
  out += "\n],\n\"displayTimeUnit\": \"ms\",\n";
  out += fmt::format("\"otherData\": {{\"device\": {}, \"device_timestamps\": {}, \"timing\": {}, \"wall_us\": {}, "
                     "\"total_us\": {}, \"unaccounted_us\": {}, \"dispatches\": {}, \"host_steps\": {}}}\n}}\n",
                     Quoted(device), device_timestamps ? "true" : "false", Quoted(timing), Us(wall_us),
                     Us(summary.total_us), Us(summary.unaccounted_us), dispatches, host_steps);
  return out;
}

Status ExecutionProfile::WriteChromeTrace(const std::string& path) const {
  std::ofstream file(path, std::ios::trunc);
  file << ToChromeTrace();
  file.close();
  if (!file) return InternalError("cannot write the profile to " + path);
  return OkStatus();
}

ProfileSummary ExecutionProfile::Summarize(size_t top) const {
  std::map<std::string, ProfileSummaryRow> classes, ops;
  double events_us = 0;
  for (const ProfileEvent& e : events) {
    Add(classes, e.kernel_class.empty() ? "(unnamed)" : e.kernel_class, e.duration_us);
    Add(ops, e.source_op.empty() ? e.name : e.source_op, e.duration_us);
    events_us += e.duration_us;
  }
  ProfileSummary summary;
  summary.unaccounted_us = std::max(0.0, wall_us - events_us);
  summary.by_class = Sorted(classes);
  std::vector<ProfileSummaryRow> by_op = Sorted(ops);
  if (by_op.size() > top) {
    ProfileSummaryRow rest;
    rest.label = fmt::format("(the other {} ops)", by_op.size() - top);
    for (size_t i = top; i < by_op.size(); ++i) {
      rest.total_us += by_op[i].total_us;
      rest.count += by_op[i].count;
    }
    by_op.resize(top);
    by_op.push_back(std::move(rest));
  }
  summary.by_source_op = std::move(by_op);
  if (summary.unaccounted_us > 0) {
    summary.by_class.push_back({kUnaccounted, summary.unaccounted_us, 0});
    summary.by_source_op.push_back({kUnaccounted, summary.unaccounted_us, 0});
  }
  for (const ProfileSummaryRow& row : summary.by_class) summary.total_us += row.total_us;
  return summary;
}

std::string ExecutionProfile::Summary(size_t top) const {
  const ProfileSummary s = Summarize(top);
  std::string out = fmt::format("profile: {}\n", device);
  out += fmt::format("timing: {}\n", timing);
  auto table = [&](const std::string& title, const std::vector<ProfileSummaryRow>& rows) {
    out += fmt::format("{}\n{:>12} {:>7} {:>7}  {}\n", title, "ms", "%", "events", "what");
    for (const ProfileSummaryRow& row : rows) {
      const double share = s.total_us > 0 ? 100 * row.total_us / s.total_us : 0;
      out += fmt::format("{:>12.3f} {:>6.1f}% {:>7}  {}\n", row.total_us / 1e3, share, row.count, row.label);
    }
    out += fmt::format("{:>12.3f} {:>6.1f}% {:>7}  total\n", s.total_us / 1e3, s.total_us > 0 ? 100.0 : 0.0,
                       events.size());
  };
  table("time by kernel class:", s.by_class);
  table(fmt::format("time by source op (top {}):", top), s.by_source_op);
  return out;
}

}  // namespace vkhlo
