// Profiles of one execution (include/vkhlo/profile.h): the Chrome trace parses and has one
// device event per dispatch with its kernel, class, config, fused ops and their locations,
// bytes and FLOPs (a fused element-wise program, a dot_general, a while loop with its predicate
// reads on the host track, a host callback); the summary's tables add up to their total; host
// times where asked (what a device without timestamps gets); results never change. No timed
// assertions.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "tests/support/device_fixture.h"
#include "vkhlo/vkhlo.h"

namespace vkhlo {
namespace {

using nlohmann::json;

constexpr const char* kFused = R"(
func.func @main(%a: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<256xf32> {
  %m = stablehlo.multiply %a, %b : tensor<256xf32>
  %s = stablehlo.add %m, %a : tensor<256xf32>
  %e = stablehlo.exponential %s : tensor<256xf32>
  return %e : tensor<256xf32>
}
)";

constexpr const char* kDot = R"(
func.func @main(%x: tensor<32x64xf32>, %w: tensor<64x48xf32>) -> tensor<32x48xf32> {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x48xf32>) -> tensor<32x48xf32>
  return %h : tensor<32x48xf32>
}
)";

// Five iterations: six predicate reads.
constexpr const char* kWhile = R"(
func.func @main(%v: tensor<64xf32>) -> tensor<64xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %five = stablehlo.constant dense<5> : tensor<i32>
  %i, %acc = stablehlo.while(%arg0 = %zero, %arg1 = %v) : tensor<i32>, tensor<64xf32>
  cond {
    %c = stablehlo.compare LT, %arg0, %five : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %arg0, %one : tensor<i32>
    %d = stablehlo.multiply %arg1, %arg1 : tensor<64xf32>
    %h = stablehlo.multiply %d, %arg1 : tensor<64xf32>
    stablehlo.return %n, %h : tensor<i32>, tensor<64xf32>
  }
  return %acc : tensor<64xf32>
}
)";

class ProfileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto client = runtime::CreateClient(testing::TestDeviceOptions());
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = std::make_unique<Client>(std::move(*client));
  }

  Buffer Input(const std::vector<int64_t>& dims, float scale) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    std::vector<float> values(static_cast<size_t>(n));
    for (size_t i = 0; i < values.size(); ++i) values[i] = scale * static_cast<float>(static_cast<int>(i % 13) - 6) / 8.0f;
    const auto* bytes = reinterpret_cast<const uint8_t*>(values.data());
    auto buffer = client_->BufferFromHost(TensorType{"f32", dims}, std::span<const uint8_t>(bytes, values.size() * sizeof(float)));
    EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
    return buffer.ok() ? *buffer : Buffer();
  }

  // Runs `program` on `arguments` with and without a profile; checks the results are the same
  // bytes and returns the profile (and the profiled run's stats).
  // `host_loops`: every while reads its condition back (counted loops would read none).
  ExecutionProfile Profile(const char* program, const std::vector<Buffer>& arguments, ExecutionStats* stats,
                           bool host_times = false, bool host_loops = false) {
    auto exe = client_->Compile(program);
    EXPECT_TRUE(exe.ok()) << exe.status().ToString();
    if (!exe.ok()) return {};
    auto plain = exe->Execute(arguments, {.host_loops = host_loops});
    EXPECT_TRUE(plain.ok()) << plain.status().ToString();
    const ExecutionStats plain_stats = exe->last_stats();
    ExecutionProfile profile;
    auto profiled =
        exe->Execute(arguments, {.profile = &profile, .profile_host_times = host_times, .host_loops = host_loops});
    EXPECT_TRUE(profiled.ok()) << profiled.status().ToString();
    if (!plain.ok() || !profiled.ok()) return profile;
    *stats = exe->last_stats();
    EXPECT_EQ(stats->kernels_dispatched, plain_stats.kernels_dispatched);
    if (!host_times) {
      EXPECT_EQ(stats->command_buffers, plain_stats.command_buffers);  // timestamps add no submissions
    }
    EXPECT_EQ(plain->size(), profiled->size());
    for (size_t i = 0; i < plain->size() && i < profiled->size(); ++i) {
      auto a = (*plain)[i].ToHost();
      auto b = (*profiled)[i].ToHost();
      EXPECT_TRUE(a.ok() && b.ok());
      if (a.ok() && b.ok()) {
        EXPECT_EQ(*a, *b) << "result " << i << " changed under the profile";
      }
    }
    return profile;
  }

  // The trace, written to a file and parsed back.
  json Trace(const ExecutionProfile& profile) {
    const std::string path = ::testing::TempDir() + "/vkhlo_profile_test.json";
    EXPECT_TRUE(profile.WriteChromeTrace(path).ok());
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    std::filesystem::remove(path);
    json trace = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(trace.is_discarded()) << text.str();
    EXPECT_TRUE(trace.contains("traceEvents") && trace["traceEvents"].is_array());
    EXPECT_TRUE(trace.contains("otherData"));
    return trace;
  }

  static std::vector<json> Events(const json& trace, int tid) {
    std::vector<json> events;
    if (!trace.contains("traceEvents")) return events;
    for (const json& e : trace["traceEvents"]) {
      if (e.value("ph", "") == "X" && e.value("tid", 0) == tid) events.push_back(e);
    }
    return events;
  }

  // Every field a device event must have, with a located fused op list.
  static void CheckDeviceEvent(const json& e) {
    SCOPED_TRACE(e.dump());
    ASSERT_TRUE(e.contains("args"));
    const json& args = e["args"];
    for (const char* key : {"kernel", "class", "config", "source_op", "fused_ops", "bytes", "flops"}) {
      EXPECT_TRUE(args.contains(key)) << key;
    }
    EXPECT_FALSE(e.value("name", "").empty());
    EXPECT_GE(e.value("dur", -1.0), 0.0);
    EXPECT_GE(e.value("ts", -1.0), 0.0);
    EXPECT_FALSE(args.value("class", "").empty());
    EXPECT_FALSE(args.value("config", "").empty());
    ASSERT_TRUE(args["fused_ops"].is_array());
    EXPECT_FALSE(args["fused_ops"].empty());
    const std::regex located(R"(^stablehlo\.[a-z_]+ at .*:[0-9]+:[0-9]+$)");
    for (const json& op : args["fused_ops"]) EXPECT_TRUE(std::regex_match(op.get<std::string>(), located)) << op;
    EXPECT_TRUE(std::regex_match(args.value("source_op", ""), located));
    EXPECT_GT(args.value("bytes", uint64_t{0}), 0u);
  }

  std::unique_ptr<Client> client_;
};

TEST_F(ProfileTest, FusedProgramIsOneEventWithItsOps) {
  ExecutionStats stats;
  ExecutionProfile profile = Profile(kFused, {Input({256}, 1), Input({256}, 0.5f)}, &stats);
  json trace = Trace(profile);
  const std::vector<json> device = Events(trace, 1);
  ASSERT_EQ(device.size(), stats.kernels_dispatched);
  ASSERT_EQ(device.size(), 1u);
  CheckDeviceEvent(device[0]);
  const json& args = device[0]["args"];
  EXPECT_EQ(args["class"], "loop fusion");
  EXPECT_EQ(args["fused_ops"].size(), 3u) << args.dump();
  EXPECT_NE(args["fused_ops"][0].get<std::string>().find("stablehlo.multiply"), std::string::npos);
  EXPECT_NE(args["source_op"].get<std::string>().find("stablehlo.exponential"), std::string::npos);
  EXPECT_EQ(args["bytes"].get<uint64_t>(), stats.bytes_read + stats.bytes_written);
  EXPECT_EQ(args["flops"].get<uint64_t>(), 0u);  // unknown for element-wise kernels
  EXPECT_TRUE(Events(trace, 2).empty());  // nothing on the host
  // The metadata says how the device was timed.
  const auto& caps = client_->state()->device->capabilities();
  EXPECT_EQ(trace["otherData"]["device_timestamps"].get<bool>(), caps.limits.timestamp_valid_bits > 0);
  EXPECT_FALSE(trace["otherData"].value("timing", "").empty());
  EXPECT_EQ(trace["otherData"]["dispatches"].get<uint64_t>(), 1u);
}

