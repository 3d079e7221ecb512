// Process grids over MPI (include/vkhlo/mpi.h) against the in-process grid: every collective,
// strategy and a range of element types on random inputs (NaNs, infinities, integer edges), with
// results equal bit for bit — floats folded in group order on the device like the in-process
// grid, integer reductions by MPI_Iallreduce. Runs under `mpirun -n 4` (tests/runtime/mpi/CMakeLists.txt),
// natively and under the mobile profile; grids of fewer processes leave ranks idle.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/runtime/mpi/mpi_test_util.h"

namespace vkhlo::mpitest {
namespace {

std::string AllReduce(const std::string& type, const std::string& scalar, const std::string& op,
                      const std::string& attributes) {
  return fmt::format(
      "func.func @proc(%x: {0}) -> {0} {{\n  %r = \"stablehlo.all_reduce\"(%x) {1} {2} : ({0}) -> {0}\n"
      "  func.return %r : {0}\n}}",
      type, Reducer(scalar, op), attributes);
}

TEST(MpiGridTest, AllReduceAddF32FoldsInGroupOrder) {
  // Random floats with NaNs, infinities and denormals: any other order of the sum shows. Each
  // process receives the three others' operands (and no MPI reduction runs).
  const MpiStats before = Session().stats();
  ExpectSameAsInProcess({4, 1, {AllReduce("tensor<3x5xf32>", "f32", "stablehlo.add",
                                          "{replica_groups = dense<[[2, 0, 3, 1]]> : tensor<1x4xi64>}")}},
                        1);
  const MpiStats after = Session().stats();
  EXPECT_EQ(after.library_reductions, before.library_reductions);
  EXPECT_GE(after.bytes_received - before.bytes_received, 3u * 15 * 4);
}

TEST(MpiGridTest, AllReduceBf16AndF16InGroups) {
  ExpectSameAsInProcess({4, 1, {AllReduce("tensor<9xbf16>", "bf16", "stablehlo.add",
                                          "{replica_groups = dense<[[3, 1], [0, 2]]> : tensor<2x2xi64>}")}},
                        2);
  ExpectSameAsInProcess({2, 2, {AllReduce("tensor<4xf16>", "f16", "stablehlo.multiply",
                                          "{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>, channel_handle = "
                                          "#stablehlo.channel_handle<handle = 1, type = 0>}")}},
                        3);
}

TEST(MpiGridTest, ExactIntegerReductionsByMpi) {
  // Flattened ids over a 2 x 2 grid; max on i8, sums and products that wrap, bitwise ops, and
  // booleans: MPI_Iallreduce gives the fold's bits.
  const std::string flattened =
      "{replica_groups = dense<[[0, 3], [2, 1]]> : tensor<2x2xi64>, channel_handle = "
      "#stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids}";
  const MpiStats before = Session().stats();
  ExpectSameAsInProcess({2, 2, {AllReduce("tensor<7xi8>", "i8", "stablehlo.maximum", flattened)}}, 4);
  EXPECT_EQ(Session().stats().library_reductions, before.library_reductions + 1);
  ExpectSameAsInProcess({4, 1, {AllReduce("tensor<33xi32>", "i32", "stablehlo.add", "")}}, 5);
  ExpectSameAsInProcess({4, 1, {AllReduce("tensor<6xui16>", "ui16", "stablehlo.multiply", "")}}, 6);
  ExpectSameAsInProcess({4, 1, {AllReduce("tensor<5xi16>", "i16", "stablehlo.minimum", "")}}, 7);
  ExpectSameAsInProcess({1, 4, {AllReduce("tensor<8xui32>", "ui32", "stablehlo.xor",
                                          "{channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>}")}},
                        8);
  ExpectSameAsInProcess({4, 1, {AllReduce("tensor<10xi1>", "i1", "stablehlo.and", "")}}, 9);
  // 64-bit integers: native, or emulated with 32-bit pairs under the mobile profile.
  ExpectSameAsInProcess({4, 1, {AllReduce("tensor<4xi64>", "i64", "stablehlo.add", "")}}, 10);
}

TEST(MpiGridTest, AllReduceOfTwoOperands) {
  // A variadic all_reduce: each operand reduced on its own by the region (float max keeps NaNs).
  const std::string program = "func.func @proc(%v: tensor<6xf32>, %w: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<2x3xf32>) {\n"
                              "  %r:2 = \"stablehlo.all_reduce\"(%v, %w) " + Reducer("f32", "stablehlo.maximum") +
                              " : (tensor<6xf32>, tensor<2x3xf32>) -> (tensor<6xf32>, tensor<2x3xf32>)\n"
                              "  func.return %r#0, %r#1 : tensor<6xf32>, tensor<2x3xf32>\n}";
  ExpectSameAsInProcess({4, 1, {program}}, 11);
}

TEST(MpiGridTest, ReduceScatterFloatAndInteger) {
  ExpectSameAsInProcess(
      {4, 1, {"func.func @proc(%x: tensor<3x8xf32>) -> tensor<3x2xf32> {\n  %r = \"stablehlo.reduce_scatter\"(%x) " +
              Reducer("f32", "stablehlo.add") +
              " {scatter_dimension = 1 : i64, replica_groups = dense<[[3, 1, 0, 2]]> : tensor<1x4xi64>} : "
              "(tensor<3x8xf32>) -> tensor<3x2xf32>\n  func.return %r : tensor<3x2xf32>\n}"}},
      12);
  ExpectSameAsInProcess(
      {2, 2, {"func.func @proc(%x: tensor<4x3xui32>) -> tensor<2x3xui32> {\n  %r = \"stablehlo.reduce_scatter\"(%x) " +
              Reducer("ui32", "stablehlo.multiply") +
              " {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = "
              "#stablehlo.channel_handle<handle = 3, type = 0>} : (tensor<4x3xui32>) -> tensor<2x3xui32>\n"
              "  func.return %r : tensor<2x3xui32>\n}"}},
      13);
}

TEST(MpiGridTest, AllGatherCrossReplicaAndPartition) {
  ExpectSameAsInProcess(
      {2, 2, {"func.func @proc(%x: tensor<2x3xui16>) -> tensor<2x12xui16> {\n  %r = \"stablehlo.all_gather\"(%x) "
              "{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = "
              "#stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<2x3xui16>) -> tensor<2x12xui16>\n"
              "  func.return %r : tensor<2x12xui16>\n}"}},
      14);
}

TEST(MpiGridTest, AllToAllCrossPartitionOnThreeRanks) {
  ExpectSameAsInProcess(
      {1, 3, {"func.func @proc(%x: tensor<2x6xf16>) -> tensor<6x2xf16> {\n  %r = \"stablehlo.all_to_all\"(%x) "
              "{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 3 : i64, replica_groups = "
              "dense<[[2, 0, 1]]> : tensor<1x3xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>} "
              ": (tensor<2x6xf16>) -> tensor<6x2xf16>\n  func.return %r : tensor<6x2xf16>\n}"}},
      15);
}

TEST(MpiGridTest, CollectivePermuteCycleAndZeros) {
  ExpectSameAsInProcess(
      {4, 1, {"func.func @proc(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {\n  %r = \"stablehlo.collective_permute\"(%x) "
              "{source_target_pairs = dense<[[0, 1], [1, 2], [2, 0], [3, 3]]> : tensor<4x2xi64>} : (tensor<2x3xf32>) "
              "-> tensor<2x3xf32>\n  func.return %r : tensor<2x3xf32>\n}"}},
      16);
  ExpectSameAsInProcess(
      {2, 2, {"func.func @proc(%x: tensor<5xi32>) -> tensor<5xi32> {\n  %r = \"stablehlo.collective_permute\"(%x) "
              "{source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>, channel_handle = "
              "#stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<5xi32>) -> tensor<5xi32>\n"
              "  func.return %r : tensor<5xi32>\n}"}},
      17);
}

TEST(MpiGridTest, CollectiveBroadcastAndReduce) {
  ExpectSameAsInProcess(
      {4, 1, {"func.func @proc(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {\n"
              "  %b = \"stablehlo.collective_broadcast\"(%x) {replica_groups = dense<[[2, 1], [3, -1]]> : "
              "tensor<2x2xi64>} : (tensor<5xf32>) -> tensor<5xf32>\n  %r = \"stablehlo.collective_reduce\"(%x) " +
              Reducer("f32", "stablehlo.add") +
              " {replica_groups = dense<[[1, 0, 3, 2]]> : tensor<1x4xi64>} : (tensor<5xf32>) -> tensor<5xf32>\n"
              "  func.return %b, %r : tensor<5xf32>, tensor<5xf32>\n}"}},
      18);
}

TEST(MpiGridTest, SendRecvBetweenRanksAndIds) {
  // MPMD: process 0 sends twice on channel 5 (before the receiver asks: the values wait in its
  // outbox), process 1 receives both in order, and all four meet at an all_gather of their ids.
  const std::string gather_ids =
      "  %r = stablehlo.replica_id : tensor<ui32>\n  %rs = stablehlo.reshape %r : (tensor<ui32>) -> tensor<1xui32>\n"
      "  %g = \"stablehlo.all_gather\"(%rs) {all_gather_dim = 0 : i64} : (tensor<1xui32>) -> tensor<4xui32>\n";
  const std::string sender =
      "func.func @proc(%x: tensor<3xf32>, %t: !stablehlo.token) -> tensor<4xui32> {\n"
      "  %a = \"stablehlo.send\"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, "
      "is_host_transfer = false} : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token\n"
      "  %y = stablehlo.add %x, %x : tensor<3xf32>\n"
      "  %b = \"stablehlo.send\"(%y, %a) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, "
      "is_host_transfer = false} : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token\n" +
      gather_ids + "  func.return %g : tensor<4xui32>\n}";
  const std::string receiver =
      "func.func @proc(%t: !stablehlo.token) -> (tensor<3xf32>, tensor<3xf32>, tensor<4xui32>) {\n"
      "  %r0:2 = \"stablehlo.recv\"(%t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, "
      "is_host_transfer = false} : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)\n"
      "  %r1:2 = \"stablehlo.recv\"(%r0#1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, "
      "is_host_transfer = false} : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)\n" +
      gather_ids + "  func.return %r0#0, %r1#0, %g : tensor<3xf32>, tensor<3xf32>, tensor<4xui32>\n}";
  const std::string other = "func.func @proc() -> tensor<4xui32> {\n" + gather_ids + "  func.return %g : tensor<4xui32>\n}";
  ExpectSameAsInProcess({4, 1, {sender, receiver, other, other}}, 19);
}

TEST(MpiGridTest, CollectivesInsideAWhileLoopMeetTheirPartners) {
  ExpectSameAsInProcess(
      {4, 1, {"func.func @proc(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
              "  %zero = stablehlo.constant dense<0> : tensor<i32>\n  %three = stablehlo.constant dense<3> : tensor<i32>\n"
              "  %one = stablehlo.constant dense<1> : tensor<i32>\n"
              "  %w:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<3xf32>\n"
              "  cond {\n    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
              "    stablehlo.return %c : tensor<i1>\n  } do {\n"
              "    %s = \"stablehlo.all_reduce\"(%v) " + Reducer("f32", "stablehlo.add") +
              " : (tensor<3xf32>) -> tensor<3xf32>\n"
              "    %n = stablehlo.add %i, %one : tensor<i32>\n    stablehlo.return %n, %s : tensor<i32>, tensor<3xf32>\n  }\n"
              "  func.return %w#1 : tensor<3xf32>\n}"}},
      20);
}

TEST(MpiGridTest, ExplicitRankMappingAndIdleRanks) {
  // Processes on ranks in reverse order, then a grid of two processes that leaves two ranks out.
  GridCase reversed{4, 1, {AllReduce("tensor<7xf32>", "f32", "stablehlo.add", "")}};
  reversed.process_ranks = {3, 2, 1, 0};
  ExpectSameAsInProcess(reversed, 21);
  ExpectSameAsInProcess({2, 1, {AllReduce("tensor<7xf32>", "f32", "stablehlo.add", "")}}, 22);
}

TEST(MpiGridTest, LargeTensorsInSeveralChunks) {
  // 1 MiB per contribution: with VKHLO_MPI_CHUNK_BYTES small (the mpi.grid_small_chunks run)
  // it travels in many data messages.
  ExpectSameAsInProcess({4, 1, {AllReduce("tensor<512x512xf32>", "f32", "stablehlo.add", "")}}, 23);
  ExpectSameAsInProcess({4, 1, {AllReduce("tensor<65537xi32>", "i32", "stablehlo.add", "")}}, 24);
}

}  // namespace
}  // namespace vkhlo::mpitest
