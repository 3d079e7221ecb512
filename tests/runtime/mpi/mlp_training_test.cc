// Data-parallel training over MPI: a small MLP's SGD step (forward, backward, gradients summed by
// all_reduce and divided by the replica count, itself an all_reduce of ones) runs on every rank
// with its shard of the batch. After a few steps the parameters of every process must equal
// those of the same grid run in one process (bit for bit: the same fold in group order) and,
// within float rounding, those of one process training on the whole batch. Runs under
// `mpirun -n 2` and `mpirun -n 4` (tests/runtime/mpi/CMakeLists.txt).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "frontend/parser.h"
#include "runtime/runtime_internal.h"
#include "tests/runtime/mpi/mpi_test_util.h"
#include "verify/verifier.h"

namespace vkhlo::mpitest {
namespace {

constexpr int kRowsPerRank = 4;
constexpr int kSteps = 3;

// The step on a batch of `rows` rows; the mean squared error's gradient is (out - y) / rows.
std::string TrainStep(int rows) {
  const std::string sum = Reducer("f32", "stablehlo.add");
  return fmt::format(R"(func.func @proc(%w1: tensor<3x8xf32>, %b1: tensor<8xf32>, %w2: tensor<8x2xf32>, %b2: tensor<2xf32>,
                 %x: tensor<{B}x3xf32>, %y: tensor<{B}x2xf32>) -> (tensor<3x8xf32>, tensor<8xf32>, tensor<8x2xf32>, tensor<2xf32>) {{
  %h0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<{B}x3xf32>, tensor<3x8xf32>) -> tensor<{B}x8xf32>
  %b1b = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<8xf32>) -> tensor<{B}x8xf32>
  %pre = stablehlo.add %h0, %b1b : tensor<{B}x8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<{B}x8xf32>
  %h = stablehlo.maximum %pre, %zero : tensor<{B}x8xf32>
  %active = stablehlo.compare GT, %pre, %zero : (tensor<{B}x8xf32>, tensor<{B}x8xf32>) -> tensor<{B}x8xi1>
  %o0 = stablehlo.dot_general %h, %w2, contracting_dims = [1] x [0] : (tensor<{B}x8xf32>, tensor<8x2xf32>) -> tensor<{B}x2xf32>
  %b2b = stablehlo.broadcast_in_dim %b2, dims = [1] : (tensor<2xf32>) -> tensor<{B}x2xf32>
  %out = stablehlo.add %o0, %b2b : tensor<{B}x2xf32>
  %diff = stablehlo.subtract %out, %y : tensor<{B}x2xf32>
  %scale = stablehlo.constant dense<{inv}> : tensor<{B}x2xf32>
  %dout = stablehlo.multiply %diff, %scale : tensor<{B}x2xf32>
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %db2 = stablehlo.reduce(%dout init: %c0) applies stablehlo.add across dimensions = [0] : (tensor<{B}x2xf32>, tensor<f32>) -> tensor<2xf32>
  %dw2 = stablehlo.dot_general %h, %dout, contracting_dims = [0] x [0] : (tensor<{B}x8xf32>, tensor<{B}x2xf32>) -> tensor<8x2xf32>
  %dh = stablehlo.dot_general %dout, %w2, contracting_dims = [1] x [1] : (tensor<{B}x2xf32>, tensor<8x2xf32>) -> tensor<{B}x8xf32>
  %dpre = stablehlo.select %active, %dh, %zero : tensor<{B}x8xi1>, tensor<{B}x8xf32>
  %db1 = stablehlo.reduce(%dpre init: %c0) applies stablehlo.add across dimensions = [0] : (tensor<{B}x8xf32>, tensor<f32>) -> tensor<8xf32>
  %dw1 = stablehlo.dot_general %x, %dpre, contracting_dims = [0] x [0] : (tensor<{B}x3xf32>, tensor<{B}x8xf32>) -> tensor<3x8xf32>
  %gw1 = "stablehlo.all_reduce"(%dw1) {sum} : (tensor<3x8xf32>) -> tensor<3x8xf32>
  %gb1 = "stablehlo.all_reduce"(%db1) {sum} : (tensor<8xf32>) -> tensor<8xf32>
  %gw2 = "stablehlo.all_reduce"(%dw2) {sum} : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %gb2 = "stablehlo.all_reduce"(%db2) {sum} : (tensor<2xf32>) -> tensor<2xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %n = "stablehlo.all_reduce"(%one) {sum} : (tensor<f32>) -> tensor<f32>
  %lr = stablehlo.constant dense<0.5> : tensor<f32>
  %k = stablehlo.divide %lr, %n : tensor<f32>
  %k1 = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
  %k2 = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %k3 = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<8x2xf32>
  %k4 = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<2xf32>
  %u1 = stablehlo.multiply %k1, %gw1 : tensor<3x8xf32>
  %u2 = stablehlo.multiply %k2, %gb1 : tensor<8xf32>
  %u3 = stablehlo.multiply %k3, %gw2 : tensor<8x2xf32>
  %u4 = stablehlo.multiply %k4, %gb2 : tensor<2xf32>
  %nw1 = stablehlo.subtract %w1, %u1 : tensor<3x8xf32>
  %nb1 = stablehlo.subtract %b1, %u2 : tensor<8xf32>
  %nw2 = stablehlo.subtract %w2, %u3 : tensor<8x2xf32>
  %nb2 = stablehlo.subtract %b2, %u4 : tensor<2xf32>
  func.return %nw1, %nb1, %nw2, %nb2 : tensor<3x8xf32>, tensor<8xf32>, tensor<8x2xf32>, tensor<2xf32>
}})",
                     fmt::arg("B", rows), fmt::arg("inv", fmt::format("{:.9e}", 1.0 / rows)), fmt::arg("sum", sum));
}

