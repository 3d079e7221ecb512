// Loops on the device (issue 24): a while whose trip count the program decides (the lax.scan /
// fori_loop pattern) runs with no predicate read back, its iterations recorded back to back into
// a few submissions; a data-dependent one runs in batches with one read per batch. Results must be bit-identical to the host path
// (ExecuteOptions::host_loops, the path before) and agree with the interpreter; what the
// runtime did is checked through ExecutionStats. No time is measured.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "runtime/runtime_internal.h"
#include "passes/trip_count.h"
#include "tests/support/runtime_test_util.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

// ---------------------------------------------------------------------------------------------
// The trip count, from the IR alone.

// A loop `for (i = start; i <dir> bound; i = i <step_op> step)` over a counter of `type` that
// also doubles an f32 accumulator (the data the body works on).
std::string CountedLoop(std::string_view type, std::string_view start, std::string_view dir, std::string_view bound,
                        std::string_view step_op, std::string_view step, std::string_view compare_type = "SIGNED") {
  return fmt::format(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %start = stablehlo.constant dense<{1}> : tensor<{0}>
  %r:2 = stablehlo.while(%i = %start, %a = %x) : tensor<{0}>, tensor<4xf32>
  cond {{
    %b = stablehlo.constant dense<{3}> : tensor<{0}>
    %c = stablehlo.compare {2}, %i, %b, {6} : (tensor<{0}>, tensor<{0}>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }} do {{
    %s = stablehlo.constant dense<{5}> : tensor<{0}>
    %n = stablehlo.{4} %i, %s : tensor<{0}>
    %d = stablehlo.add %a, %a : tensor<4xf32>
    stablehlo.return %n, %d : tensor<{0}>, tensor<4xf32>
  }}
  return %r#1 : tensor<4xf32>
}}
)",
                     type, start, dir, bound, step_op, step, compare_type);
}

// The trip counts StaticTripCount gives the program's whiles, outermost first (-1: none).
std::vector<int64_t> TripCounts(const std::string& text) {
  auto module = frontend::ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return {};
  const Status verified = verify::VerifyModule(**module);
  EXPECT_TRUE(verified.ok()) << verified.ToString();
  std::vector<int64_t> counts;
  ir::WalkOps(**module, [&](ir::Operation& op) {
    if (op.code() == ir::OpCode::kWhile) counts.push_back(passes::StaticTripCount(op).value_or(-1));
  });
  return counts;
}

TEST(TripCountTest, CountsTheScanAndForiLoopPatterns) {
  using V = std::vector<int64_t>;
  EXPECT_EQ(TripCounts(CountedLoop("i32", "0", "LT", "64", "add", "1")), V{64});
  EXPECT_EQ(TripCounts(CountedLoop("i32", "0", "LT", "64", "add", "3")), V{22});
  EXPECT_EQ(TripCounts(CountedLoop("i32", "5", "LE", "64", "add", "2")), V{30});
  EXPECT_EQ(TripCounts(CountedLoop("i32", "10", "NE", "0", "subtract", "2")), V{5});
  EXPECT_EQ(TripCounts(CountedLoop("i32", "10", "GT", "-3", "add", "-1")), V{13});
  EXPECT_EQ(TripCounts(CountedLoop("i32", "10", "GE", "0", "subtract", "1")), V{11});
  EXPECT_EQ(TripCounts(CountedLoop("i32", "7", "EQ", "7", "add", "1")), V{1});
  EXPECT_EQ(TripCounts(CountedLoop("i64", "-5000000000", "LT", "-4999999936", "add", "1")), V{64});
  EXPECT_EQ(TripCounts(CountedLoop("ui32", "4294967200", "LT", "4294967295", "add", "5", "UNSIGNED")), V{19});
  // Zero trips: the condition is false at once.
  EXPECT_EQ(TripCounts(CountedLoop("i32", "64", "LT", "64", "add", "1")), V{0});
  EXPECT_EQ(TripCounts(CountedLoop("i32", "3", "GT", "3", "add", "-1")), V{0});
}

