// The process grid: run_parallel, collectives in loops, failures and deadlocks that end with an
// error instead of a hang, and feeds / host transfers.
#include <chrono>
#include <thread>

#include "interp/process_grid.h"
#include "tests/interp/library/test_util.h"

namespace vkhlo::interp::testing {
namespace {

using ir::ElementType;

StatusOr<RunResult> RunText(const std::string& text, RunOptions options = {}) {
  auto module = Parse(text);
  if (!module) return InternalError("parse failed");
  return RunFunction(*module, "main", {}, options);
}

TEST(ProcessGrid, RendezvousExchangesInGroupOrder) {
  ProcessGrid grid(2, 1, std::chrono::milliseconds(5000));
  const std::vector<ProcessId> group = {{1, 0}, {0, 0}};
  StatusOr<std::vector<InterpValues>> a = InternalError("unset"), b = InternalError("unset");
  auto value = [](double v) { return InterpValues{InterpValue::Tensor(Make(ElementType::kF32, {}, {v}))}; };
  std::thread t0([&] { a = grid.Rendezvous("op", 0, group, {0, 0}, value(10)); });
  std::thread t1([&] { b = grid.Rendezvous("op", 0, group, {1, 0}, value(11)); });
  t0.join();
  t1.join();
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Doubles((*a)[0][0])[0], 11);
  EXPECT_EQ(Doubles((*a)[1][0])[0], 10);
  EXPECT_EQ(Doubles((*b)[0][0])[0], 11);
}

TEST(ProcessGrid, MissingPartnerTimesOutNamingTheOp) {
  ProcessGrid grid(2, 1, std::chrono::milliseconds(100));
  auto r = grid.Rendezvous("stablehlo.all_reduce", 0, {{0, 0}, {1, 0}}, {0, 0}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(r.status().message().find("stablehlo.all_reduce"), std::string::npos);
  EXPECT_NE(r.status().message().find("(1, 0)"), std::string::npos) << r.status().message();
  auto recv = grid.Recv("stablehlo.recv", 7);
  ASSERT_FALSE(recv.ok());
  EXPECT_EQ(recv.status().code(), StatusCode::kDeadlineExceeded);
}

TEST(RunParallel, GridShapeAndIds) {
  auto r = RunText(R"(
func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  func.return %r, %p : tensor<ui32>, tensor<ui32>
}
func.func @main() {
  %0:6 = "interpreter.run_parallel"() {programs = [[@ids, @ids, @ids]]} : () -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>)
  check.expect_eq_const %0#0, dense<0> : tensor<ui32>
  check.expect_eq_const %0#1, dense<0> : tensor<ui32>
  check.expect_eq_const %0#3, dense<1> : tensor<ui32>
  check.expect_eq_const %0#5, dense<2> : tensor<ui32>
  check.expect_eq_const %0#4, dense<0> : tensor<ui32>
  func.return
})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->check_failures.empty());
  EXPECT_EQ(r->checks_passed, 5);
}

TEST(RunParallel, ChecksInsideProcessesReachTheCaller) {
  auto r = RunText(R"(
func.func @p(%x: tensor<i32>) -> tensor<i32> {
  check.expect_eq_const %x, dense<1> : tensor<i32>
  func.return %x : tensor<i32>
}
func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.constant dense<2> : tensor<i32>
  %0:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@p], [@p]]} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  func.return
})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->checks_passed, 1);
  ASSERT_EQ(r->check_failures.size(), 1u);
  EXPECT_NE(r->check_failures[0].message.find("process (1, 0)"), std::string::npos) << r->check_failures[0].message;
}

TEST(RunParallel, AllReduceMaxOverFourProcesses) {
  auto r = RunText(R"(
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 8.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[5.0, 2.0]> : tensor<2xf32>
  %c = stablehlo.constant dense<[-1.0, -2.0]> : tensor<2xf32>
  %d = stablehlo.constant dense<[-3.0, 0.5]> : tensor<2xf32>
  %0:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@f], [@f], [@f], [@f]]}
      : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_eq_const %0#0, dense<[5.0, 8.0]> : tensor<2xf32>
  check.expect_eq_const %0#1, dense<[5.0, 8.0]> : tensor<2xf32>
  check.expect_eq_const %0#2, dense<[-1.0, 0.5]> : tensor<2xf32>
  check.expect_eq_const %0#3, dense<[-1.0, 0.5]> : tensor<2xf32>
  func.return
})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  for (const auto& f : r->check_failures) ADD_FAILURE() << f.message;
  EXPECT_EQ(r->checks_passed, 4);
}