ir::Literal Uniform(std::vector<int64_t> dims, std::mt19937_64& rng, double scale) {
  auto literal = ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kF32, dims));
  EXPECT_TRUE(literal.ok());
  std::uniform_real_distribution<double> u(-scale, scale);
  for (int64_t i = 0; i < literal->type().num_elements(); ++i) literal->SetFloat(i, u(rng));
  return *literal;
}

// Rows [first, first + count) of a rows x cols f32 literal.
ir::Literal Rows(const ir::Literal& all, int64_t first, int64_t count) {
  const int64_t cols = all.type().dim(1);
  auto out = ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kF32, {count, cols}));
  EXPECT_TRUE(out.ok());
  for (int64_t i = 0; i < count * cols; ++i) out->SetFloat(i, all.GetFloat(first * cols + i));
  return *out;
}

StatusOr<Executable> CompileStep(int rows) {
  VKHLO_ASSIGN_OR_RETURN(auto module, frontend::ParseModule(TrainStep(rows)));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  CompileOptions options;
  options.entry = "proc";
  return runtime::CompileModule(RankClient(), std::move(module), options);
}

StatusOr<std::vector<Buffer>> Upload(const std::vector<ir::Literal>& literals) {
  std::vector<Buffer> out;
  for (const ir::Literal& l : literals) {
    VKHLO_ASSIGN_OR_RETURN(Buffer b, runtime::BufferFromLiteral(RankClient(), l));
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<ir::Literal> Download(const std::vector<Buffer>& buffers) {
  std::vector<ir::Literal> out;
  for (const Buffer& b : buffers) {
    auto l = runtime::BufferToLiteral(b);
    EXPECT_TRUE(l.ok()) << l.status().ToString();
    if (l.ok()) out.push_back(std::move(*l));
  }
  return out;
}

TEST(MlpTrainingTest, DataParallelStepsMatchOneProcess) {
  const int n = Session().size();
  std::mt19937_64 rng(2027);
  const std::vector<ir::Literal> initial = {Uniform({3, 8}, rng, 0.6), Uniform({8}, rng, 0.1), Uniform({8, 2}, rng, 0.6),
                                            Uniform({2}, rng, 0.1)};
  const ir::Literal x = Uniform({int64_t{kRowsPerRank} * n, 3}, rng, 1.0);
  const ir::Literal y = Uniform({int64_t{kRowsPerRank} * n, 2}, rng, 1.0);
  const ProcessGridOptions grid{.num_replicas = n, .num_partitions = 1, .timeout = std::chrono::seconds(30)};

  // Over MPI: this rank trains on its shard.
  auto step = CompileStep(kRowsPerRank);
  ASSERT_TRUE(step.ok()) << step.status().ToString();
  auto params = Upload(initial);
  auto shard = Upload({Rows(x, int64_t{kRowsPerRank} * Session().rank(), kRowsPerRank),
                       Rows(y, int64_t{kRowsPerRank} * Session().rank(), kRowsPerRank)});
  ASSERT_TRUE(params.ok() && shard.ok());
  for (int s = 0; s < kSteps; ++s) {
    std::vector<Buffer> arguments = *params;
    arguments.insert(arguments.end(), shard->begin(), shard->end());
    auto next = Session().Run(grid, {*step, arguments});
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    params = std::move(*next);
  }
  auto gathered = Session().GatherResults(*params);
  ASSERT_TRUE(gathered.ok()) << gathered.status().ToString();
  std::vector<std::vector<ir::Literal>> over_mpi;
  for (const auto& process : *gathered) {
    std::vector<Buffer> buffers;
    for (const HostTensor& t : process) {
      auto b = RankClient().BufferFromHost(t.type, t.bytes);
      ASSERT_TRUE(b.ok());
      buffers.push_back(*b);
    }
    over_mpi.push_back(Download(buffers));
  }
  if (Session().rank() != 0) return;

  // The same grid in this process: every process a thread.
  std::vector<std::vector<Buffer>> in_process(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) in_process[static_cast<size_t>(p)] = *Upload(initial);
  for (int s = 0; s < kSteps; ++s) {
    std::vector<ProcessRun> runs;
    for (int p = 0; p < n; ++p) {
      std::vector<Buffer> arguments = in_process[static_cast<size_t>(p)];
      auto data = Upload({Rows(x, int64_t{kRowsPerRank} * p, kRowsPerRank), Rows(y, int64_t{kRowsPerRank} * p, kRowsPerRank)});
      ASSERT_TRUE(data.ok());
      arguments.insert(arguments.end(), data->begin(), data->end());
      runs.push_back({*step, arguments});
    }
    auto next = RunProcessGrid(grid, runs);
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    in_process = std::move(*next);
  }

  // One process on the whole batch (all_reduce over a group of one is the identity).
  auto whole = CompileStep(kRowsPerRank * n);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  auto single = Upload(initial);
  auto batch = Upload({x, y});
  ASSERT_TRUE(single.ok() && batch.ok());
  for (int s = 0; s < kSteps; ++s) {
    std::vector<Buffer> arguments = *single;
    arguments.insert(arguments.end(), batch->begin(), batch->end());
    auto next = whole->Execute(arguments);
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    single = std::move(*next);
  }
  const std::vector<ir::Literal> reference = Download(*single);

  double moved = 0;
  for (int p = 0; p < n; ++p) {
    const std::vector<ir::Literal> local = Download(in_process[static_cast<size_t>(p)]);
    ASSERT_EQ(over_mpi[static_cast<size_t>(p)].size(), 4u);
    for (size_t i = 0; i < 4; ++i) {
      const ir::Literal& mpi = over_mpi[static_cast<size_t>(p)][i];
      EXPECT_TRUE(std::equal(mpi.raw().begin(), mpi.raw().end(), local[i].raw().begin(), local[i].raw().end()))
          << "process " << p << ", parameter " << i << ": over MPI " << mpi.ToString() << ", in-process "
          << local[i].ToString();
      for (int64_t e = 0; e < mpi.type().num_elements(); ++e) {
        const double a = mpi.GetFloat(e), b = reference[i].GetFloat(e);
        EXPECT_NEAR(a, b, 2e-6 * std::max(1.0, std::abs(b))) << "process " << p << ", parameter " << i << "[" << e << "]";
        moved = std::max(moved, std::abs(a - initial[i].GetFloat(e)));
      }
    }
  }
  EXPECT_GT(moved, 1e-3) << "the steps did not train";
}

}  // namespace
}  // namespace vkhlo::mpitest