TEST_F(ProfileTest, DotGeneralHasItsConfigAndFlops) {
  ExecutionStats stats;
  ExecutionProfile profile = Profile(kDot, {Input({32, 64}, 1), Input({64, 48}, 1)}, &stats);
  json trace = Trace(profile);
  const std::vector<json> device = Events(trace, 1);
  ASSERT_EQ(device.size(), stats.kernels_dispatched);
  ASSERT_GE(device.size(), 1u);
  uint64_t flops = 0;
  for (const json& e : device) {
    CheckDeviceEvent(e);
    EXPECT_EQ(e["args"]["class"], "matmul");
    EXPECT_NE(e["args"]["source_op"].get<std::string>().find("stablehlo.dot_general"), std::string::npos);
    flops += e["args"]["flops"].get<uint64_t>();
    // The library's own account: the normalized problem and why the config.
    EXPECT_NE(e["args"].value("detail", "").find("normalized B=1 M=32 N=48 K=64"), std::string::npos) << e.dump();
  }
  EXPECT_EQ(flops, 2u * 32 * 64 * 48);  // on the product's dispatch only
}

TEST_F(ProfileTest, WhileLoopHasPredicateReadsOnTheHostTrack) {
  ExecutionStats stats;
  // The host path (a counted loop like this one reads nothing back: counted_loop_test).
  ExecutionProfile profile = Profile(kWhile, {Input({64}, 1)}, &stats, /*host_times=*/false, /*host_loops=*/true);
  json trace = Trace(profile);
  const std::vector<json> device = Events(trace, 1);
  const std::vector<json> host = Events(trace, 2);
  ASSERT_EQ(device.size(), stats.kernels_dispatched);
  ASSERT_GT(device.size(), 0u);
  for (const json& e : device) CheckDeviceEvent(e);
  EXPECT_EQ(stats.predicate_readbacks, 6u);
  size_t reads = 0;
  for (const json& e : host) {
    if (e["args"].value("class", "") != "host: predicate read") continue;
    ++reads;
    EXPECT_NE(e["args"].value("source_op", "").find("stablehlo.while at "), std::string::npos) << e.dump();
    EXPECT_GT(e["args"].value("bytes", uint64_t{0}), 0u);
  }
  EXPECT_EQ(reads, stats.predicate_readbacks);
  // Each track in time order.
  for (const std::vector<json>* track : {&device, &host}) {
    for (size_t i = 1; i < track->size(); ++i) {
      EXPECT_GE((*track)[i]["ts"].get<double>(), (*track)[i - 1]["ts"].get<double>());
    }
  }
}

// The rows of each printed table ("  12.345  45.6%   3  what") up to its "total" line.
std::vector<std::pair<double, double>> TableSums(const std::string& summary) {
  std::vector<std::pair<double, double>> sums;  // (sum of rows, total) per table
  std::istringstream lines(summary);
  const std::regex row(R"(^\s*([0-9]+\.[0-9]+)\s+[0-9.]+%\s+[0-9]+  (.*)$)");
  double sum = 0;
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    const double ms = std::stod(m[1]);
    if (m[2] == "total") {
      sums.push_back({sum, ms});
      sum = 0;
    } else {
      sum += ms;
    }
  }
  return sums;
}

