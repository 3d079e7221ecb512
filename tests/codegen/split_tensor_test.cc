// Issue 25: tensors beyond maxMemoryAllocationSize, split across several allocations and bound
// to kernels through windows that each lie in one piece (device/split_layout.h). lavapipe lets
// one allocation take its whole 2 GiB heap, so the client here lowers the limit to 64 MiB
// (VKHLO_MAX_ALLOCATION_BYTES) and every tensor of about 200 MiB is split in 4: a fused
// element-wise chain, row and full reductions, a matrix-vector product, a gather from and a
// scatter into a table, each checked against the host; and running out of device memory in
// the middle of executions is a clear error after which the client runs again. Natively the
// big tensors below the limit would be reached by address; split ones always go through
// windows (ExecutionStats::split_bindings counts them).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "device/allocator.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo {
namespace {

constexpr uint64_t kLimit = 64ull << 20;

// A client whose device allows allocations of at most `limit` (empty: the device's own limit,
// the unsplit baseline of the measurement).
Client MakeClient(const char* limit, std::optional<uint64_t> memory_limit = std::nullopt) {
  if (*limit != '\0') ::setenv("VKHLO_MAX_ALLOCATION_BYTES", limit, 1);
  device::DeviceOptions options = testing::TestDeviceOptions();
  if (memory_limit) options.memory_budget_bytes = *memory_limit;
  auto created = runtime::CreateClient(options);
  if (*limit != '\0') ::unsetenv("VKHLO_MAX_ALLOCATION_BYTES");
  if (!created.ok()) {
    ADD_FAILURE() << created.status().ToString();
    std::abort();
  }
  return std::move(*created);
}

const Client& SplitClient() {
  static const Client* client = new Client(MakeClient("64M"));
  return *client;
}

// Allocations of at most 16 MiB: split tensors small enough for a sort to stay short.
const Client& SmallSplitClient() {
  static const Client* client = new Client(MakeClient("16M"));
  return *client;
}

// Split at 64 MiB with 1 GiB of device memory: out of memory after a few 200 MB results on
// any device (a large GPU's heap holds far more).
const Client& LimitedSplitClient() {
  static const Client* client = new Client(MakeClient("64M", uint64_t{1} << 30));
  return *client;
}

device::Allocator& AllocatorOf(const Client& client) { return client.state()->device->allocator(); }

template <typename T>
StatusOr<Buffer> Upload(const Client& client, const std::string& element, const std::vector<int64_t>& dims,
                        const std::vector<T>& host) {
  return client.BufferFromHost(
      TensorType{element, dims},
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(host.data()), host.size() * sizeof(T)));
}

using testing::Download;

std::optional<Executable> Compile(const Client& client, const std::string& program) {
  auto exe = client.Compile(program);
  EXPECT_TRUE(exe.ok()) << exe.status().ToString();
  if (!exe.ok()) return std::nullopt;
  return std::move(*exe);
}

// Exact small values: sums and products stay integers below 2^24.
float Small(int64_t i, int salt) { return static_cast<float>((i * 7 + salt) % 5); }

// f32 elements of about 200 MB (4 pieces), and two-dimensional shapes of about 210 MB.
constexpr int64_t kBig = 50'000'008;
constexpr int64_t kRows = 8192, kCols = 6400;

std::string ChainProgram(int64_t n) {
  return fmt::format(R"(
func.func @main(%a: tensor<{0}xf32>, %b: tensor<{0}xf32>) -> (tensor<{0}xf32>, tensor<{0}xi32>) {{
  %c = stablehlo.add %a, %b : tensor<{0}xf32>
  %d = stablehlo.multiply %c, %a : tensor<{0}xf32>
  %e = stablehlo.convert %d : (tensor<{0}xf32>) -> tensor<{0}xi32>
  %f = stablehlo.add %e, %e : tensor<{0}xi32>
  func.return %d, %f : tensor<{0}xf32>, tensor<{0}xi32>
}}
)", n);
}

TEST(SplitTensorTest, TheClientSplitsBeyondTheLoweredLimit) {
  const device::SplitLayout& layout = AllocatorOf(SplitClient()).split_layout();
  EXPECT_EQ(layout.limit, kLimit);
  EXPECT_EQ(SplitClient().state()->target.split_piece_bytes, layout.piece_bytes);
  EXPECT_EQ(SplitClient().state()->target.split_window_bytes, layout.window_bytes);
}