TEST(TripCountTest, LeavesOtherLoopsToTheHost) {
  using V = std::vector<int64_t>;
  // The counter would wrap before the loop ends (i8: 0, 2, ..., 126, then -128 < 127).
  EXPECT_EQ(TripCounts(CountedLoop("i8", "0", "LT", "127", "add", "2")), V{-1});
  // Never ends, or ends only after wrapping.
  EXPECT_EQ(TripCounts(CountedLoop("i32", "0", "LT", "64", "add", "0")), V{-1});
  EXPECT_EQ(TripCounts(CountedLoop("i32", "0", "LT", "64", "add", "-1")), V{-1});
  EXPECT_EQ(TripCounts(CountedLoop("i32", "0", "NE", "63", "add", "2")), V{-1});
  // A counter starting from an argument; a condition that computes; a bound from the data.
  EXPECT_EQ(TripCounts(R"(
func.func @main(%n: tensor<i32>) -> tensor<i32> {
  %r = stablehlo.while(%i = %n) : tensor<i32>
  cond {
    %b = stablehlo.constant dense<64> : tensor<i32>
    %c = stablehlo.compare LT, %i, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = stablehlo.constant dense<1> : tensor<i32>
    %n2 = stablehlo.add %i, %s : tensor<i32>
    stablehlo.return %n2 : tensor<i32>
  }
  return %r : tensor<i32>
}
)"),
            V{-1});
  EXPECT_EQ(TripCounts(R"(
func.func @main(%x: tensor<i32>) -> tensor<i32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %z, %a = %x) : tensor<i32>, tensor<i32>
  cond {
    %b = stablehlo.constant dense<64> : tensor<i32>
    %m = stablehlo.multiply %i, %i : tensor<i32>
    %c = stablehlo.compare LT, %m, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = stablehlo.constant dense<1> : tensor<i32>
    %n2 = stablehlo.add %i, %s : tensor<i32>
    stablehlo.return %n2, %a : tensor<i32>, tensor<i32>
  }
  return %r#1 : tensor<i32>
}
)"),
            V{-1});
  EXPECT_EQ(TripCounts(R"(
func.func @main(%x: tensor<i32>) -> tensor<i32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %z, %a = %x) : tensor<i32>, tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %a, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = stablehlo.constant dense<1> : tensor<i32>
    %n2 = stablehlo.add %i, %s : tensor<i32>
    stablehlo.return %n2, %a : tensor<i32>, tensor<i32>
  }
  return %r#1 : tensor<i32>
}
)"),
            V{-1});
}

// ---------------------------------------------------------------------------------------------
// On the device: the same bits as the host path, and as the interpreter where exact.

// A scan: 64 steps of h = tanh(h W + x[i]) (a matmul, an element-wise fusion), the outputs
// stacked by dynamic_update_slice (written in place) and summed by a reduction.
constexpr const char* kScan = R"(
func.func @main(%xs: tensor<64x4x8xf32>, %w: tensor<8x8xf32>, %h0: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<64x4x8xf32>, tensor<f32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %zeros = stablehlo.constant dense<0.0> : tensor<64x4x8xf32>
  %zf = stablehlo.constant dense<0.0> : tensor<f32>
  %r:4 = stablehlo.while(%i = %c0, %h = %h0, %ys = %zeros, %s = %zf)
      : tensor<i32>, tensor<4x8xf32>, tensor<64x4x8xf32>, tensor<f32>
  cond {
    %n = stablehlo.constant dense<64> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %x3 = stablehlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 4, 8] : (tensor<64x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x8xf32>
    %x = stablehlo.reshape %x3 : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
    %m = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %a = stablehlo.add %m, %x : tensor<4x8xf32>
    %t = stablehlo.tanh %a : tensor<4x8xf32>
    %t3 = stablehlo.reshape %t : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
    %ys2 = stablehlo.dynamic_update_slice %ys, %t3, %i, %z, %z : (tensor<64x4x8xf32>, tensor<1x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<64x4x8xf32>
    %sum = stablehlo.reduce(%t init: %zf) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    %s2 = stablehlo.add %s, %sum : tensor<f32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %t, %ys2, %s2 : tensor<i32>, tensor<4x8xf32>, tensor<64x4x8xf32>, tensor<f32>
  }
  return %r#1, %r#2, %r#3 : tensor<4x8xf32>, tensor<64x4x8xf32>, tensor<f32>
}
)";

// fori_loop with the bound in the loop state (as JAX lowers traced bounds that are constants
// here), an i64 counter, and integer work exact on both sides: a matmul and a reduction.
constexpr const char* kForiI64 = R"(
func.func @main(%a: tensor<8x8xi32>, %v: tensor<8xi32>) -> (tensor<i64>, tensor<8xi32>, tensor<i32>) {
  %lo = stablehlo.constant dense<0> : tensor<i64>
  %hi = stablehlo.constant dense<64> : tensor<i64>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %lo, %n = %hi, %x = %v, %acc = %zi) : tensor<i64>, tensor<i64>, tensor<8xi32>, tensor<i32>
  cond {
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %y = stablehlo.dot_general %a, %x, contracting_dims = [1] x [0] : (tensor<8x8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %k = stablehlo.constant dense<7> : tensor<8xi32>
    %m = stablehlo.and %y, %k : tensor<8xi32>
    %s = stablehlo.reduce(%m init: %zi) applies stablehlo.add across dimensions = [0] : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
    %acc2 = stablehlo.add %acc, %s : tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i64>
    %i2 = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %i2, %n, %m, %acc2 : tensor<i64>, tensor<i64>, tensor<8xi32>, tensor<i32>
  }
  return %r#0, %r#2, %r#3 : tensor<i64>, tensor<8xi32>, tensor<i32>
}
)";