TEST(RunParallel, CollectivesInALoopMeetByExecutionCount) {
  // Each process adds the all_reduce sum three times: x -> x + sum(x) per iteration.
  auto r = RunText(R"(
func.func @f(%x: tensor<i64>) -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %three = stablehlo.constant dense<3> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %0:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i64>, tensor<i64>
   cond {
    %c = stablehlo.compare LT, %i, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = "stablehlo.all_reduce"(%v) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %t = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %t : tensor<i64>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<i64>) -> tensor<i64>
    %n = stablehlo.add %v, %s : tensor<i64>
    %j = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %j, %n : tensor<i64>, tensor<i64>
  }
  func.return %0#1 : tensor<i64>
}
func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i64>
  %b = stablehlo.constant dense<2> : tensor<i64>
  %0:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@f], [@f]]} : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  check.expect_eq_const %0#0, dense<40> : tensor<i64>
  check.expect_eq_const %0#1, dense<41> : tensor<i64>
  func.return
})");
  // Sums 3, 9, 27: (1, 2) -> (4, 5) -> (13, 14) -> (40, 41).
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  for (const auto& f : r->check_failures) ADD_FAILURE() << f.message;
  EXPECT_EQ(r->checks_passed, 2);
}

TEST(RunParallel, AFailingProcessStopsTheOthers) {
  // Process 1 fails (an empty infeed) before the all_reduce process 0 waits in.
  auto r = RunText(R"(
func.func @waits(%x: tensor<i64>, %t: !stablehlo.token) -> tensor<i64> {
  %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      stablehlo.return %a : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
func.func @fails(%x: tensor<i64>, %t: !stablehlo.token) -> tensor<i64> {
  %0:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<i64>, !stablehlo.token)
  func.return %0#0 : tensor<i64>
}
func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i64>
  %t = stablehlo.after_all : !stablehlo.token
  %0:2 = "interpreter.run_parallel"(%a, %t, %a, %t) {programs = [[@waits], [@fails]]}
      : (tensor<i64>, !stablehlo.token, tensor<i64>, !stablehlo.token) -> (tensor<i64>, tensor<i64>)
  func.return
})");
  // The first error comes back (not the waiting process's deadline): the others were stopped.
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("empty infeed"), std::string::npos) << r.status().ToString();
}

TEST(RunParallel, FeedsAndHostTransfersUseTheHostQueues) {
  HostQueues queues;
  queues.infeed.push_back({InterpValue::Tensor(Make(ElementType::kS32, {2}, {7, 8}))});
  queues.infeed.push_back({InterpValue::Tensor(Make(ElementType::kS32, {2}, {9, 10}))});
  RunOptions options;
  options.queues = &queues;
  auto r = RunText(R"(
func.func @main() -> (tensor<2xi32>, tensor<2xi32>) {
  %t = stablehlo.after_all : !stablehlo.token
  %0:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %1 = "stablehlo.outfeed"(%0#0, %0#1) : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  %2:2 = "stablehlo.recv"(%1) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true}
      : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %3 = "stablehlo.send"(%2#0, %2#1) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 2>, is_host_transfer = true}
      : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  func.return %0#0, %2#0 : tensor<2xi32>, tensor<2xi32>
})",
               options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Ints(r->outputs[0]), (std::vector<int64_t>{7, 8}));
  EXPECT_EQ(Ints(r->outputs[1]), (std::vector<int64_t>{9, 10}));
  ASSERT_EQ(queues.outfeed.size(), 2u);
  EXPECT_EQ(Ints(queues.outfeed[0][0]), (std::vector<int64_t>{7, 8}));
  EXPECT_EQ(Ints(queues.outfeed[1][0]), (std::vector<int64_t>{9, 10}));
  EXPECT_TRUE(queues.infeed.empty());
}

TEST(Collectives, SingleProcessGroupsNeedNoGrid) {
  auto r = RunText(R"(
func.func @main() -> (tensor<2xi32>, tensor<4xi32>) {
  %x = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  %1 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  %2 = "stablehlo.concatenate"(%0, %1) {dimension = 0 : i64} : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  func.return %0, %2 : tensor<2xi32>, tensor<4xi32>
})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Ints(r->outputs[0]), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(Ints(r->outputs[1]), (std::vector<int64_t>{3, 4, 3, 4}));
}

TEST(Collectives, OtherProcessesOutsideAGridAreAnError) {
  auto r = RunText(R"(
func.func @main() -> tensor<2xi32> {
  %x = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
})");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("collective_permute"), std::string::npos) << r.status().ToString();
}

}  // namespace
}  // namespace vkhlo::interp::testing