// The fused chain on split inputs and outputs, run twice with other inputs.
TEST(SplitTensorTest, FusedElementwiseChain) {
  const Client& client = SplitClient();
  auto exe = Compile(client, ChainProgram(kBig));
  if (!exe) return;
  for (int run = 0; run < 2; ++run) {
    std::vector<float> a(kBig), b(kBig);
    for (int64_t i = 0; i < kBig; ++i) {
      a[i] = Small(i, run);
      b[i] = Small(i, 3 - run) + (i == kBig - 1 ? 100.0f + run : 0.0f);
    }
    const device::AllocatorStats before = AllocatorOf(client).stats();
    ASSERT_OK_AND_ASSIGN(Buffer da, Upload(client, "f32", {kBig}, a));
    ASSERT_OK_AND_ASSIGN(Buffer db, Upload(client, "f32", {kBig}, b));
    ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({da, db}));
    const device::AllocatorStats after = AllocatorOf(client).stats();
    EXPECT_EQ(after.split_buffers, before.split_buffers + 4) << "two inputs, two results";
    EXPECT_GE(after.blocks - after.pooled_blocks, 12u) << "4 tensors of 3 pieces in use";
    EXPECT_EQ(exe->last_stats().split_bindings, 4u);
    EXPECT_EQ(exe->last_stats().address_bindings, 0u);
    std::vector<float> d = Download<float>(out[0]);
    std::vector<int32_t> f = Download<int32_t>(out[1]);
    ASSERT_EQ(d.size(), static_cast<size_t>(kBig));
    ASSERT_EQ(f.size(), static_cast<size_t>(kBig));
    int64_t bad = 0;
    for (int64_t i = 0; i < kBig; ++i) {
      const float want = (a[i] + b[i]) * a[i];
      if (d[i] != want || f[i] != 2 * static_cast<int32_t>(want)) {
        if (bad++ < 5) ADD_FAILURE() << "run " << run << " element " << i << ": " << d[i] << ", " << f[i] << " want " << want;
      }
    }
    EXPECT_EQ(bad, 0);
  }
}

// Row sums (f32) and a full sum (i32, exact) of split operands.
TEST(SplitTensorTest, RowAndFullReductions) {
  const Client& client = SplitClient();
  auto exe = Compile(client, fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xf32>, %y: tensor<{0}x{1}xi32>) -> (tensor<{0}xf32>, tensor<i32>) {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %rows = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<{0}x{1}xf32>, tensor<f32>) -> tensor<{0}xf32>
  %all = stablehlo.reduce(%y init: %zi) applies stablehlo.add across dimensions = [0, 1] : (tensor<{0}x{1}xi32>, tensor<i32>) -> tensor<i32>
  func.return %rows, %all : tensor<{0}xf32>, tensor<i32>
}}
)", kRows, kCols));
  if (!exe) return;
  std::vector<float> x(kRows * kCols);
  std::vector<int32_t> y(kRows * kCols);
  int64_t total = 0;
  for (int64_t i = 0; i < kRows * kCols; ++i) {
    x[i] = Small(i, 1);
    y[i] = static_cast<int32_t>(i % 7) - 3 + (i == kRows * kCols - 1 ? 1000 : 0);
    total += y[i];
  }
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload(client, "f32", {kRows, kCols}, x));
  ASSERT_OK_AND_ASSIGN(Buffer dy, Upload(client, "i32", {kRows, kCols}, y));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx, dy}));
  EXPECT_GE(exe->last_stats().split_bindings, 2u);
  std::vector<float> rows = Download<float>(out[0]);
  std::vector<int32_t> all = Download<int32_t>(out[1]);
  ASSERT_EQ(rows.size(), static_cast<size_t>(kRows));
  int64_t bad = 0;
  for (int64_t r = 0; r < kRows; ++r) {
    float want = 0;
    for (int64_t c = 0; c < kCols; ++c) want += x[r * kCols + c];
    if (rows[r] != want && bad++ < 5) ADD_FAILURE() << "row " << r << ": " << rows[r] << " want " << want;
  }
  EXPECT_EQ(bad, 0);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0], static_cast<int32_t>(total));
}