// Nested counted loops, 8 x 8, counting down outside and up inside.
constexpr const char* kNested = R"(
func.func @main(%v: tensor<16xi32>) -> (tensor<16xi32>, tensor<i32>) {
  %eight = stablehlo.constant dense<8> : tensor<i32>
  %r:2 = stablehlo.while(%o = %eight, %x = %v) : tensor<i32>, tensor<16xi32>
  cond {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %gt = stablehlo.compare GT, %o, %z, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %q:2 = stablehlo.while(%j = %z, %y = %x) : tensor<i32>, tensor<16xi32>
    cond {
      %lt = stablehlo.compare LT, %j, %eight, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %ob = stablehlo.broadcast_in_dim %o, dims = [] : (tensor<i32>) -> tensor<16xi32>
      %jb = stablehlo.broadcast_in_dim %j, dims = [] : (tensor<i32>) -> tensor<16xi32>
      %p = stablehlo.multiply %y, %ob : tensor<16xi32>
      %y2 = stablehlo.add %p, %jb : tensor<16xi32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j2 = stablehlo.add %j, %one : tensor<i32>
      stablehlo.return %j2, %y2 : tensor<i32>, tensor<16xi32>
    }
    %one = stablehlo.constant dense<1> : tensor<i32>
    %o2 = stablehlo.subtract %o, %one : tensor<i32>
    stablehlo.return %o2, %q#1 : tensor<i32>, tensor<16xi32>
  }
  return %r#1, %r#0 : tensor<16xi32>, tensor<i32>
}
)";

// Zero trips: the results are the initial state.
constexpr const char* kZeroTrips = R"(
func.func @main(%v: tensor<16xf32>) -> (tensor<16xf32>, tensor<i32>) {
  %five = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%i = %five, %x = %v) : tensor<i32>, tensor<16xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %five, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %y = stablehlo.multiply %x, %x : tensor<16xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %y : tensor<i32>, tensor<16xf32>
  }
  return %r#1, %r#0 : tensor<16xf32>, tensor<i32>
}
)";

// A data-dependent loop (while x < bound, the bound an argument): the host path.
constexpr const char* kDataDependent = R"(
func.func @main(%v: tensor<16xf32>, %limit: tensor<f32>) -> (tensor<16xf32>, tensor<i32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %z, %x = %v) : tensor<i32>, tensor<16xf32>
  cond {
    %zf = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%x init: %zf) applies stablehlo.add across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
    %lt = stablehlo.compare LT, %s, %limit : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %two = stablehlo.constant dense<1.5> : tensor<16xf32>
    %y = stablehlo.multiply %x, %two : tensor<16xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %y : tensor<i32>, tensor<16xf32>
  }
  return %r#1, %r#0 : tensor<16xf32>, tensor<i32>
}
)";

struct Run {
  std::vector<ir::Literal> results;
  ExecutionStats stats;
};

StatusOr<Run> RunOnDevice(const std::string& text, const std::vector<ir::Literal>& inputs,
                          const ExecuteOptions& options, const CompileOptions& compile = {}) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseModule(text));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  const Client& client = testing::SharedClient();
  VKHLO_ASSIGN_OR_RETURN(Executable executable, runtime::CompileModule(client, std::move(module), compile));
  std::vector<Buffer> arguments;
  for (const ir::Literal& l : inputs) {
    VKHLO_ASSIGN_OR_RETURN(Buffer b, runtime::BufferFromLiteral(client, l));
    arguments.push_back(std::move(b));
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable.Execute(arguments, options));
  Run run;
  for (const Buffer& b : results) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal l, runtime::BufferToLiteral(b));
    run.results.push_back(std::move(l));
  }
  run.stats = executable.last_stats();
  return run;
}

StatusOr<std::vector<ir::Literal>> RunReference(const std::string& text, const std::vector<ir::Literal>& inputs) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseModule(text));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  interp::InterpValues values;
  for (const ir::Literal& l : inputs) values.push_back(interp::InterpValue::Tensor(l));
  VKHLO_ASSIGN_OR_RETURN(interp::RunResult result, interp::RunFunction(*module, "main", std::move(values)));
  std::vector<ir::Literal> literals;
  for (const interp::InterpValue& v : result.outputs) literals.push_back(v.literal());
  return literals;
}

// Small values (floats in [-1, 1), integers in [-8, 8)) so that 64 steps stay finite.
ir::Literal Input(ir::ElementType type, std::vector<int64_t> dims, uint64_t seed) {
  ir::Literal literal = ir::Literal::Create(ir::Type::Tensor(type, std::move(dims))).value();
  std::mt19937_64 rng(seed);
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    const int64_t r = static_cast<int64_t>(rng() % 16) - 8;
    if (ir::IsFloat(type)) {
      literal.SetFloat(i, static_cast<double>(r) / 8.0);
    } else {
      literal.SetInt(i, r);
    }
  }
  return literal;
}

