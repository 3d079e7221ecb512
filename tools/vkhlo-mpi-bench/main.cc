// vkhlo-mpi-bench: what process grids over MPI cost, beside MPI itself, in one run.
//   mpirun -n N vkhlo-mpi-bench [--min-mb=1] [--max-mb=256] [--repeat=5] [--latency-repeat=20]
//
// Bandwidth: all_reduce (sum) of 1 MB .. 256 MB through vkhlo — f32 (each process receives the
// others' operands and folds them in group order on its device: the bits of the in-process grid)
// and i32 (an exact reduction: MPI_Iallreduce on a host copy) — beside MPI_Allreduce on host
// buffers of the same size. Sizes over 128 MiB (lavapipe's maxStorageBufferRange, the most a
// kernel binds) are one all_reduce of several operands. Each vkhlo time is a grid run of the
// collective minus one of an identity program on the same tensors, run in alternating pairs (the
// median difference): the collective's own cost — device download, MPI, upload, fold — without
// the run's launch and end-of-run handshake. Times are the slowest rank's; bus bandwidth is
// 2 (N - 1) / N * bytes / time (the NCCL convention, comparable across N).
// Latency: one small collective (16 elements), (T(32 of them) - T(none)) / 32 per grid run, for
// every collective, and a send/recv ping-pong; beside MPI_Allreduce and MPI_Barrier.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "vkhlo/mpi.h"

namespace {

using vkhlo::Buffer;
using vkhlo::Executable;
using vkhlo::MpiSession;
using vkhlo::ProcessGridOptions;
using vkhlo::ProcessRun;
using vkhlo::StatusOr;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double Now() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The slowest rank's value.
double Slowest(double ms) {
  double max = 0;
  MPI_Allreduce(&ms, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}

[[noreturn]] void Die(MpiSession& session, const std::string& what) {
  std::fprintf(stderr, "vkhlo-mpi-bench: rank %d: %s\n", session.rank(), what.c_str());
  std::fflush(stderr);
  session.Abort(1);
}

constexpr int64_t kMaxOperandElements = int64_t{128} << 20 >> 2;  // 128 MiB of 4-byte elements

std::string Reducer(const char* scalar) {
  return fmt::format("({{\n  ^bb0(%a: tensor<{0}>, %b: tensor<{0}>):\n    %s = stablehlo.add %a, %b : tensor<{0}>\n"
                     "    stablehlo.return %s : tensor<{0}>\n  }})",
                     scalar);
}

class Bench {
 public:
  explicit Bench(MpiSession& session) : session_(session) {
    auto client = session.CreateClient();
    if (!client.ok()) Die(session, client.status().ToString());
    client_ = *client;
  }

  Executable Compile(const std::string& text) {
    auto exe = client_->CompileStableHlo(text);
    if (!exe.ok()) Die(session_, exe.status().ToString() + "\n" + text);
    return **exe;
  }

  Buffer Zeros(const char* element, int64_t count, int bytes_per_element) {
    std::vector<uint8_t> bytes(static_cast<size_t>(count * bytes_per_element), 0);
    for (size_t i = 0; i < bytes.size(); i += static_cast<size_t>(bytes_per_element)) bytes[i] = 1;  // small values
    auto b = client_->BufferFromHost({element, {count}}, bytes);
    if (!b.ok()) Die(session_, b.status().ToString());
    return *b;
  }

  // One grid run of `run`, in ms on the slowest rank.
  double TimeRun(const ProcessGridOptions& grid, const ProcessRun& run) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = Now();
    auto results = session_.Run(grid, run);
    const double ms = Now() - start;
    if (!results.ok()) Die(session_, results.status().ToString());
    return Slowest(ms);
  }

  // The median over `repeat` alternating pairs (after one warm-up pair) of a run of `with` minus
  // one of `without`: the load of this shared machine drifts less within a pair than between
  // two series.
  double TimeDifference(const ProcessGridOptions& grid, const ProcessRun& with, const ProcessRun& without, int repeat) {
    std::vector<double> differences;
    for (int i = 0; i <= repeat; ++i) {
      const double a = TimeRun(grid, with);
      const double b = TimeRun(grid, without);
      if (i > 0) differences.push_back(a - b);
    }
    return Median(differences);
  }

  double TimeHost(const std::function<void()>& call, int repeat) {
    std::vector<double> times;
    for (int i = 0; i <= repeat; ++i) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = Now();
      call();
      if (i > 0) times.push_back(Now() - start);
    }
    return Slowest(Median(times));
  }