// A matrix-vector product with a split matrix.
TEST(SplitTensorTest, DotGeneralWithASplitOperand) {
  const Client& client = SplitClient();
  auto exe = Compile(client, fmt::format(R"(
func.func @main(%a: tensor<{0}x{1}xf32>, %v: tensor<{1}xf32>) -> tensor<{0}xf32> {{
  %r = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<{0}x{1}xf32>, tensor<{1}xf32>) -> tensor<{0}xf32>
  func.return %r : tensor<{0}xf32>
}}
)", kRows, kCols));
  if (!exe) return;
  std::vector<float> a(kRows * kCols), v(kCols);
  for (int64_t i = 0; i < kRows * kCols; ++i) a[i] = Small(i, 2) - 2;
  for (int64_t i = 0; i < kCols; ++i) v[i] = Small(i, 4);
  ASSERT_OK_AND_ASSIGN(Buffer da, Upload(client, "f32", {kRows, kCols}, a));
  ASSERT_OK_AND_ASSIGN(Buffer dv, Upload(client, "f32", {kCols}, v));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({da, dv}));
  EXPECT_GE(exe->last_stats().split_bindings, 1u);
  std::vector<float> r = Download<float>(out[0]);
  ASSERT_EQ(r.size(), static_cast<size_t>(kRows));
  int64_t bad = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    float want = 0;
    for (int64_t j = 0; j < kCols; ++j) want += a[i * kCols + j] * v[j];
    if (r[i] != want && bad++ < 5) ADD_FAILURE() << "row " << i << ": " << r[i] << " want " << want;
  }
  EXPECT_EQ(bad, 0);
}

// An embedding lookup in a split f32[51200, 1024] table (rows in every piece) and a scatter of
// rows into it (the result split too).
TEST(SplitTensorTest, GatherAndScatterOnASplitTable) {
  constexpr int64_t rows = 51200, dim = 1024, n = 6;
  const Client& client = SplitClient();
  auto exe = Compile(client, fmt::format(R"(
func.func @main(%t: tensor<{0}x{1}xf32>, %i: tensor<{2}x1xi32>, %u: tensor<{2}x{1}xf32>) -> (tensor<{2}x{1}xf32>, tensor<{0}x{1}xf32>) {{
  %g = "stablehlo.gather"(%t, %i) <{{slice_sizes = array<i64: 1, {1}>, dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}}> {{indices_are_sorted = false}} : (tensor<{0}x{1}xf32>, tensor<{2}x1xi32>) -> tensor<{2}x{1}xf32>
  %s = "stablehlo.scatter"(%t, %i, %u) ({{
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %a = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %a : tensor<f32>
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}}
     : (tensor<{0}x{1}xf32>, tensor<{2}x1xi32>, tensor<{2}x{1}xf32>) -> tensor<{0}x{1}xf32>
  func.return %g, %s : tensor<{2}x{1}xf32>, tensor<{0}x{1}xf32>
}}
)", rows, dim, n));
  if (!exe) return;
  std::vector<float> t(rows * dim), u(n * dim);
  for (int64_t i = 0; i < rows * dim; ++i) t[i] = static_cast<float>(i % 1000003);
  for (int64_t i = 0; i < n * dim; ++i) u[i] = Small(i, 0) + 0.5f;
  // Rows in pieces 0..3 (a piece holds 16384 rows), the first and last rows of pieces, a repeat.
  const std::vector<int32_t> idx = {0, 16383, 16384, 51199, 40000, 16384};
  ASSERT_OK_AND_ASSIGN(Buffer dt, Upload(client, "f32", {rows, dim}, t));
  ASSERT_OK_AND_ASSIGN(Buffer di, Upload(client, "i32", {n, 1}, idx));
  ASSERT_OK_AND_ASSIGN(Buffer du, Upload(client, "f32", {n, dim}, u));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dt, di, du}));
  EXPECT_GE(exe->last_stats().split_bindings, 2u);
  std::vector<float> g = Download<float>(out[0]);
  std::vector<float> s = Download<float>(out[1]);
  ASSERT_EQ(g.size(), static_cast<size_t>(n * dim));
  ASSERT_EQ(s.size(), static_cast<size_t>(rows * dim));
  std::vector<float> want = t;
  int64_t bad = 0;
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t c = 0; c < dim; ++c) {
      if (g[j * dim + c] != t[idx[j] * dim + c] && bad++ < 5) ADD_FAILURE() << "gather " << j << "," << c;
      want[idx[j] * dim + c] += u[j * dim + c];
    }
  }
  for (int64_t i = 0; i < rows * dim; ++i) {
    if (s[i] != want[i] && bad++ < 5) ADD_FAILURE() << "scatter element " << i << ": " << s[i] << " want " << want[i];
  }
  EXPECT_EQ(bad, 0);
}