// Whether `a` and `b` agree: the same bits, or floats within `tolerance` (absolute; the values
// here are below 1, and a 64-step recurrence with tanh amplifies the last bit of each dot).
bool Agree(const ir::Literal& a, const ir::Literal& b, double tolerance, std::string* why) {
  if (tolerance == 0 || !ir::IsFloat(a.element_type())) return testing::SameBits(a, b, why);
  if (a.type() != b.type()) return testing::SameBits(a, b, why);
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    if (!(std::abs(a.GetFloat(i) - b.GetFloat(i)) <= tolerance)) {
      *why = fmt::format("element {}: {} vs {}", i, a.GetFloat(i), b.GetFloat(i));
      return false;
    }
  }
  return true;
}

// Runs `text` counted (default options) and on the host path; the two must hold the same bits,
// and agree with the interpreter (exactly, or floats within `tolerance`). Returns the counted
// run's stats.
ExecutionStats CheckSameAsHostPath(const std::string& text, const std::vector<ir::Literal>& inputs, double tolerance,
                                   ExecuteOptions counted = {}) {
  auto device = RunOnDevice(text, inputs, counted);
  EXPECT_TRUE(device.ok()) << device.status().ToString();
  ExecuteOptions host_options;
  host_options.host_loops = true;
  auto host = RunOnDevice(text, inputs, host_options);
  EXPECT_TRUE(host.ok()) << host.status().ToString();
  auto reference = RunReference(text, inputs);
  EXPECT_TRUE(reference.ok()) << reference.status().ToString();
  if (!device.ok() || !host.ok() || !reference.ok()) return {};
  EXPECT_EQ(host->stats.counted_loop_iterations, 0u);
  EXPECT_EQ(device->results.size(), host->results.size());
  EXPECT_EQ(device->results.size(), reference->size());
  for (size_t i = 0; i < device->results.size() && i < host->results.size() && i < reference->size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(device->results[i], host->results[i], &why)) << "result " << i << ": " << why;
    EXPECT_TRUE(Agree(device->results[i], (*reference)[i], tolerance, &why))
        << "result " << i << " against the interpreter: " << why;
  }
  // Never more submissions (kernels may be more: a batch runs iterations past the exit).
  EXPECT_LE(device->stats.command_buffers, host->stats.command_buffers);
  return device->stats;
}

TEST(CountedLoopTest, ScanOf64StepsIsOneSubmission) {
  const std::vector<ir::Literal> inputs = {Input(ir::ElementType::kF32, {64, 4, 8}, 1),
                                           Input(ir::ElementType::kF32, {8, 8}, 2),
                                           Input(ir::ElementType::kF32, {4, 8}, 3)};
  const ExecutionStats stats = CheckSameAsHostPath(kScan, inputs, /*tolerance=*/1e-4);
  EXPECT_EQ(stats.counted_loop_iterations, 64u);
  EXPECT_EQ(stats.predicate_readbacks, 0u);
  EXPECT_LE(stats.command_buffers, 2u);
  EXPECT_GE(stats.kernels_dispatched, 64u * 3);  // a matmul, a fusion and a reduction per step at least
}

// The scalar steps of a loop body (the counter's `%i + 1`, and here an i64, a ui8, an i1 and an
// f16 scalar of the state) are computed by the first invocation of the step's element-wise
// kernel (fusion.cc's ScalarHost, kernel.cc), not by kernels of their own: two or three
// dispatches a step (the product, tanh) instead of seven or eight. Their values, wrapping and
// f16 overflow included, are the interpreter's.
constexpr char kScalarSteps[] = R"(
func.func @main(%h0: tensor<4x8xf32>, %w: tensor<8x8xf32>, %a0: tensor<i64>, %b0: tensor<ui8>, %f0: tensor<i1>, %s0: tensor<f16>) -> (tensor<4x8xf32>, tensor<i64>, tensor<ui8>, tensor<i1>, tensor<f16>, tensor<i32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:6 = stablehlo.while(%i = %z, %h = %h0, %a = %a0, %b = %b0, %f = %f0, %s = %s0) : tensor<i32>, tensor<4x8xf32>, tensor<i64>, tensor<ui8>, tensor<i1>, tensor<f16>
  cond {
    %n = stablehlo.constant dense<64> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %y = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %hn = stablehlo.tanh %y : tensor<4x8xf32>
    %three = stablehlo.constant dense<3> : tensor<i64>
    %wide = stablehlo.convert %i : (tensor<i32>) -> tensor<i64>
    %am = stablehlo.multiply %a, %three : tensor<i64>
    %an = stablehlo.add %am, %wide : tensor<i64>
    %seven = stablehlo.constant dense<7> : tensor<ui8>
    %bn = stablehlo.add %b, %seven : tensor<ui8>
    %fn = stablehlo.not %f : tensor<i1>
    %k = stablehlo.constant dense<1.0625> : tensor<f16>
    %sn = stablehlo.multiply %s, %k : tensor<f16>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %in = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %in, %hn, %an, %bn, %fn, %sn : tensor<i32>, tensor<4x8xf32>, tensor<i64>, tensor<ui8>, tensor<i1>, tensor<f16>
  }
  return %r#1, %r#2, %r#3, %r#4, %r#5, %r#0 : tensor<4x8xf32>, tensor<i64>, tensor<ui8>, tensor<i1>, tensor<f16>, tensor<i32>
}
)";

