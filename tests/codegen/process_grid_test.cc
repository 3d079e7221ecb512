// The process grid on the Vulkan runtime (include/vkhlo/process_grid.h) against the reference
// interpreter's interpreter.run_parallel: every collective on random inputs and several grid
// shapes and strategies, replica/partition ids, send/recv, feed ordering, failures that stop the
// grid, and one executable executed from several threads at once.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "runtime/runtime_internal.h"
#include "tests/support/runtime_test_util.h"
#include "verify/verifier.h"
#include "vkhlo/process_grid.h"

namespace vkhlo {
namespace {

using testing::SharedClient;

struct GridCase {
  int64_t replicas = 1, partitions = 1;
  std::string program;                  // func.func @proc(...) -> (...) {...}
  std::vector<std::string> input_types;  // @proc's parameters (each process gets its own)
  std::vector<std::string> result_types;
};

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The program plus a @main running it on every process of the grid (arguments row-major).
std::string WithMain(const GridCase& c) {
  const int64_t n = c.replicas * c.partitions;
  std::vector<std::string> params, args, arg_types, result_types, returned, rows;
  for (int64_t p = 0; p < n; ++p) {
    for (size_t i = 0; i < c.input_types.size(); ++i) {
      params.push_back(fmt::format("%a{}_{}: {}", p, i, c.input_types[i]));
      args.push_back(fmt::format("%a{}_{}", p, i));
      arg_types.push_back(c.input_types[i]);
    }
    for (const auto& t : c.result_types) result_types.push_back(t);
  }
  for (int64_t r = 0; r < c.replicas; ++r) {
    std::vector<std::string> row(static_cast<size_t>(c.partitions), "@proc");
    rows.push_back("[" + Join(row) + "]");
  }
  const size_t results = result_types.size();
  for (size_t i = 0; i < results; ++i) returned.push_back(results == 1 ? "%r" : fmt::format("%r#{}", i));
  return fmt::format(
      "module {{\n{}\nfunc.func @main({}) -> ({}) {{\n  %r{} = \"interpreter.run_parallel\"({}) {{programs = [{}]}} : "
      "({}) -> ({})\n  func.return {} : {}\n}}\n}}\n",
      c.program, Join(params), Join(result_types), results == 1 ? "" : fmt::format(":{}", results), Join(args),
      Join(rows), Join(arg_types), Join(result_types), Join(returned), Join(result_types));
}

StatusOr<ir::Type> ParseTensorType(const std::string& text) {
  VKHLO_ASSIGN_OR_RETURN(auto module, frontend::ParseModule(fmt::format(
                                          "func.func @t(%x: {}) -> {} {{ func.return %x : {} }}", text, text, text)));
  return module->functions()[0]->type().inputs[0];
}

// Runs `c` on both with random inputs (seeded), expecting bitwise-equal results (NaNs equal).
void ExpectSameAsInterpreter(const GridCase& c, uint64_t seed) {
  const std::string text = WithMain(c);
  SCOPED_TRACE(text);
  std::mt19937_64 rng(seed);
  const int64_t n = c.replicas * c.partitions;
  std::vector<ir::Literal> inputs;
  for (int64_t p = 0; p < n; ++p) {
    for (const auto& t : c.input_types) {
      auto type = ParseTensorType(t);
      ASSERT_TRUE(type.ok()) << type.status().ToString();
      inputs.push_back(testing::RandomLiteral(*type, rng));
    }
  }
  auto module = frontend::ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ASSERT_TRUE(verify::VerifyModule(**module).ok()) << verify::VerifyModule(**module).ToString();
  interp::InterpValues values;
  for (const auto& l : inputs) values.push_back(interp::InterpValue::Tensor(l));
  auto reference = interp::RunFunction(**module, "main", values);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();

  // Every process on the shared client (one queue), then each on a client of its own (a logical
  // device and queue each: tensors move between processes through host memory, and the
  // arguments, made on the shared client, are copied to each process's client).
  for (ProcessPlacement placement : {ProcessPlacement::kShared, ProcessPlacement::kQueuePerProcess}) {
    SCOPED_TRACE(placement == ProcessPlacement::kShared ? "shared" : "queue per process");
    std::vector<std::shared_ptr<Client>> clients;
    if (placement != ProcessPlacement::kShared) {
      auto created = CreateProcessClients(n, placement);
      ASSERT_TRUE(created.ok()) << created.status().ToString();
      clients = std::move(*created);
    }
    const Client& client = SharedClient();
    std::vector<ProcessRun> runs(static_cast<size_t>(n));
    size_t next = 0;
    for (size_t p = 0; p < runs.size(); ++p) {
      auto vk_module = frontend::ParseModule(text);
      ASSERT_TRUE(vk_module.ok());
      CompileOptions options;
      options.entry = "proc";
      auto exe = runtime::CompileModule(clients.empty() ? client : *clients[p], std::move(*vk_module), options);
      ASSERT_TRUE(exe.ok()) << exe.status().ToString();
      runs[p].executable = *exe;
      for (size_t i = 0; i < c.input_types.size(); ++i) {
        auto b = runtime::BufferFromLiteral(client, inputs[next++]);
        ASSERT_TRUE(b.ok()) << b.status().ToString();
        runs[p].arguments.push_back(*b);
      }
    }
    auto results = RunProcessGrid({.num_replicas = c.replicas, .num_partitions = c.partitions}, runs);
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    size_t k = 0;
    for (int64_t p = 0; p < n; ++p) {
      ASSERT_EQ((*results)[p].size(), c.result_types.size());
      for (const Buffer& b : (*results)[p]) {
        auto actual = runtime::BufferToLiteral(b);
        ASSERT_TRUE(actual.ok());
        const ir::Literal& expected = reference->outputs[k++].literal();
        std::string why;
        EXPECT_TRUE(testing::SameBits(*actual, expected, &why)) << "process " << p << ": " << why;
      }
    }
  }
}

std::string Reducer(const std::string& scalar, const std::string& op) {
  return fmt::format("({{\n  ^bb0(%ra: tensor<{0}>, %rb: tensor<{0}>):\n    %rz = {1} %ra, %rb : tensor<{0}>\n"
                     "    stablehlo.return %rz : tensor<{0}>\n  }})", scalar, op);
}

TEST(ProcessGridTest, AllReduceAddF32CrossReplica) {
  GridCase c{4, 1,
             "func.func @proc(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {\n"
             "  %r = \"stablehlo.all_reduce\"(%x) " + Reducer("f32", "stablehlo.add") +
             " {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<3x5xf32>) -> tensor<3x5xf32>\n"
             "  func.return %r : tensor<3x5xf32>\n}",
             {"tensor<3x5xf32>"}, {"tensor<3x5xf32>"}};
  ExpectSameAsInterpreter(c, 1);
}

TEST(ProcessGridTest, AllReduceMaxI8GroupsAndFlattenedIds) {
  // Flattened ids over a 2 x 2 grid: groups {0, 3} and {2, 1} (group order matters for floats,
  // not for max, but the groups must pair the right processes).
  GridCase c{2, 2,
             "func.func @proc(%x: tensor<7xi8>) -> tensor<7xi8> {\n"
             "  %r = \"stablehlo.all_reduce\"(%x) " + Reducer("i8", "stablehlo.maximum") +
             " {replica_groups = dense<[[0, 3], [2, 1]]> : tensor<2x2xi64>, channel_handle = "
             "#stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids} : (tensor<7xi8>) -> tensor<7xi8>\n"
             "  func.return %r : tensor<7xi8>\n}",
             {"tensor<7xi8>"}, {"tensor<7xi8>"}};
  ExpectSameAsInterpreter(c, 2);
}

TEST(ProcessGridTest, AllReduceMultiplyBf16) {
  GridCase d{3, 1,
             "func.func @proc(%x: tensor<4xbf16>) -> tensor<4xbf16> {\n"
             "  %r = \"stablehlo.all_reduce\"(%x) " + Reducer("bf16", "stablehlo.multiply") +
             " : (tensor<4xbf16>) -> tensor<4xbf16>\n  func.return %r : tensor<4xbf16>\n}",
             {"tensor<4xbf16>"}, {"tensor<4xbf16>"}};
  ExpectSameAsInterpreter(d, 3);
}

TEST(ProcessGridTest, AllGatherCrossReplicaAndPartition) {
  GridCase c{2, 2,
             "func.func @proc(%x: tensor<2x3xui16>) -> tensor<2x12xui16> {\n"
             "  %r = \"stablehlo.all_gather\"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : "
             "tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<2x3xui16>) -> "
             "tensor<2x12xui16>\n  func.return %r : tensor<2x12xui16>\n}",
             {"tensor<2x3xui16>"}, {"tensor<2x12xui16>"}};
  ExpectSameAsInterpreter(c, 4);
}

TEST(ProcessGridTest, ReduceScatterMultiplyUi32) {
  GridCase c{4, 1,
             "func.func @proc(%x: tensor<3x8xui32>) -> tensor<3x2xui32> {\n"
             "  %r = \"stablehlo.reduce_scatter\"(%x) " + Reducer("ui32", "stablehlo.multiply") +
             " {scatter_dimension = 1 : i64, replica_groups = dense<[[3, 1, 0, 2]]> : tensor<1x4xi64>} : "
             "(tensor<3x8xui32>) -> tensor<3x2xui32>\n  func.return %r : tensor<3x2xui32>\n}",
             {"tensor<3x8xui32>"}, {"tensor<3x2xui32>"}};
  ExpectSameAsInterpreter(c, 5);
}

TEST(ProcessGridTest, AllToAllCrossPartition) {
  GridCase c{1, 3,
             "func.func @proc(%x: tensor<2x6xf16>) -> tensor<6x2xf16> {\n"
             "  %r = \"stablehlo.all_to_all\"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 3 "
             ": i64, replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>, channel_handle = "
             "#stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<2x6xf16>) -> tensor<6x2xf16>\n"
             "  func.return %r : tensor<6x2xf16>\n}",
             {"tensor<2x6xf16>"}, {"tensor<6x2xf16>"}};
  ExpectSameAsInterpreter(c, 6);
}

TEST(ProcessGridTest, CollectivePermuteWithZerosForNonTargets) {
  GridCase c{3, 2,
             "func.func @proc(%x: tensor<2x2xi64>) -> tensor<2x2xi64> {\n"
             "  %r = \"stablehlo.collective_permute\"(%x) {source_target_pairs = dense<[[0, 1], [1, 2]]> : "
             "tensor<2x2xi64>} : (tensor<2x2xi64>) -> tensor<2x2xi64>\n  func.return %r : tensor<2x2xi64>\n}",
             {"tensor<2x2xi64>"}, {"tensor<2x2xi64>"}};
  ExpectSameAsInterpreter(c, 7);
}

TEST(ProcessGridTest, CollectiveBroadcastAndReduce) {
  GridCase c{4, 1,
             "func.func @proc(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {\n"
             "  %b = \"stablehlo.collective_broadcast\"(%x) {replica_groups = dense<[[2, 1], [3, -1]]> : "
             "tensor<2x2xi64>} : (tensor<5xf32>) -> tensor<5xf32>\n"
             "  %r = \"stablehlo.collective_reduce\"(%x) " + Reducer("f32", "stablehlo.add") +
             " {replica_groups = dense<[[1, 0, 3, 2]]> : tensor<1x4xi64>} : (tensor<5xf32>) -> tensor<5xf32>\n"
             "  func.return %b, %r : tensor<5xf32>, tensor<5xf32>\n}",
             {"tensor<5xf32>"}, {"tensor<5xf32>", "tensor<5xf32>"}};
  ExpectSameAsInterpreter(c, 8);
}

TEST(ProcessGridTest, IdsAreDeviceValuesOfEachProcess) {
  GridCase c{3, 2,
             "func.func @proc(%x: tensor<4xui32>) -> tensor<4xui32> {\n"
             "  %r = stablehlo.replica_id : tensor<ui32>\n  %p = stablehlo.partition_id : tensor<ui32>\n"
             "  %ten = stablehlo.constant dense<10> : tensor<ui32>\n  %rt = stablehlo.multiply %r, %ten : tensor<ui32>\n"
             "  %id = stablehlo.add %rt, %p : tensor<ui32>\n"
             "  %b = stablehlo.broadcast_in_dim %id, dims = [] : (tensor<ui32>) -> tensor<4xui32>\n"
             "  %s = stablehlo.add %x, %b : tensor<4xui32>\n  func.return %s : tensor<4xui32>\n}",
             {"tensor<4xui32>"}, {"tensor<4xui32>"}};
  ExpectSameAsInterpreter(c, 9);
}

TEST(ProcessGridTest, CollectivesInsideAWhileLoopMeetTheirPartners) {
  // Each iteration's all_reduce meets the other processes' execution of the same iteration.
  GridCase c{2, 1,
             "func.func @proc(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
             "  %zero = stablehlo.constant dense<0> : tensor<i32>\n  %three = stablehlo.constant dense<3> : tensor<i32>\n"
             "  %one = stablehlo.constant dense<1> : tensor<i32>\n"
             "  %w:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<3xi32>\n"
             "  cond {\n    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
             "    stablehlo.return %c : tensor<i1>\n  } do {\n"
             "    %s = \"stablehlo.all_reduce\"(%v) " + Reducer("i32", "stablehlo.add") +
             " : (tensor<3xi32>) -> tensor<3xi32>\n"
             "    %n = stablehlo.add %i, %one : tensor<i32>\n    stablehlo.return %n, %s : tensor<i32>, tensor<3xi32>\n  }\n"
             "  func.return %w#1 : tensor<3xi32>\n}",
             {"tensor<3xi32>"}, {"tensor<3xi32>"}};
  ExpectSameAsInterpreter(c, 10);
}

StatusOr<Executable> CompileText(const std::string& text, const std::string& entry,
                                 const Client& client = SharedClient()) {
  auto module = frontend::ParseModule(text);
  if (!module.ok()) return module.status();
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(**module));
  CompileOptions options;
  options.entry = entry;
  return runtime::CompileModule(client, std::move(*module), options);
}

std::vector<int32_t> ToInts(const Buffer& b) {
  auto bytes = b.ToHost();
  EXPECT_TRUE(bytes.ok());
  std::vector<int32_t> out(bytes->size() / 4);
  std::memcpy(out.data(), bytes->data(), out.size() * 4);
  return out;
}

HostTensor I32(std::vector<int32_t> values) {
  HostTensor t{{"i32", {static_cast<int64_t>(values.size())}}, std::vector<uint8_t>(values.size() * 4)};
  std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

TEST(ProcessGridTest, SendRecvAndFeedsInProgramOrder) {
  const std::string text = R"(
func.func @sender(%x: tensor<2xi32>, %t: !stablehlo.token) -> !stablehlo.token {
  %a = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true} : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  %y = stablehlo.add %x, %x : tensor<2xi32>
  %b = "stablehlo.send"(%y, %a) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true} : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  func.return %b : !stablehlo.token
}
func.func @receiver(%t: !stablehlo.token) -> (tensor<2xi32>, tensor<2xi32>) {
  %r0:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %r1:2 = "stablehlo.recv"(%r0#1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %i0:2 = "stablehlo.infeed"(%r1#1) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %i1:2 = "stablehlo.infeed"(%i0#1) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %sum = stablehlo.subtract %i0#0, %i1#0 : tensor<2xi32>
  %o = "stablehlo.outfeed"(%sum, %i1#1) : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  %o2 = "stablehlo.outfeed"(%r1#0, %r0#0, %o) : (tensor<2xi32>, tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  func.return %r0#0, %r1#0 : tensor<2xi32>, tensor<2xi32>
}
)";
  // The sender and the receiver on clients of their own: the values go through host memory.
  auto clients = CreateProcessClients(2, ProcessPlacement::kQueuePerProcess);
  ASSERT_TRUE(clients.ok()) << clients.status().ToString();
  auto sender = CompileText(text, "sender", *(*clients)[0]);
  auto receiver = CompileText(text, "receiver", *(*clients)[1]);
  ASSERT_TRUE(sender.ok()) << sender.status().ToString();
  ASSERT_TRUE(receiver.ok()) << receiver.status().ToString();
  const TensorType i32x2{"i32", {2}};
  std::vector<uint8_t> bytes(8);
  const int32_t x[2] = {3, -4};
  std::memcpy(bytes.data(), x, 8);
  auto arg = SharedClient().BufferFromHost(i32x2, bytes);
  ASSERT_TRUE(arg.ok());
  auto infeed = std::make_shared<InfeedQueue>();
  auto outfeed = std::make_shared<OutfeedQueue>();
  infeed->Push({I32({10, 20})});
  infeed->Push({I32({1, 2})});
  std::vector<ProcessRun> runs = {{*sender, {*arg}, nullptr, nullptr}, {*receiver, {}, infeed, outfeed}};
  auto results = RunProcessGrid({.num_replicas = 2, .num_partitions = 1}, runs);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  EXPECT_TRUE((*results)[0].empty());
  ASSERT_EQ((*results)[1].size(), 2u);
  EXPECT_EQ(ToInts((*results)[1][0]), (std::vector<int32_t>{3, -4}));
  EXPECT_EQ(ToInts((*results)[1][1]), (std::vector<int32_t>{6, -8}));
  EXPECT_EQ(infeed->size(), 0u);
  ASSERT_EQ(outfeed->size(), 2u);
  auto first = outfeed->Pop();
  ASSERT_EQ(first->size(), 1u);
  EXPECT_EQ((*first)[0].type, i32x2);
  std::vector<int32_t> diff(2);
  std::memcpy(diff.data(), (*first)[0].bytes.data(), 8);
  EXPECT_EQ(diff, (std::vector<int32_t>{9, 18}));
  auto second = outfeed->Pop();
  ASSERT_EQ(second->size(), 2u);
  std::vector<int32_t> a(2), b(2);
  std::memcpy(a.data(), (*second)[0].bytes.data(), 8);
  std::memcpy(b.data(), (*second)[1].bytes.data(), 8);
  EXPECT_EQ(a, (std::vector<int32_t>{6, -8}));
  EXPECT_EQ(b, (std::vector<int32_t>{3, -4}));
}

TEST(ProcessGridTest, AFailingProcessStopsTheOthers) {
  // Process 1 reads an empty infeed; process 0 waits at the all_reduce and must stop too.
  const std::string text = R"(
func.func @proc(%x: tensor<2xi32>, %t: !stablehlo.token) -> tensor<2xi32> {
  %r = stablehlo.replica_id : tensor<ui32>
  %zero = stablehlo.constant dense<0> : tensor<ui32>
  %c = stablehlo.compare EQ, %r, %zero : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
  %v = "stablehlo.if"(%c) ({
    stablehlo.return %x : tensor<2xi32>
  }, {
    %i:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
    stablehlo.return %i#0 : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xi32>
  %s = "stablehlo.all_reduce"(%v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %z = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %z : tensor<i32>
  }) : (tensor<2xi32>) -> tensor<2xi32>
  func.return %s : tensor<2xi32>
}
)";
  auto exe = CompileText(text, "proc");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  auto arg = SharedClient().BufferFromHost({"i32", {2}}, std::vector<uint8_t>(8, 1));
  ASSERT_TRUE(arg.ok());
  std::vector<ProcessRun> runs = {{*exe, {*arg}, std::make_shared<InfeedQueue>(), nullptr},
                                  {*exe, {*arg}, std::make_shared<InfeedQueue>(), nullptr}};
  auto results = RunProcessGrid({.num_replicas = 2, .num_partitions = 1}, runs);
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("process (1, 0)"), std::string::npos) << results.status().message();
  EXPECT_NE(results.status().message().find("reads from an empty infeed"), std::string::npos)
      << results.status().message();
}