  void Bandwidth(int min_mb, int max_mb, int repeat) {
    const int n = session_.size();
    const ProcessGridOptions grid{.num_replicas = n, .num_partitions = 1, .timeout = std::chrono::minutes(5)};
    Print("| size | MPI_Allreduce f32 (host) | vkhlo all_reduce f32 (fold on device) | vkhlo all_reduce i32 (MPI_Iallreduce) "
          "|\n|---|---|---|---|\n");
    for (int mb = min_mb; mb <= max_mb; mb *= 4) {
      const int64_t count = int64_t{mb} * (1 << 20) / 4;
      const double bytes = static_cast<double>(count) * 4;
      auto cell = [&](double ms) {
        const double bus = 2.0 * (n - 1) / n * bytes / (ms / 1000) / 1e9;
        return fmt::format("{:.2f} ms, {:.2f} GB/s", ms, bus);
      };
      std::vector<float> host(static_cast<size_t>(count), 1.0f);
      const double mpi_ms = TimeHost(
          [&] { MPI_Allreduce(MPI_IN_PLACE, host.data(), static_cast<int>(count), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); },
          repeat);
      host.clear();
      host.shrink_to_fit();
      std::string row = fmt::format("| {} MB | {} |", mb, cell(mpi_ms));
      // Kernels bind at most maxStorageBufferRange bytes (128 MiB on lavapipe): larger sizes are
      // one all_reduce of several operands of at most 128 MiB.
      const int64_t pieces = (count + kMaxOperandElements - 1) / kMaxOperandElements;
      for (const auto& [element, scalar] : {std::pair{"f32", "f32"}, std::pair{"i32", "i32"}}) {
        const std::string type = fmt::format("tensor<{}x{}>", count / pieces, element);
        std::string params, operands, types, results;
        for (int64_t p = 0; p < pieces; ++p) {
          params += fmt::format("{}%x{}: {}", p ? ", " : "", p, type);
          operands += fmt::format("{}%x{}", p ? ", " : "", p);
          types += fmt::format("{}{}", p ? ", " : "", type);
          results += fmt::format("{}%r#{}", p ? ", " : "", p);
        }
        Executable reduce = Compile(fmt::format(
            "func.func @main({0}) -> ({1}) {{\n  %r:{2} = \"stablehlo.all_reduce\"({3}) {4} : ({1}) -> ({1})\n"
            "  func.return {5} : {1}\n}}",
            params, types, pieces, operands, Reducer(scalar), results));
        Executable identity =
            Compile(fmt::format("func.func @main({0}) -> ({1}) {{\n  func.return {2} : {1}\n}}", params, types, operands));
        std::vector<Buffer> x;
        for (int64_t p = 0; p < pieces; ++p) x.push_back(Zeros(element, count / pieces, 4));
        row += fmt::format(" {} |", cell(std::max(TimeDifference(grid, {reduce, x}, {identity, x}, repeat), 1e-3)));
      }
      Print(row + "\n");
    }
  }