// Executions that each make a 200 MB split result until the heap is full: the one that does
// not fit fails with RESOURCE_EXHAUSTED, leaves nothing behind, and once the held results go
// the same executable runs again.
TEST(SplitTensorTest, OutOfMemoryIsAClearErrorAndTheClientRunsAfterwards) {
  const Client& client = LimitedSplitClient();
  auto exe = Compile(client, fmt::format(R"(
func.func @main(%s: tensor<f32>) -> tensor<{0}xf32> {{
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<{0}xf32>
  %one = stablehlo.constant dense<1.0> : tensor<{0}xf32>
  %r = stablehlo.add %b, %one : tensor<{0}xf32>
  func.return %r : tensor<{0}xf32>
}}
)", kBig));
  if (!exe) return;
  device::Allocator& allocator = AllocatorOf(client);
  allocator.Trim();
  const device::AllocatorStats baseline = allocator.stats();
  const float two = 2.0f;
  ASSERT_OK_AND_ASSIGN(Buffer s, Upload(client, "f32", {}, std::vector<float>{two}));
  std::vector<Buffer> held;
  Status failure = OkStatus();
  for (int i = 0; i < 16 && failure.ok(); ++i) {
    auto out = exe->Execute({s});
    if (!out.ok()) {
      failure = out.status();
      break;
    }
    held.push_back(std::move((*out)[0]));
  }
  ASSERT_FALSE(failure.ok()) << "16 results of 200 MB fit a heap of " << allocator.MemoryLimit();
  EXPECT_EQ(failure.code(), StatusCode::kResourceExhausted) << failure.ToString();
  EXPECT_NE(failure.message().find("out of device memory"), std::string::npos) << failure.ToString();
  EXPECT_GE(held.size(), 4u);
  EXPECT_EQ(allocator.stats().split_buffers, baseline.split_buffers + held.size()) << "the failed result's pieces are freed";
  const std::vector<float> first = Download<float>(held.front());
  EXPECT_EQ(first[kBig - 1], 3.0f);
  held.clear();
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> again, exe->Execute({s}));
  std::vector<float> r = Download<float>(again[0]);
  ASSERT_EQ(r.size(), static_cast<size_t>(kBig));
  EXPECT_EQ(r[0], 3.0f);
  EXPECT_EQ(r[kBig - 1], 3.0f);
  again.clear();
  s = Buffer();
  allocator.Trim();
  EXPECT_EQ(allocator.stats().bytes_in_use, baseline.bytes_in_use);
  EXPECT_EQ(allocator.stats().split_buffers, baseline.split_buffers);
}