TEST(CountedLoopTest, ScalarStepsRideInTheStepsKernel) {
  const std::vector<ir::Literal> inputs = {Input(ir::ElementType::kF32, {4, 8}, 11), Input(ir::ElementType::kF32, {8, 8}, 12),
                                           Input(ir::ElementType::kS64, {}, 13),     Input(ir::ElementType::kU8, {}, 14),
                                           Input(ir::ElementType::kI1, {}, 15),    Input(ir::ElementType::kF16, {}, 16)};
  const ExecutionStats stats = CheckSameAsHostPath(kScalarSteps, inputs, /*tolerance=*/1e-4);
  EXPECT_EQ(stats.counted_loop_iterations, 64u);
  EXPECT_LE(stats.kernels_dispatched, 64u * 3) << "the scalars take no dispatch of their own";
}

// A scan's input projection with unroll=2 (xs as pairs, each step's half sliced out, here
// transposed and converted too): hoisted before the loop (hoist_loop_products.cc), the product
// per step reads its slice in its epilogue; the same values as the host path and the
// interpreter, and fewer dispatches than with the pass left out.
constexpr char kUnrolledProjection[] = R"(
func.func @main(%xs: tensor<16x2x8x4xf16>, %w: tensor<8x8xf32>, %u: tensor<8x8xf32>, %h0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%a = %xs, %i = %c0, %h = %h0) : tensor<16x2x8x4xf16>, tensor<i32>, tensor<4x8xf32>
    cond {
      %n = stablehlo.constant dense<16> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %a, %i, %z, %z, %z, sizes = [1, 2, 8, 4] : (tensor<16x2x8x4xf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x8x4xf16>
      %pair = stablehlo.reshape %s : (tensor<1x2x8x4xf16>) -> tensor<2x8x4xf16>
      %half = stablehlo.slice %pair [1:2, 0:8, 0:4] : (tensor<2x8x4xf16>) -> tensor<1x8x4xf16>
      %m = stablehlo.reshape %half : (tensor<1x8x4xf16>) -> tensor<8x4xf16>
      %t = stablehlo.transpose %m, dims = [1, 0] : (tensor<8x4xf16>) -> tensor<4x8xf16>
      %x = stablehlo.convert %t : (tensor<4x8xf16>) -> tensor<4x8xf32>
      %px = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
      %ph = stablehlo.dot_general %h, %u, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
      %sum = stablehlo.add %px, %ph : tensor<4x8xf32>
      %hn = stablehlo.tanh %sum : tensor<4x8xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %in = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %a, %in, %hn : tensor<16x2x8x4xf16>, tensor<i32>, tensor<4x8xf32>
    }
  return %r#2 : tensor<4x8xf32>
}
)";

TEST(CountedLoopTest, UnrolledInputProjectionIsHoisted) {
  const std::vector<ir::Literal> inputs = {Input(ir::ElementType::kF16, {16, 2, 8, 4}, 17), Input(ir::ElementType::kF32, {8, 8}, 18),
                                           Input(ir::ElementType::kF32, {8, 8}, 19), Input(ir::ElementType::kF32, {4, 8}, 20)};
  const ExecutionStats hoisted = CheckSameAsHostPath(kUnrolledProjection, inputs, /*tolerance=*/1e-4);
  EXPECT_EQ(hoisted.counted_loop_iterations, 16u);
  CompileOptions without;
  without.passes = "inline,canonicalize,cse,dce";  // the default pipeline but hoist-loop-products
  auto plain = RunOnDevice(kUnrolledProjection, inputs, {}, without);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_LT(hoisted.kernels_dispatched, plain->stats.kernels_dispatched);
}

TEST(CountedLoopTest, ChunksBoundTheDispatchesPerSubmission) {
  const std::vector<ir::Literal> inputs = {Input(ir::ElementType::kF32, {64, 4, 8}, 4),
                                           Input(ir::ElementType::kF32, {8, 8}, 5),
                                           Input(ir::ElementType::kF32, {4, 8}, 6)};
  ExecuteOptions options;
  options.max_dispatches_per_submission = 40;
  const ExecutionStats stats = CheckSameAsHostPath(kScan, inputs, /*tolerance=*/1e-4, options);
  EXPECT_EQ(stats.predicate_readbacks, 0u);
  // Each submission closes at the first iteration boundary at or past 40 dispatches: it holds
  // 40 to 40 + (one iteration's) dispatches, the last one fewer.
  const uint64_t per_iteration = stats.kernels_dispatched / 64 + 1;
  EXPECT_GT(stats.command_buffers, 1u);
  EXPECT_GE(stats.command_buffers, stats.kernels_dispatched / (40 + per_iteration));
  EXPECT_LE(stats.command_buffers, stats.kernels_dispatched / 40 + 1);
}