  void Latency(int repeat) {
    const int n = session_.size();
    const ProcessGridOptions grid{.num_replicas = n, .num_partitions = 1, .timeout = std::chrono::minutes(1)};
    constexpr int kCopies = 32;
    const std::string t = "tensor<16xf32>";
    struct Case {
      std::string name, op;  // op: one collective of %x, "%r{i} = ..." with {i}
    };
    std::string ring;
    for (int i = 0; i < n; ++i) ring += fmt::format("{}[{}, {}]", i ? ", " : "", i, (i + 1) % n);
    const std::vector<Case> cases = {
        {"all_reduce f32 (fold)", "\"stablehlo.all_reduce\"(%x) " + Reducer("f32") + " : (T) -> T"},
        {"all_reduce i32 (MPI)", "\"stablehlo.all_reduce\"(%xi) " + Reducer("i32") + " : (TI) -> TI"},
        {"all_gather", fmt::format("\"stablehlo.all_gather\"(%x) {{all_gather_dim = 0 : i64}} : (T) -> tensor<{}xf32>",
                                   16 * n)},
        {"reduce_scatter", fmt::format("\"stablehlo.reduce_scatter\"(%xs) {} {{scatter_dimension = 0 : i64}} : "
                                       "(tensor<{}xf32>) -> T",
                                       Reducer("f32"), 16 * n)},
        {"all_to_all", fmt::format("\"stablehlo.all_to_all\"(%xs) {{split_dimension = 0 : i64, concat_dimension = 0 : "
                                   "i64, split_count = {} : i64}} : (tensor<{}xf32>) -> tensor<{}xf32>",
                                   n, 16 * n, 16 * n)},
        {"collective_permute (ring)",
         fmt::format("\"stablehlo.collective_permute\"(%x) {{source_target_pairs = dense<[{}]> : tensor<{}x2xi64>}} : "
                     "(T) -> T",
                     ring, n)},
        {"collective_broadcast", "\"stablehlo.collective_broadcast\"(%x) : (T) -> T"},
    };
    auto program = [&](const std::string& op, int copies) {
      std::string body, results, types;
      for (int i = 0; i < copies; ++i) {
        std::string line = op;
        for (size_t at; (at = line.find("(T)")) != std::string::npos;) line.replace(at, 3, "(" + t + ")");
        for (size_t at; (at = line.find("-> T")) != std::string::npos && (at + 4 == line.size());) {
          line.replace(at, 4, "-> " + t);
        }
        for (size_t at; (at = line.find("TI")) != std::string::npos;) line.replace(at, 2, "tensor<16xi32>");
        body += fmt::format("  %r{} = {}\n", i, line);
        const size_t arrow = line.rfind("-> ");
        results += fmt::format("{}%r{}", i ? ", " : "", i);
        types += (i ? ", " : "") + line.substr(arrow + 3);
      }
      return fmt::format(
          "func.func @main(%x: {0}, %xi: tensor<16xi32>, %xs: tensor<{1}xf32>) -> ({2}) {{\n{3}  func.return {4} : {2}\n}}",
          t, 16 * n, copies ? types : t, body, copies ? results : "%x");
    };
    const std::vector<Buffer> args = {Zeros("f32", 16, 4), Zeros("i32", 16, 4), Zeros("f32", 16 * n, 4)};
    const ProcessRun base{Compile(program("", 0)), args};
    std::vector<double> runs;
    for (int i = 0; i <= repeat; ++i) runs.push_back(TimeRun(grid, base));
    Print(fmt::format("\n| collective ({} ranks, 16 elements) | latency |\n|---|---|\n", n));
    Print(fmt::format("| grid run of an identity program (launch + end-of-run handshake) | {:.1f} us |\n",
                      Median(std::vector<double>(runs.begin() + 1, runs.end())) * 1000));
    for (const Case& c : cases) {
      const double ms = TimeDifference(grid, {Compile(program(c.op, kCopies)), args}, base, repeat);
      Print(fmt::format("| {} | {:.1f} us |\n", c.name, ms / kCopies * 1000));
    }
    // A send/recv ping-pong between processes 0 and 1 (the others run the identity program).
    if (n >= 2) {
      auto pingpong = [&](bool first) {
        std::string body = "  %t0 = stablehlo.after_all : !stablehlo.token\n", v = "%x";
        auto channel = [](int c) {
          return fmt::format("{{channel_handle = #stablehlo.channel_handle<handle = {}, type = 1>, is_host_transfer = "
                             "false}}",
                             c);
        };
        auto send = [&](const std::string& value, const std::string& token) {
          return "\"stablehlo.send\"(" + value + ", " + token + ") " + channel(first ? 1 : 2) + " : (" + t +
                 ", !stablehlo.token) -> !stablehlo.token";
        };
        auto recv = [&](const std::string& token) {
          return "\"stablehlo.recv\"(" + token + ") " + channel(first ? 2 : 1) + " : (!stablehlo.token) -> (" + t +
                 ", !stablehlo.token)";
        };
        for (int i = 0; i < kCopies; ++i) {
          if (first) {
            body += fmt::format("  %s{} = {}\n", i, send(v, fmt::format("%t{}", i)));
            body += fmt::format("  %r{}:2 = {}\n", i, recv(fmt::format("%s{}", i)));
            body += fmt::format("  %t{} = stablehlo.after_all %r{}#1 : !stablehlo.token\n", i + 1, i);
          } else {
            body += fmt::format("  %r{}:2 = {}\n", i, recv(fmt::format("%t{}", i)));
            body += fmt::format("  %t{} = {}\n", i + 1, send(fmt::format("%r{}#0", i), fmt::format("%r{}#1", i)));
          }
          v = fmt::format("%r{}#0", i);
        }
        return fmt::format("func.func @main(%x: {0}) -> {0} {{\n{1}  func.return {2} : {0}\n}}", t, body, v);
      };
      const std::string identity = fmt::format("func.func @main(%x: {0}) -> {0} {{\n  func.return %x : {0}\n}}", t);
      const int rank = session_.rank();
      const Executable mine = Compile(rank == 0 ? pingpong(true) : rank == 1 ? pingpong(false) : identity);
      const Executable idle = Compile(identity);
      const double ms = TimeDifference(grid, {mine, {args[0]}}, {idle, {args[0]}}, repeat);
      Print(fmt::format("| send/recv (ping-pong between 2 ranks, one way) | {:.1f} us |\n", ms / (2 * kCopies) * 1000));
    }
    double mpi_ms = TimeHost(
        [&] {
          float x = 1;
          for (int i = 0; i < kCopies; ++i) MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        },
        repeat);
    Print(fmt::format("| MPI_Allreduce of one float (host) | {:.1f} us |\n", mpi_ms / kCopies * 1000));
    mpi_ms = TimeHost(
        [&] {
          for (int i = 0; i < kCopies; ++i) MPI_Barrier(MPI_COMM_WORLD);
        },
        repeat);
    Print(fmt::format("| MPI_Barrier | {:.1f} us |\n", mpi_ms / kCopies * 1000));
  }