// Rows of a split f32[260, 16400] (17.1 MB, on a client whose limit is 16 MiB, so the sort
// stays short: two pieces, the boundary inside row 255) sorted, the sorted intermediate
// feeding the next kernel (a per-row weighted sum) and returned.
TEST(SplitTensorTest, SortedRowsOfASplitTensor) {
  constexpr int64_t rows = 260, cols = 16400;
  const Client& client = SmallSplitClient();
  auto exe = Compile(client, fmt::format(R"(
func.func @main(%a: tensor<{0}x{1}xf32>) -> (tensor<{0}x{1}xf32>, tensor<{0}xf32>) {{
  %s = "stablehlo.sort"(%a) <{{dimension = 1 : i64, is_stable = false}}> ({{
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %lt = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }}) : (tensor<{0}x{1}xf32>) -> tensor<{0}x{1}xf32>
  %i = stablehlo.iota dim = 1 : tensor<{0}x{1}xi32>
  %seven = stablehlo.constant dense<7> : tensor<{0}x{1}xi32>
  %r = stablehlo.remainder %i, %seven : tensor<{0}x{1}xi32>
  %w = stablehlo.convert %r : (tensor<{0}x{1}xi32>) -> tensor<{0}x{1}xf32>
  %p = stablehlo.multiply %s, %w : tensor<{0}x{1}xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %t = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [1] : (tensor<{0}x{1}xf32>, tensor<f32>) -> tensor<{0}xf32>
  func.return %s, %t : tensor<{0}x{1}xf32>, tensor<{0}xf32>
}}
)", rows, cols));
  if (!exe) return;
  std::vector<float> a(rows * cols);
  uint32_t x = 12345;
  for (float& v : a) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<float>((x >> 8) % 100);  // integers: the row sums below stay exact (< 2^24)
  }
  ASSERT_OK_AND_ASSIGN(Buffer da, Upload(client, "f32", {rows, cols}, a));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({da}));
  EXPECT_GE(exe->last_stats().split_bindings, 2u);
  std::vector<float> s = Download<float>(out[0]);
  std::vector<float> t = Download<float>(out[1]);
  ASSERT_EQ(s.size(), a.size());
  ASSERT_EQ(t.size(), static_cast<size_t>(rows));
  int64_t bad = 0;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<float> want(a.begin() + r * cols, a.begin() + (r + 1) * cols);
    std::sort(want.begin(), want.end());
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += static_cast<double>(want[c]) * static_cast<double>(c % 7);
    if (!std::equal(want.begin(), want.end(), s.begin() + r * cols) && bad++ < 5) ADD_FAILURE() << "row " << r << " not sorted right";
    if (t[r] != static_cast<float>(sum) && bad++ < 5) ADD_FAILURE() << "row " << r << " sum " << t[r] << " want " << sum;
  }
  EXPECT_EQ(bad, 0);
}

// Eleven split inputs summed: 12 bindings of 3 windows each would exceed the 32 storage
// buffers a kernel may bind, so fusion plans the sum as several kernels, counting a split
// tensor's windows (codegen::DescriptorsFor).
TEST(SplitTensorTest, FusionCountsTheWindowsOfSplitTensors) {
  constexpr int64_t n = 10'000'000;  // 40 MB: 3 pieces of 16 MiB
  constexpr int kInputs = 11;
  const Client& client = SmallSplitClient();
  std::string params, sum = "%a0";
  std::string body;
  for (int i = 0; i < kInputs; ++i) params += fmt::format("{}%a{}: tensor<{}xf32>", i ? ", " : "", i, n);
  for (int i = 1; i < kInputs; ++i) {
    body += fmt::format("  %s{0} = stablehlo.add {1}, %a{0} : tensor<{2}xf32>\n", i, sum, n);
    sum = fmt::format("%s{}", i);
  }
  auto exe = Compile(client, fmt::format("func.func @main({0}) -> tensor<{1}xf32> {{\n{2}  func.return {3} : tensor<{1}xf32>\n}}\n",
                                         params, n, body, sum));
  if (!exe) return;
  std::vector<Buffer> inputs;
  for (int i = 0; i < kInputs; ++i) {
    std::vector<float> a(n);
    for (int64_t j = 0; j < n; ++j) a[j] = Small(j, i);
    ASSERT_OK_AND_ASSIGN(Buffer b, Upload(client, "f32", {n}, a));
    inputs.push_back(std::move(b));
  }
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute(inputs));
  EXPECT_GE(exe->last_stats().kernels_dispatched, 2u);
  EXPECT_GE(exe->last_stats().split_bindings, 12u);
  std::vector<float> r = Download<float>(out[0]);
  ASSERT_EQ(r.size(), static_cast<size_t>(n));
  int64_t bad = 0;
  for (int64_t j = 0; j < n; ++j) {
    float want = 0;
    for (int i = 0; i < kInputs; ++i) want += Small(j, i);
    if (r[j] != want && bad++ < 5) ADD_FAILURE() << "element " << j << ": " << r[j] << " want " << want;
  }
  EXPECT_EQ(bad, 0);
}