TEST_F(ProfileTest, SummaryTotalIsTheSumOfItsRows) {
  ExecutionStats stats;
  // The host path, for host events in the tables (a counted loop has none).
  ExecutionProfile profile = Profile(kWhile, {Input({64}, 1)}, &stats, /*host_times=*/false, /*host_loops=*/true);
  for (size_t top : {size_t{1}, size_t{10}}) {
    const ProfileSummary s = profile.Summarize(top);
    double by_class = 0, by_op = 0;
    uint64_t class_events = 0, op_events = 0;
    for (const ProfileSummaryRow& r : s.by_class) by_class += r.total_us, class_events += r.count;
    for (const ProfileSummaryRow& r : s.by_source_op) by_op += r.total_us, op_events += r.count;
    EXPECT_NEAR(by_class, s.total_us, 1e-6 * std::max(1.0, s.total_us));
    EXPECT_NEAR(by_op, s.total_us, 1e-6 * std::max(1.0, s.total_us));
    EXPECT_EQ(class_events, profile.events.size());
    EXPECT_EQ(op_events, profile.events.size());
    EXPECT_GE(s.total_us, profile.wall_us - 1e-6);
    if (top == 1) {
      EXPECT_LE(s.by_source_op.size(), 3u);  // the top op, the rest, what no event accounts for
    }
    // The printed tables too, within their rounding (3 decimals of a millisecond per row).
    const std::string text = profile.Summary(top);
    EXPECT_NE(text.find("time by kernel class"), std::string::npos) << text;
    EXPECT_NE(text.find("time by source op"), std::string::npos) << text;
    EXPECT_NE(text.find("host: predicate read"), std::string::npos) << text;
    const auto sums = TableSums(text);
    ASSERT_EQ(sums.size(), 2u) << text;
    for (const auto& [sum, total] : sums) EXPECT_NEAR(sum, total, 0.0006 * 12) << text;
  }
}

TEST_F(ProfileTest, HostTimesWhereAsked) {
  ExecutionStats stats;
  ExecutionProfile profile = Profile(kWhile, {Input({64}, 1)}, &stats, /*host_times=*/true);
  EXPECT_FALSE(profile.device_timestamps);
  EXPECT_NE(profile.timing.find("host times"), std::string::npos) << profile.timing;
  EXPECT_NE(profile.Summary().find("host times"), std::string::npos);
  json trace = Trace(profile);
  EXPECT_FALSE(trace["otherData"]["device_timestamps"].get<bool>());
  const std::vector<json> device = Events(trace, 1);
  ASSERT_EQ(device.size(), stats.kernels_dispatched);
  for (const json& e : device) CheckDeviceEvent(e);
  // Each dispatch was submitted on its own.
  EXPECT_GE(stats.command_buffers, stats.kernels_dispatched);
}

TEST_F(ProfileTest, HostCallbackIsAHostStep) {
  ASSERT_TRUE(client_->custom_calls()
                  .RegisterHostCallback("test.copy",
                                        [](std::span<const Literal> in, std::span<Literal> out, const CustomCallContext&) {
                                          out[0] = in[0].Clone();
                                          return OkStatus();
                                        })
                  .ok());
  constexpr const char* kCallback = R"(
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = stablehlo.multiply %x, %x : tensor<64xf32>
  %c = stablehlo.custom_call @test.copy(%y) : (tensor<64xf32>) -> tensor<64xf32>
  %z = stablehlo.add %c, %x : tensor<64xf32>
  return %z : tensor<64xf32>
}
)";
  ExecutionStats stats;
  ExecutionProfile profile = Profile(kCallback, {Input({64}, 1)}, &stats);
  json trace = Trace(profile);
  const std::vector<json> device = Events(trace, 1);
  const std::vector<json> host = Events(trace, 2);
  ASSERT_EQ(device.size(), stats.kernels_dispatched);
  ASSERT_EQ(device.size(), 2u);
  for (const json& e : device) CheckDeviceEvent(e);
  ASSERT_EQ(host.size(), 1u);
  EXPECT_EQ(host[0]["name"], "host callback @test.copy");
  EXPECT_EQ(host[0]["args"]["class"], "host: callback");
  EXPECT_NE(host[0]["args"]["source_op"].get<std::string>().find("stablehlo.custom_call at "), std::string::npos);
  EXPECT_EQ(host[0]["args"]["bytes"].get<uint64_t>(), 2u * 64 * 4);  // down and up
  // The host step comes after the kernel it waited for and before the one that reads its result.
  EXPECT_GE(host[0]["ts"].get<double>(), device[0]["ts"].get<double>() + device[0]["dur"].get<double>() - 1e-3);
  EXPECT_GE(device[1]["ts"].get<double>(), host[0]["ts"].get<double>());
}

}  // namespace
}  // namespace vkhlo