  std::string device() const { return client_->device_description(); }

  void Print(const std::string& text) {
    if (session_.rank() == 0) {
      std::fputs(text.c_str(), stdout);
      std::fflush(stdout);
    }
  }

 private:
  MpiSession& session_;
  std::shared_ptr<vkhlo::Client> client_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"vkhlo-mpi-bench: all_reduce bandwidth and collective latency over MPI (run under mpirun)"};
  int min_mb = 1, max_mb = 256, repeat = 5, latency_repeat = 20;
  app.add_option("--min-mb", min_mb, "smallest all_reduce tensor, MB (then x4 up to --max-mb)")->check(CLI::PositiveNumber);
  app.add_option("--max-mb", max_mb, "largest all_reduce tensor, MB")->check(CLI::PositiveNumber);
  app.add_option("--repeat", repeat, "timed runs per bandwidth point (median)")->check(CLI::PositiveNumber);
  app.add_option("--latency-repeat", latency_repeat, "timed runs per latency point (median)")->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  auto session = MpiSession::Create();
  if (!session.ok()) {
    std::fprintf(stderr, "vkhlo-mpi-bench: %s\n", session.status().ToString().c_str());
    return 1;
  }
  Bench bench(**session);
  bench.Print(fmt::format("{} ranks ({} on rank 0's machine, {}); rank 0's device: {}\n\n", (*session)->size(),
                          (*session)->local_size(), (*session)->host_name(), bench.device()));
  bench.Bandwidth(min_mb, max_mb, repeat);
  bench.Latency(latency_repeat);
  return 0;
}