// An LSTM-like recurrence whose weight is an argument carried unchanged through the loop (as
// lax.scan lowers closed-over weights): h = tanh(h W + x[i])[:, :128], batch 64. Where the matmul
// packs W into panels (a dispatch of its own: llvmpipe's cpu.packed configs at this batch), it
// is packed once.
constexpr const char* kInvariantWeight = R"(
func.func @main(%xs: tensor<8x64x1024xf32>, %w: tensor<128x1024xf32>, %h0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %wc = %w, %h = %h0) : tensor<i32>, tensor<128x1024xf32>, tensor<64x128xf32>
  cond {
    %n = stablehlo.constant dense<8> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %x3 = stablehlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 64, 1024] : (tensor<8x64x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x1024xf32>
    %x = stablehlo.reshape %x3 : (tensor<1x64x1024xf32>) -> tensor<64x1024xf32>
    %m = stablehlo.dot_general %h, %wc, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x1024xf32>) -> tensor<64x1024xf32>
    %a = stablehlo.add %m, %x : tensor<64x1024xf32>
    %t1 = stablehlo.tanh %a : tensor<64x1024xf32>
    %t = stablehlo.slice %t1 [0:64, 0:128] : (tensor<64x1024xf32>) -> tensor<64x128xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %wc, %t : tensor<i32>, tensor<128x1024xf32>, tensor<64x128xf32>
  }
  return %r#2 : tensor<64x128xf32>
}
)";

// kInvariantWeight with W + 0 in the loop (a kernel's output, not known to stay unchanged).
std::string WithComputedWeight() {
  std::string text = kInvariantWeight;
  const std::string head = "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n";
  text.replace(text.find(head), head.size(),
               head + "  %zw = stablehlo.constant dense<0.0> : tensor<128x1024xf32>\n"
                      "  %w1 = stablehlo.add %w, %zw : tensor<128x1024xf32>\n");
  const std::string state = "(%i = %c0, %wc = %w,";
  text.replace(text.find(state), state.size(), "(%i = %c0, %wc = %w1,");
  return text;
}

TEST(CountedLoopTest, LoopInvariantPackingRunsOnce) {
  const std::vector<ir::Literal> inputs = {Input(ir::ElementType::kF32, {8, 64, 1024}, 9),
                                           Input(ir::ElementType::kF32, {128, 1024}, 10),
                                           Input(ir::ElementType::kF32, {64, 128}, 11)};
  // The same bits as the host path (which reuses too: the weight is the caller's buffer), and
  // as the interpreter within the tolerance of reordered f32 sums of 128 products.
  const ExecutionStats invariant = CheckSameAsHostPath(kInvariantWeight, inputs, /*tolerance=*/1e-3);
  EXPECT_EQ(invariant.counted_loop_iterations, 8u);
  // Whatever the matmul's plan: an invariant dispatch is recorded in the first step only.
  EXPECT_EQ(invariant.invariant_dispatches_reused % 7, 0u);
  // With the weight computed in the execution, every step runs them: the same results.
  const ExecutionStats computed = CheckSameAsHostPath(WithComputedWeight(), inputs, /*tolerance=*/1e-3);
  EXPECT_EQ(computed.invariant_dispatches_reused, 0u);
  EXPECT_GE(computed.kernels_dispatched, invariant.kernels_dispatched + invariant.invariant_dispatches_reused);
}

TEST(CountedLoopTest, ForiLoopWithI64CounterAndBoundInTheState) {
  const std::vector<ir::Literal> inputs = {Input(ir::ElementType::kS32, {8, 8}, 7), Input(ir::ElementType::kS32, {8}, 8)};
  // Under the mobile profile the i64 counter and bound compute as emulated 32-bit pairs.
  const ExecutionStats stats = CheckSameAsHostPath(kForiI64, inputs, /*tolerance=*/0);
  EXPECT_EQ(stats.counted_loop_iterations, 64u);
  EXPECT_EQ(stats.predicate_readbacks, 0u);
  EXPECT_LE(stats.command_buffers, 2u);
}

TEST(CountedLoopTest, NestedLoops) {
  const std::vector<ir::Literal> inputs = {Input(ir::ElementType::kS32, {16}, 9)};
  const ExecutionStats stats = CheckSameAsHostPath(kNested, inputs, /*tolerance=*/0);
  EXPECT_EQ(stats.counted_loop_iterations, 8u + 8u * 8u);
  EXPECT_EQ(stats.predicate_readbacks, 0u);
  EXPECT_LE(stats.command_buffers, 2u);
}