// The DFT of `x` (n points) in double, O(n^2): a reference for a few rows.
std::vector<std::complex<double>> HostDft(const std::complex<float>* x, int64_t n, bool inverse) {
  std::vector<std::complex<double>> out(static_cast<size_t>(n));
  const double sign = inverse ? 1 : -1;
  for (int64_t k = 0; k < n; ++k) {
    std::complex<double> sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      const double angle = sign * 2 * M_PI * static_cast<double>((j * k) % n) / static_cast<double>(n);
      sum += std::complex<double>(x[j].real(), x[j].imag()) * std::polar(1.0, angle);
    }
    out[static_cast<size_t>(k)] = inverse ? sum / static_cast<double>(n) : sum;
  }
  return out;
}

// Largest |got - want| over the row, relative to its largest |want|.
double RowError(const std::complex<float>* got, const std::vector<std::complex<double>>& want) {
  double err = 0, scale = 1e-30;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::abs(std::complex<double>(got[i].real(), got[i].imag()) - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return err / scale;
}

// VkFFT binds each buffer as one range, so FFTs of tensors split across allocations run in the
// staged form: runs of whole transforms copied piece by piece into buffers of their own and out
// again (device/fft/fft_staged.h). Transforms of 3000 points (24000 bytes) do not divide a
// piece, so one of them straddles two pieces; its row is checked with the others against a
// host DFT. The FFT and IFFT, and the RFFT then IRFFT round trip, each on ~108 MB tensors.
TEST(SplitTensorTest, FftOfSplitTensorsRunsStaged) {
  constexpr int64_t kTransforms = 4500, kLength = 3000;
  const Client& client = SplitClient();
  const uint64_t piece = client.state()->target.split_piece_bytes;
  ASSERT_GT(uint64_t{kTransforms * kLength * 8}, piece);
  const int64_t straddling = static_cast<int64_t>(piece / (kLength * 8));
  ASSERT_NE(piece % (kLength * 8), 0u);
  std::vector<std::complex<float>> x(static_cast<size_t>(kTransforms * kLength));
  for (size_t i = 0; i < x.size(); ++i) x[i] = {Small(static_cast<int64_t>(i), 1) - 2, Small(static_cast<int64_t>(i), 3) - 2};
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload(client, "complex<f32>", {kTransforms, kLength}, x));
  for (const char* kind : {"FFT", "IFFT"}) {
    SCOPED_TRACE(kind);
    auto exe = Compile(client, fmt::format(R"(
func.func @main(%x: tensor<{1}x{2}xcomplex<f32>>) -> tensor<{1}x{2}xcomplex<f32>> {{
  %f = stablehlo.fft %x, type = {0}, length = [{2}] : (tensor<{1}x{2}xcomplex<f32>>) -> tensor<{1}x{2}xcomplex<f32>>
  func.return %f : tensor<{1}x{2}xcomplex<f32>>
}}
)", kind, kTransforms, kLength));
    if (!exe) return;
    ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx}));
    EXPECT_EQ(exe->last_stats().fft_staged_transforms, 1u);
    std::vector<std::complex<float>> f = Download<std::complex<float>>(out[0]);
    ASSERT_EQ(f.size(), x.size());
    for (int64_t row : {int64_t{0}, straddling - 1, straddling, straddling + 1, kTransforms - 1}) {
      const std::vector<std::complex<double>> want = HostDft(&x[row * kLength], kLength, kind[0] == 'I');
      EXPECT_LT(RowError(&f[row * kLength], want), 2e-6) << "row " << row;
    }
  }
  // RFFT then IRFFT: 9000 real rows (108 MB) and their 9000 x 1501 spectra (108 MB).
  constexpr int64_t kRealRows = 2 * kTransforms;
  std::vector<float> r(static_cast<size_t>(kRealRows * kLength));
  for (size_t i = 0; i < r.size(); ++i) r[i] = Small(static_cast<int64_t>(i), 2) - 2 + (i % 7 == 0 ? 0.25f : 0.0f);
  ASSERT_OK_AND_ASSIGN(Buffer dr, Upload(client, "f32", {kRealRows, kLength}, r));
  constexpr int64_t kHalf = kLength / 2 + 1;
  auto exe = Compile(client, fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xf32>) -> (tensor<{0}x{2}xcomplex<f32>>, tensor<{0}x{1}xf32>) {{
  %f = stablehlo.fft %x, type = RFFT, length = [{1}] : (tensor<{0}x{1}xf32>) -> tensor<{0}x{2}xcomplex<f32>>
  %y = stablehlo.fft %f, type = IRFFT, length = [{1}] : (tensor<{0}x{2}xcomplex<f32>>) -> tensor<{0}x{1}xf32>
  func.return %f, %y : tensor<{0}x{2}xcomplex<f32>>, tensor<{0}x{1}xf32>
}}
)", kRealRows, kLength, kHalf));
  if (!exe) return;
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dr}));
  EXPECT_EQ(exe->last_stats().fft_staged_transforms, 2u);
  std::vector<std::complex<float>> f = Download<std::complex<float>>(out[0]);
  std::vector<float> y = Download<float>(out[1]);
  ASSERT_EQ(f.size(), static_cast<size_t>(kRealRows * kHalf));
  ASSERT_EQ(y.size(), r.size());
  const int64_t straddling_real = static_cast<int64_t>(piece / (kLength * 4));
  for (int64_t row : {int64_t{0}, straddling_real, kRealRows - 1}) {
    std::vector<std::complex<float>> as_complex(r.begin() + row * kLength, r.begin() + (row + 1) * kLength);
    std::vector<std::complex<double>> want = HostDft(as_complex.data(), kLength, false);
    want.resize(kHalf);
    EXPECT_LT(RowError(&f[row * kHalf], want), 2e-6) << "row " << row;
  }
  double worst = 0;
  for (size_t i = 0; i < r.size(); ++i) worst = std::max(worst, std::abs(static_cast<double>(y[i]) - r[i]));
  EXPECT_LT(worst, 2e-5) << "irfft(rfft(x)) against x";
}

