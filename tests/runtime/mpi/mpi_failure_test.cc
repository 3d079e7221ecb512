// Failures of process grids over MPI end every rank's run with an error that names the
// collective, its group and the rank — never a hang, never garbage: a process that fails,
// one that finishes without reaching a collective, processes at different collectives, shapes
// or reducers that differ between ranks, a deadlock (bounded by the timeout), ranks running
// different grids, a grid larger than the job. Runs under `mpirun -n 3`: the grids have two
// processes, so rank 2 takes none and must learn the same outcome.
//
// (A rank that dies, and one stuck outside MPI, are tests of vkhlo-run: mpi.tool_*.)
#include <gtest/gtest.h>

#include "tests/runtime/mpi/mpi_test_util.h"

namespace vkhlo::mpitest {
namespace {

using std::chrono::milliseconds;

constexpr char kAllReduce[] = R"(func.func @proc(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
})";

// Runs `c` (two processes, on ranks 0 and 1) and expects every rank's outcome to contain each
// of `parts`, within `bound`.
void ExpectFailure(GridCase c, StatusCode code, const std::vector<std::string>& parts, milliseconds bound) {
  const MpiOutcome outcome = RunOverMpi(c, RandomInputs(c, 1));
  ASSERT_FALSE(outcome.status.ok()) << "the grid succeeded";
  EXPECT_EQ(outcome.status.code(), code) << outcome.status.ToString();
  for (const std::string& part : parts) {
    EXPECT_NE(outcome.status.message().find(part), std::string::npos)
        << "'" << part << "' is not in: " << outcome.status.message();
  }
  EXPECT_LT(outcome.wall_ms, static_cast<double>(bound.count())) << outcome.status.ToString();
  EXPECT_TRUE(Session().healthy()) << "every rank reported its outcome";
}

TEST(MpiFailureTest, ShapesThatDifferBetweenRanksAreAnError) {
  const std::string gather2 = R"(func.func @proc(%x: tensor<2xf32>) -> tensor<4xf32> {
  %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64} : (tensor<2xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
})";
  const std::string gather3 = R"(func.func @proc(%x: tensor<3xf32>) -> tensor<6xf32> {
  %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64} : (tensor<3xf32>) -> tensor<6xf32>
  func.return %r : tensor<6xf32>
})";
  ExpectFailure({2, 1, {gather2, gather3}}, StatusCode::kInvalidArgument,
                {"'stablehlo.all_gather'", "group [(0, 0), (1, 0)]", "[rank ", "tensor<2xf32>", "tensor<3xf32>",
                 "shapes differ"},
                milliseconds(10000));
}

TEST(MpiFailureTest, AFailingProcessStopsTheOthers) {
  // Process 1 reads from an infeed it does not have before the all_reduce process 0 waits in.
  const std::string failing = R"(func.func @proc(%x: tensor<4xf32>, %t: !stablehlo.token) -> tensor<4xf32> {
  %i:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  %r = "stablehlo.all_reduce"(%i#0) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
})";
  ExpectFailure({2, 1, {kAllReduce, failing}}, StatusCode::kInvalidArgument,
                {"process (1, 0) [rank 1]", "'stablehlo.infeed'"}, milliseconds(10000));
}

TEST(MpiFailureTest, AProcessThatFinishesWithoutTheCollectiveIsNamed) {
  const std::string finishes = R"(func.func @proc(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
})";
  ExpectFailure({2, 1, {kAllReduce, finishes}}, StatusCode::kFailedPrecondition,
                {"'stablehlo.all_reduce'", "group [(0, 0), (1, 0)]", "process (0, 0) [rank 0]",
                 "process (1, 0) [rank 1] finished its part of the grid without reaching it"},
                milliseconds(10000));
}

TEST(MpiFailureTest, ProcessesAtDifferentCollectivesAreNamed) {
  const std::string gathers = R"(func.func @proc(%x: tensor<4xf32>) -> tensor<8xf32> {
  %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64} : (tensor<4xf32>) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
})";
  ExpectFailure({2, 1, {kAllReduce, gathers}}, StatusCode::kFailedPrecondition,
                {"'stablehlo.all_", "group [(0, 0), (1, 0)]", "[rank ", "run different collectives"},
                milliseconds(10000));
}

TEST(MpiFailureTest, ReducersThatDifferAreAnError) {
  auto reduce = [](const std::string& op) {
    return "func.func @proc(%x: tensor<4xi32>) -> tensor<4xi32> {\n  %r = \"stablehlo.all_reduce\"(%x) " +
           Reducer("i32", op) + " : (tensor<4xi32>) -> tensor<4xi32>\n  func.return %r : tensor<4xi32>\n}";
  };
  ExpectFailure({2, 1, {reduce("stablehlo.add"), reduce("stablehlo.maximum")}}, StatusCode::kFailedPrecondition,
                {"'stablehlo.all_reduce'", "reduces by MPI (add)", "reduces by MPI (max)", "reduction regions differ"},
                milliseconds(10000));
}

TEST(MpiFailureTest, ADeadlockEndsAfterTheTimeout) {
  // Process 0 waits in an all_reduce, process 1 for a value nobody sends: both wait until the
  // timeout (1.5 s); the first to give up ends the other's wait.
  const std::string receives = R"(func.func @proc(%x: tensor<4xf32>, %t: !stablehlo.token) -> tensor<4xf32> {
  %r:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  func.return %r#0 : tensor<4xf32>
})";
  GridCase c{2, 1, {kAllReduce, receives}};
  c.timeout = milliseconds(1500);
  ExpectFailure(c, StatusCode::kDeadlineExceeded, {"waited 1500 ms", "[rank "}, milliseconds(6000));
}

TEST(MpiFailureTest, RanksRunningDifferentGridsAreAnError) {
  GridCase c{2, 1, {kAllReduce}};
  c.label = Session().rank() == 1 ? "grid B" : "grid A";
  ExpectFailure(c, StatusCode::kFailedPrecondition, {"runs grid 'grid B'", "runs grid 'grid A'", "same order"},
                milliseconds(10000));
}

TEST(MpiFailureTest, AGridLargerThanTheJobIsAnError) {
  ExpectFailure({8, 1, {kAllReduce}}, StatusCode::kInvalidArgument, {"needs 8 MPI ranks", "mpirun -np 8"},
                milliseconds(10000));
}

TEST(MpiFailureTest, TheGridRunsAgainAfterFailures) {
  // Earlier runs' messages do not leak into this one.
  ExpectSameAsInProcess({2, 1, {kAllReduce}}, 2);
}

}  // namespace
}  // namespace vkhlo::mpitest