TEST(CountedLoopTest, ZeroTrips) {
  const std::vector<ir::Literal> inputs = {Input(ir::ElementType::kF32, {16}, 10)};
  const ExecutionStats stats = CheckSameAsHostPath(kZeroTrips, inputs, /*tolerance=*/0);
  EXPECT_EQ(stats.counted_loop_iterations, 0u);
  EXPECT_EQ(stats.predicate_readbacks, 0u);
}

// ---------------------------------------------------------------------------------------------
// Data-dependent loops: batches of half the iterations done so far (1 to 64), one predicate
// read per batch.

TEST(BatchedLoopTest, ExitFromTheData) {
  ir::Literal limit = ir::Literal::Create(ir::Type::Scalar(ir::ElementType::kF32)).value();
  limit.SetFloat(0, 1000.0);
  ir::Literal v = ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kF32, {16})).value();
  for (int64_t i = 0; i < 16; ++i) v.SetFloat(i, 0.25 + 0.125 * static_cast<double>(i));
  // The sum, 19, times 1.5 per iteration reaches 1000 after 10 iterations: 11 conditions, read
  // in batches of 1, 1, 1, 1, 2, 3 and 4.
  const ExecutionStats stats = CheckSameAsHostPath(kDataDependent, {v, limit}, /*tolerance=*/0);
  EXPECT_EQ(stats.counted_loop_iterations, 0u);
  EXPECT_EQ(stats.predicate_readbacks, 7u);
  // Zero trips: one read, the initial state.
  limit.SetFloat(0, 1.0);
  const ExecutionStats none = CheckSameAsHostPath(kDataDependent, {v, limit}, /*tolerance=*/0);
  EXPECT_EQ(none.predicate_readbacks, 1u);
}

// while (i < n) with n an argument, a counted loop inside the body, a matmul and a reduction.
constexpr const char* kBoundFromArgument = R"(
func.func @main(%n: tensor<i32>, %a: tensor<8x8xi32>, %v: tensor<8xi32>) -> (tensor<i32>, tensor<8xi32>, tensor<i32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %z, %x = %v, %acc = %z) : tensor<i32>, tensor<8xi32>, tensor<i32>
  cond {
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %three = stablehlo.constant dense<3> : tensor<i32>
    %q:2 = stablehlo.while(%j = %z, %y = %x) : tensor<i32>, tensor<8xi32>
    cond {
      %c = stablehlo.compare LT, %j, %three, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %p = stablehlo.dot_general %a, %y, contracting_dims = [1] x [0] : (tensor<8x8xi32>, tensor<8xi32>) -> tensor<8xi32>
      %k = stablehlo.constant dense<15> : tensor<8xi32>
      %m = stablehlo.and %p, %k : tensor<8xi32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j2 = stablehlo.add %j, %one : tensor<i32>
      stablehlo.return %j2, %m : tensor<i32>, tensor<8xi32>
    }
    %s = stablehlo.reduce(%q#1 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
    %acc2 = stablehlo.add %acc, %s : tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %q#1, %acc2 : tensor<i32>, tensor<8xi32>, tensor<i32>
  }
  return %r#0, %r#1, %r#2 : tensor<i32>, tensor<8xi32>, tensor<i32>
}
)";

TEST(BatchedLoopTest, BoundFromAnArgument) {
  ir::Literal n = ir::Literal::Create(ir::Type::Scalar(ir::ElementType::kS32)).value();
  const std::vector<ir::Literal> data = {Input(ir::ElementType::kS32, {8, 8}, 14), Input(ir::ElementType::kS32, {8}, 15)};
  // 200 iterations, 201 conditions: 14 batches of 1, 1, 1, 1, 2, 3, 4, 6, 9, 14, 21, 31, 47 and
  // 64, 205 iterations in all.
  n.SetInt(0, 200);
  const ExecutionStats stats = CheckSameAsHostPath(kBoundFromArgument, {n, data[0], data[1]}, /*tolerance=*/0);
  EXPECT_EQ(stats.predicate_readbacks, 14u);
  EXPECT_EQ(stats.counted_loop_iterations, 3u * 205u);  // the inner loops, those past the exit too
  // A small dispatch bound: more submissions (the inner counted loops close them), the same
  // results and reads.
  ExecuteOptions options;
  options.max_dispatches_per_submission = 16;
  const ExecutionStats small = CheckSameAsHostPath(kBoundFromArgument, {n, data[0], data[1]}, /*tolerance=*/0, options);
  EXPECT_GT(small.command_buffers, stats.command_buffers);
  EXPECT_GE(small.predicate_readbacks, 14u);
  EXPECT_LT(small.predicate_readbacks, 201u);
  for (int64_t count : {0, 1, 2, 3, 64, 65}) {
    n.SetInt(0, count);
    CheckSameAsHostPath(kBoundFromArgument, {n, data[0], data[1]}, /*tolerance=*/0);
  }
}