// Not a check: the fused chain's bandwidth on 256 MiB tensors split in 64 MiB pieces (so 64 MiB
// windows), in 128 MiB pieces (windows of the storage range, as on a device whose limit holds
// several), and on a client that does not split them (its own path beyond
// maxStorageBufferRange: an address, or 128 MiB windows under VKHLO_PROFILE=mobile), interleaved
// in one run. Run with --gtest_also_run_disabled_tests.
TEST(SplitTensorTest, DISABLED_MeasureChainBandwidthSplitVersusUnsplit) {
  constexpr int64_t n = 64ll << 20;  // 256 MiB of f32
  const Client split128 = MakeClient("128M");
  const Client unsplit = MakeClient("");
  const Client* clients[3] = {&SplitClient(), &split128, &unsplit};
  const char* names[3] = {"split, 64 MiB pieces ", "split, 128 MiB pieces", "unsplit              "};
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = Small(i, 1);
    b[i] = Small(i, 2);
  }
  std::vector<Executable> exes;
  std::vector<std::vector<Buffer>> inputs;
  for (const Client* c : clients) {
    auto exe = Compile(*c, ChainProgram(n));
    if (!exe) return;
    exes.push_back(std::move(*exe));
    ASSERT_OK_AND_ASSIGN(Buffer da, Upload(*c, "f32", {n}, a));
    ASSERT_OK_AND_ASSIGN(Buffer db, Upload(*c, "f32", {n}, b));
    inputs.push_back({da, db});
  }
  // Interleaved, so that a busy host slows both alike; the best of each.
  double best[3] = {1e30, 1e30, 1e30};
  for (int rep = 0; rep < 8; ++rep) {
    for (int k = 0; k < 3; ++k) {
      const auto start = std::chrono::steady_clock::now();
      ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exes[k].Execute(inputs[k]));
      best[k] = std::min(best[k], std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  }
  for (int k = 0; k < 3; ++k) {
    const ExecutionStats st = exes[k].last_stats();
    std::printf("%s: best of 8 %.1f ms, %.2f GB/s (split bindings %llu, address %llu, windowed %llu)\n",
                names[k], best[k] * 1e3, (st.bytes_read + st.bytes_written) / best[k] / 1e9,
                static_cast<unsigned long long>(st.split_bindings), static_cast<unsigned long long>(st.address_bindings),
                static_cast<unsigned long long>(st.windowed_bindings));
  }
  std::printf("split / unsplit bandwidth: %.2f (64 MiB pieces), %.2f (128 MiB pieces)\n", best[2] / best[0],
              best[2] / best[1]);
}

}  // namespace
}  // namespace vkhlo