TEST(ProcessGridTest, CollectivesThatNeverMeetTimeOut) {
  // Different groups on the two processes: neither rendezvous completes.
  const std::string text = R"(
func.func @proc(%x: tensor<2xi32>) -> tensor<2xi32> {
  %s = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  %t = "stablehlo.collective_permute"(%s) {source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %t : tensor<2xi32>
}
func.func @other(%x: tensor<2xi32>) -> tensor<2xi32> {
  %t = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %t : tensor<2xi32>
}
)";
  auto proc = CompileText(text, "proc");
  auto other = CompileText(text, "other");
  ASSERT_TRUE(proc.ok() && other.ok());
  auto arg = SharedClient().BufferFromHost({"i32", {2}}, std::vector<uint8_t>(8, 1));
  ASSERT_TRUE(arg.ok());
  std::vector<ProcessRun> runs = {{*proc, {*arg}, nullptr, nullptr}, {*other, {*arg}, nullptr, nullptr}};
  auto results = RunProcessGrid({.num_replicas = 2, .num_partitions = 1, .timeout = std::chrono::milliseconds(300)}, runs);
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), StatusCode::kDeadlineExceeded) << results.status().ToString();
}

TEST(ConcurrentExecuteTest, OneExecutableFromFourThreads) {
  // The same executable (control flow included: several submissions per run) from 4 threads at
  // once, each with its own inputs, many times; every result must be its own input's.
  const std::string text = R"(
func.func @main(%x: tensor<257xf32>, %n: tensor<i32>) -> tensor<257xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<257xf32>
  cond {
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %h = stablehlo.constant dense<0.5> : tensor<257xf32>
    %m = stablehlo.multiply %v, %h : tensor<257xf32>
    %a = stablehlo.add %m, %v : tensor<257xf32>
    %k = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %k, %a : tensor<i32>, tensor<257xf32>
  }
  func.return %w#1 : tensor<257xf32>
}
)";
  auto exe = CompileText(text, "main");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  constexpr int kThreads = 4, kRuns = 6;
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < kRuns && errors[t].empty(); ++run) {
        std::vector<float> x(257);
        for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(t * 1000 + run * 10) + static_cast<float>(i);
        const int32_t n = 1 + (t + run) % 4;
        std::vector<uint8_t> xb(x.size() * 4), nb(4);
        std::memcpy(xb.data(), x.data(), xb.size());
        std::memcpy(nb.data(), &n, 4);
        auto xbuf = SharedClient().BufferFromHost({"f32", {257}}, xb);
        auto nbuf = SharedClient().BufferFromHost({"i32", {}}, nb);
        if (!xbuf.ok() || !nbuf.ok()) {
          errors[t] = "upload failed";
          return;
        }
        auto results = exe->Execute({*xbuf, *nbuf});
        if (!results.ok()) {
          errors[t] = results.status().ToString();
          return;
        }
        auto bytes = (*results)[0].ToHost();
        if (!bytes.ok()) {
          errors[t] = bytes.status().ToString();
          return;
        }
        std::vector<float> y(257);
        std::memcpy(y.data(), bytes->data(), bytes->size());
        for (size_t i = 0; i < y.size(); ++i) {
          float expected = x[i];
          for (int k = 0; k < n; ++k) expected = expected * 0.5f + expected;
          if (y[i] != expected) {
            errors[t] = fmt::format("thread {} run {} element {}: {} != {}", t, run, i, y[i], expected);
            return;
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& e : errors) EXPECT_TRUE(e.empty()) << e;
}

}  // namespace
}  // namespace vkhlo