TEST(BatchedLoopTest, ProfileHasOneReadPerBatch) {
  ir::Literal limit = ir::Literal::Create(ir::Type::Scalar(ir::ElementType::kF32)).value();
  limit.SetFloat(0, 1000.0);
  ir::Literal v = ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kF32, {16})).value();
  for (int64_t i = 0; i < 16; ++i) v.SetFloat(i, 0.25 + 0.125 * static_cast<double>(i));
  ExecutionProfile profile;
  ExecuteOptions options;
  options.profile = &profile;
  auto run = RunOnDevice(kDataDependent, {v, limit}, options);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  size_t device = 0, reads = 0;
  for (const ProfileEvent& e : profile.events) {
    if (e.track == ProfileEvent::Track::kDevice) ++device;
    if (e.track == ProfileEvent::Track::kHost && e.kernel_class == "host: predicate read") ++reads;
  }
  EXPECT_EQ(device, run->stats.kernels_dispatched);
  EXPECT_EQ(reads, run->stats.predicate_readbacks);
  EXPECT_EQ(reads, 7u);
  EXPECT_EQ(profile.timing.find("untimed"), std::string::npos) << profile.timing;
}

// A loop whose body needs the host (an if reads its predicate back) keeps the host path.
constexpr const char* kHostStepInBody = R"(
func.func @main(%n: tensor<i32>, %v: tensor<4xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %z, %x = %v) : tensor<i32>, tensor<4xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %two = stablehlo.constant dense<2> : tensor<i32>
    %odd = stablehlo.remainder %i, %two : tensor<i32>
    %p = stablehlo.compare EQ, %odd, %z, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %y = "stablehlo.if"(%p) ({
      %d = stablehlo.add %x, %x : tensor<4xf32>
      "stablehlo.return"(%d) : (tensor<4xf32>) -> ()
    }, {
      %m = stablehlo.multiply %x, %x : tensor<4xf32>
      "stablehlo.return"(%m) : (tensor<4xf32>) -> ()
    }) : (tensor<i1>) -> tensor<4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %y : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}
)";

// A loop stacking its outputs by dynamic_update_slice (in place on the host path) keeps the host
// path: a batch, holding every state, would copy the whole stack each iteration.
constexpr const char* kStacking = R"(
func.func @main(%n: tensor<i32>, %v: tensor<4xf32>) -> tensor<16x4xf32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %s0 = stablehlo.constant dense<0.0> : tensor<16x4xf32>
  %r:3 = stablehlo.while(%i = %z, %x = %v, %s = %s0) : tensor<i32>, tensor<4xf32>, tensor<16x4xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %y = stablehlo.add %x, %x : tensor<4xf32>
    %y2 = stablehlo.reshape %y : (tensor<4xf32>) -> tensor<1x4xf32>
    %s2 = stablehlo.dynamic_update_slice %s, %y2, %i, %z : (tensor<16x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<16x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %y, %s2 : tensor<i32>, tensor<4xf32>, tensor<16x4xf32>
  }
  return %r#2 : tensor<16x4xf32>
}
)";

TEST(BatchedLoopTest, InPlaceUpdatesKeepTheHostPath) {
  ir::Literal n = ir::Literal::Create(ir::Type::Scalar(ir::ElementType::kS32)).value();
  n.SetInt(0, 12);
  const ExecutionStats stats =
      CheckSameAsHostPath(kStacking, {n, Input(ir::ElementType::kF32, {4}, 17)}, /*tolerance=*/0);
  EXPECT_EQ(stats.predicate_readbacks, 13u);
  EXPECT_GT(stats.in_place_updates, 0u);
}

TEST(BatchedLoopTest, HostStepsInTheBodyKeepTheHostPath) {
  ir::Literal n = ir::Literal::Create(ir::Type::Scalar(ir::ElementType::kS32)).value();
  n.SetInt(0, 6);
  const ExecutionStats stats =
      CheckSameAsHostPath(kHostStepInBody, {n, Input(ir::ElementType::kF32, {4}, 16)}, /*tolerance=*/0);
  EXPECT_EQ(stats.predicate_readbacks, 7u + 6u);  // each condition and each if
}

TEST(CountedLoopTest, ProfileTimesEverySubmission) {
  const std::vector<ir::Literal> inputs = {Input(ir::ElementType::kF32, {64, 4, 8}, 11),
                                           Input(ir::ElementType::kF32, {8, 8}, 12),
                                           Input(ir::ElementType::kF32, {4, 8}, 13)};
  ExecutionProfile profile;
  ExecuteOptions options;
  options.profile = &profile;
  options.max_dispatches_per_submission = 100;  // several submissions, each timed
  auto run = RunOnDevice(kScan, inputs, options);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  size_t device = 0, host = 0;
  for (const ProfileEvent& e : profile.events) (e.track == ProfileEvent::Track::kDevice ? device : host)++;
  EXPECT_EQ(device, run->stats.kernels_dispatched);
  EXPECT_EQ(host, 0u);  // no predicate read
  EXPECT_EQ(profile.timing.find("untimed"), std::string::npos) << profile.timing;
}

}  // namespace
}  // namespace vkhlo
