// Issue 25: tensors just above maxStorageBufferRange (128 MiB on lavapipe) in every kernel
// family, checked against host computations. On a device with bufferDeviceAddress the big
// bindings are reached by address (ExecutionStats::address_bindings counts them); without it
// (VKHLO_PROFILE=mobile masks it off) through several descriptors, "windows"
// (ExecutionStats::windowed_bindings). FFT splits its batch between launches on both (its own
// windows: VkBuffers over parts of a tensor's memory).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "device/fft/fft_plan.h"
#include "runtime/state.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo {
namespace {

constexpr uint64_t kRange = 128ull << 20;
// f32 elements just above the range, and two-dimensional shapes just above it.
constexpr int64_t kBig = (kRange / 4) + 8;  // 33554440
constexpr int64_t kRows = 8193, kCols = 4097;  // 134266884 bytes of f32

bool HasAddresses() { return testing::SharedClient().state()->target.buffer_device_address; }

// The tests' tensors are just above 128 MiB: beyond the range on lavapipe and phones, within
// it on desktop GPUs (often 4 GiB), where nothing is bound in pieces.
bool BeyondRange() { return testing::SharedClient().state()->target.max_storage_buffer_range <= kRange; }

// At least `n` big bindings in the last execution, through the path this device has (the
// other path unused); none where the tensors fit the range.
void ExpectBigBound(const ExecutionStats& s, uint64_t n) {
  if (!BeyondRange()) {
    EXPECT_EQ(s.address_bindings + s.windowed_bindings, 0u);
    return;
  }
  EXPECT_EQ(HasAddresses() ? s.windowed_bindings : s.address_bindings, 0u);
  EXPECT_GE(HasAddresses() ? s.address_bindings : s.windowed_bindings, n);
}

template <typename T>
StatusOr<Buffer> Upload(const std::string& element, const std::vector<int64_t>& dims, const std::vector<T>& host) {
  return testing::SharedClient().BufferFromHost(
      TensorType{element, dims},
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(host.data()), host.size() * sizeof(T)));
}

using testing::Download;

// Compiles `program` (by address, or through windows without bufferDeviceAddress).
std::optional<Executable> CompileBig(const std::string& program) {
  auto exe = testing::SharedClient().Compile(program);
  EXPECT_TRUE(exe.ok()) << exe.status().ToString();
  if (!exe.ok()) return std::nullopt;
  return std::move(*exe);
}

// Exact small values: sums and products stay integers below 2^24.
float Small(int64_t i, int salt) { return static_cast<float>((i * 7 + salt) % 5); }

// A fused element-wise chain (add, multiply, convert) on tensors above the range, run twice
// with different inputs; its big f32 result feeds a second kernel (a reduction) too.
TEST(BigTensorTest, ElementwiseChainRunTwiceAndFeedingAReduction) {
  const std::string program = fmt::format(R"(
func.func @main(%a: tensor<{0}xf32>, %b: tensor<{0}xf32>) -> (tensor<{0}xf32>, tensor<{0}xi32>, tensor<f32>) {{
  %c = stablehlo.add %a, %b : tensor<{0}xf32>
  %d = stablehlo.multiply %c, %a : tensor<{0}xf32>
  %e = stablehlo.convert %d : (tensor<{0}xf32>) -> tensor<{0}xi32>
  %f = stablehlo.add %e, %e : tensor<{0}xi32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%d init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<{0}xf32>, tensor<f32>) -> tensor<f32>
  func.return %d, %f, %m : tensor<{0}xf32>, tensor<{0}xi32>, tensor<f32>
}}
)", kBig);
  auto exe = CompileBig(program);
  if (!exe) return;
  for (int run = 0; run < 2; ++run) {
    std::vector<float> a(kBig), b(kBig);
    for (int64_t i = 0; i < kBig; ++i) {
      a[i] = Small(i, run);
      b[i] = Small(i, 3 - run) + (i == kBig - 1 ? 100.0f + run : 0.0f);
    }
    ASSERT_OK_AND_ASSIGN(Buffer da, Upload("f32", {kBig}, a));
    ASSERT_OK_AND_ASSIGN(Buffer db, Upload("f32", {kBig}, b));
    ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({da, db}));
    ASSERT_EQ(out.size(), 3u);
    ExpectBigBound(exe->last_stats(), 3u);
    std::vector<float> d = Download<float>(out[0]);
    std::vector<int32_t> f = Download<int32_t>(out[1]);
    std::vector<float> m = Download<float>(out[2]);
    ASSERT_EQ(d.size(), static_cast<size_t>(kBig));
    ASSERT_EQ(f.size(), static_cast<size_t>(kBig));
    int64_t bad = 0;
    float max = 0;
    for (int64_t i = 0; i < kBig; ++i) {
      const float want = (a[i] + b[i]) * a[i];
      max = std::max(max, want);
      if (d[i] != want || f[i] != 2 * static_cast<int32_t>(want)) {
        if (bad++ < 5) ADD_FAILURE() << "run " << run << " element " << i << ": " << d[i] << ", " << f[i] << " want " << want;
      }
    }
    EXPECT_EQ(bad, 0);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0], max) << "run " << run;
  }
}

// Row and full reductions of an f32[8193, 4097] operand (and an i32 full sum, exact).
TEST(BigTensorTest, RowAndFullReductions) {
  const std::string program = fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xf32>, %y: tensor<{0}x{1}xi32>) -> (tensor<{0}xf32>, tensor<i32>, tensor<f32>) {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %rows = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<{0}x{1}xf32>, tensor<f32>) -> tensor<{0}xf32>
  %all = stablehlo.reduce(%y init: %zi) applies stablehlo.add across dimensions = [0, 1] : (tensor<{0}x{1}xi32>, tensor<i32>) -> tensor<i32>
  %mx = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<{0}x{1}xf32>, tensor<f32>) -> tensor<f32>
  func.return %rows, %all, %mx : tensor<{0}xf32>, tensor<i32>, tensor<f32>
}}
)", kRows, kCols);
  auto exe = CompileBig(program);
  if (!exe) return;
  std::vector<float> x(kRows * kCols);
  std::vector<int32_t> y(kRows * kCols);
  for (int64_t i = 0; i < kRows * kCols; ++i) {
    x[i] = Small(i, 1);
    y[i] = static_cast<int32_t>(i % 13) - 6;
  }
  x[kRows * kCols - 2] = 9;
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("f32", {kRows, kCols}, x));
  ASSERT_OK_AND_ASSIGN(Buffer dy, Upload("i32", {kRows, kCols}, y));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx, dy}));
  ExpectBigBound(exe->last_stats(), 3u);
  std::vector<float> rows = Download<float>(out[0]);
  ASSERT_EQ(rows.size(), static_cast<size_t>(kRows));
  int64_t bad = 0;
  for (int64_t r = 0; r < kRows; ++r) {
    float want = 0;
    for (int64_t c = 0; c < kCols; ++c) want += x[r * kCols + c];
    if (rows[r] != want && bad++ < 5) ADD_FAILURE() << "row " << r << ": " << rows[r] << " want " << want;
  }
  EXPECT_EQ(bad, 0);
  const int64_t all = std::accumulate(y.begin(), y.end(), int64_t{0});
  EXPECT_EQ(Download<int32_t>(out[1]).at(0), static_cast<int32_t>(all));
  EXPECT_EQ(Download<float>(out[2]).at(0), 9.0f);
}

// A matrix-vector product whose matrix (f32[8200, 4100], 134.5 MB) exceeds the range.
TEST(BigTensorTest, DotWithABigOperand) {
  constexpr int64_t m = 8200, k = 4100;
  const std::string program = fmt::format(R"(
func.func @main(%a: tensor<{0}x{1}xf32>, %v: tensor<{1}xf32>) -> tensor<{0}xf32> {{
  %r = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<{0}x{1}xf32>, tensor<{1}xf32>) -> tensor<{0}xf32>
  func.return %r : tensor<{0}xf32>
}}
)", m, k);
  auto exe = CompileBig(program);
  if (!exe) return;
  std::vector<float> a(m * k), v(k);
  for (int64_t i = 0; i < m * k; ++i) a[i] = Small(i, 2) - 2;
  for (int64_t i = 0; i < k; ++i) v[i] = Small(i, 4);
  ASSERT_OK_AND_ASSIGN(Buffer da, Upload("f32", {m, k}, a));
  ASSERT_OK_AND_ASSIGN(Buffer dv, Upload("f32", {k}, v));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({da, dv}));
  ExpectBigBound(exe->last_stats(), 1u);
  std::vector<float> r = Download<float>(out[0]);
  ASSERT_EQ(r.size(), static_cast<size_t>(m));
  int64_t bad = 0;
  for (int64_t i = 0; i < m; ++i) {
    float want = 0;
    for (int64_t j = 0; j < k; ++j) want += a[i * k + j] * v[j];
    if (r[i] != want && bad++ < 5) ADD_FAILURE() << "row " << i << ": " << r[i] << " want " << want;
  }
  EXPECT_EQ(bad, 0);
}

// An embedding lookup in f32[33000, 1024] (135 MB) and a scatter of rows into it.
TEST(BigTensorTest, GatherAndScatterOnABigTable) {
  constexpr int64_t rows = 33000, dim = 1024, n = 5;
  const std::string program = fmt::format(R"(
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
)", rows, dim, n);
  auto exe = CompileBig(program);
  if (!exe) return;
  std::vector<float> t(rows * dim), u(n * dim);
  for (int64_t i = 0; i < rows * dim; ++i) t[i] = static_cast<float>(i % 1000003);
  for (int64_t i = 0; i < n * dim; ++i) u[i] = Small(i, 0) + 0.5f;
  const std::vector<int32_t> idx = {0, 32999, 17, 32999, 20000};
  ASSERT_OK_AND_ASSIGN(Buffer dt, Upload("f32", {rows, dim}, t));
  ASSERT_OK_AND_ASSIGN(Buffer di, Upload("i32", {n, 1}, idx));
  ASSERT_OK_AND_ASSIGN(Buffer du, Upload("f32", {n, dim}, u));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dt, di, du}));
  ExpectBigBound(exe->last_stats(), 2u);
  std::vector<float> g = Download<float>(out[0]);
  std::vector<float> s = Download<float>(out[1]);
  ASSERT_EQ(g.size(), static_cast<size_t>(n * dim));
  ASSERT_EQ(s.size(), static_cast<size_t>(rows * dim));
  std::vector<float> want = t;
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t c = 0; c < dim; ++c) {
      EXPECT_EQ(g[j * dim + c], t[idx[j] * dim + c]) << j << "," << c;
      want[idx[j] * dim + c] += u[j * dim + c];
    }
  }
  int64_t bad = 0;
  for (int64_t i = 0; i < rows * dim; ++i) {
    if (s[i] != want[i] && bad++ < 5) ADD_FAILURE() << "scatter element " << i << ": " << s[i] << " want " << want[i];
  }
  EXPECT_EQ(bad, 0);
  // The caller's table is untouched.
  std::vector<float> after = Download<float>(dt);
  EXPECT_TRUE(after == t);
}

// Transpose of f32[4097, 8193].
TEST(BigTensorTest, Transpose) {
  const std::string program = fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xf32>) -> tensor<{1}x{0}xf32> {{
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<{0}x{1}xf32>) -> tensor<{1}x{0}xf32>
  func.return %t : tensor<{1}x{0}xf32>
}}
)", kCols, kRows);
  auto exe = CompileBig(program);
  if (!exe) return;
  std::vector<float> x(kRows * kCols);
  for (int64_t i = 0; i < kRows * kCols; ++i) x[i] = static_cast<float>(i % 9999991);
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("f32", {kCols, kRows}, x));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx}));
  ExpectBigBound(exe->last_stats(), 2u);
  std::vector<float> t = Download<float>(out[0]);
  ASSERT_EQ(t.size(), x.size());
  int64_t bad = 0;
  for (int64_t r = 0; r < kCols; ++r) {
    for (int64_t c = 0; c < kRows; ++c) {
      if (t[c * kCols + r] != x[r * kRows + c] && bad++ < 5) ADD_FAILURE() << r << "," << c;
    }
  }
  EXPECT_EQ(bad, 0);
}


// Rows of f32[8193, 4097] sorted (about 7 s on lavapipe: sorting 33.5M elements is the cost, not
// the addresses; the same sort of 4000 rows takes 3 s), the big sorted intermediate feeding an
// element-wise kernel.
TEST(BigTensorTest, SortedRowsFeedTheNextKernel) {
  const std::string program = fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xf32>) -> tensor<{0}x{1}xf32> {{
  %s = "stablehlo.sort"(%x) ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }}) {{dimension = 1 : i64, is_stable = false}} : (tensor<{0}x{1}xf32>) -> tensor<{0}x{1}xf32>
  %d = stablehlo.add %s, %s : tensor<{0}x{1}xf32>
  func.return %d : tensor<{0}x{1}xf32>
}}
)", kRows, kCols);
  auto exe = CompileBig(program);
  if (!exe) return;
  std::vector<float> x(kRows * kCols);
  // Mostly descending rows with a pseudo-random tail of each (a full shuffle of every row takes
  // the device sort three times as long).
  uint32_t state = 12345;
  for (int64_t i = 0; i < kRows * kCols; ++i) {
    state = state * 1664525u + 1013904223u;
    const int64_t c = i % kCols;
    x[i] = c < kCols - 64 ? static_cast<float>(kCols - c) : static_cast<float>(state >> 20) - 2048.0f;
  }
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("f32", {kRows, kCols}, x));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx}));
  ExpectBigBound(exe->last_stats(), 3u);
  std::vector<float> r = Download<float>(out[0]);
  ASSERT_EQ(r.size(), x.size());
  int64_t bad = 0;
  for (int64_t row = 0; row < kRows; ++row) {
    std::vector<float> want(x.begin() + row * kCols, x.begin() + (row + 1) * kCols);
    std::sort(want.begin(), want.end());
    for (int64_t c = 0; c < kCols; ++c) {
      if (r[row * kCols + c] != 2 * want[c] && bad++ < 5) ADD_FAILURE() << "row " << row << " column " << c;
    }
  }
  EXPECT_EQ(bad, 0);
}

// A 2x2 max window, a 3x3 convolution and a concatenation (a 268 MB intermediate, exp'd and
// row-summed) of f32[8193, 4097] ones holding one 9: spot checks where the 9 is and is not.
TEST(BigTensorTest, WindowConvolutionAndConcatenate) {
  const std::string program = R"(
func.func @main(%x: tensor<8193x4097xf32>, %k: tensor<3x3x1x1xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %w = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>} : (tensor<8193x4097xf32>, tensor<f32>) -> tensor<8192x4096xf32>
  %s1 = stablehlo.slice %w [8188:8192, 4095:4096] : (tensor<8192x4096xf32>) -> tensor<4x1xf32>
  %r1 = stablehlo.reshape %s1 : (tensor<4x1xf32>) -> tensor<4xf32>
  %x4 = stablehlo.reshape %x : (tensor<8193x4097xf32>) -> tensor<1x8193x4097x1xf32>
  %c = stablehlo.convolution(%x4, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8193x4097x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x8191x4095x1xf32>
  %s2 = stablehlo.slice %c [0:1, 8187:8191, 4094:4095, 0:1] : (tensor<1x8191x4095x1xf32>) -> tensor<1x4x1x1xf32>
  %r2 = stablehlo.reshape %s2 : (tensor<1x4x1x1xf32>) -> tensor<4xf32>
  %cc = stablehlo.concatenate %x, %x, dim = 0 : (tensor<8193x4097xf32>, tensor<8193x4097xf32>) -> tensor<16386x4097xf32>
  %e = stablehlo.exponential %cc : tensor<16386x4097xf32>
  %rz = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %rz) applies stablehlo.add across dimensions = [1] : (tensor<16386x4097xf32>, tensor<f32>) -> tensor<16386xf32>
  %s3 = stablehlo.slice %sum [16382:16386] : (tensor<16386xf32>) -> tensor<4xf32>
  return %r1, %r2, %s3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
)";
  auto exe = CompileBig(program);
  if (!exe) return;
  std::vector<float> x(kRows * kCols, 1.0f);
  x[8190 * kCols + 1] = 9.0f;
  const std::vector<float> k(9, 1.0f);
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("f32", {kRows, kCols}, x));
  ASSERT_OK_AND_ASSIGN(Buffer dk, Upload("f32", {3, 3, 1, 1}, k));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx, dk}));
  ExpectBigBound(exe->last_stats(), 3u);
  EXPECT_EQ(Download<float>(out[0]), std::vector<float>(4, 1.0f));
  EXPECT_EQ(Download<float>(out[1]), std::vector<float>(4, 9.0f));
  const std::vector<float> sums = Download<float>(out[2]);
  ASSERT_EQ(sums.size(), 4u);
  const double e = std::exp(1.0), plain = 4097 * e, with9 = 4096 * e + std::exp(9.0);
  const double want[4] = {plain, with9, plain, plain};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(sums[i], want[i], 1e-4 * want[i]) << i;
}

// Through windows every big binding takes ceil(bytes / S) descriptors: a fusion of 17 big
// inputs (18 bindings, 36 windows) exceeds the mobile profile's
// maxPerStageDescriptorStorageBuffers = 32, a clear compile error naming the counts. By address
// (one descriptor each) it compiles. Compiled only: nothing is allocated.
TEST(BigTensorTest, FusionKeepsWindowsWithinTheDescriptorLimit) {
  // 17 tensors just above the range summed in a chain: fused, one kernel binds 18 tensors. By
  // address that is 18 descriptors; through windows 36, which fusion (fusion.cc) cuts into
  // kernels within maxPerStageDescriptorStorageBuffers (compiled only: the inputs alone would
  // pass lavapipe's 2 GiB heap).
  std::string params, body = fmt::format("  %s0 = stablehlo.add %a0, %a1 : tensor<{}xf32>\n", kBig);
  for (int i = 0; i < 17; ++i) params += fmt::format("{}%a{}: tensor<{}xf32>", i ? ", " : "", i, kBig);
  for (int i = 2; i < 17; ++i) {
    body += fmt::format("  %s{} = stablehlo.add %s{}, %a{} : tensor<{}xf32>\n", i - 1, i - 2, i, kBig);
  }
  const std::string program = fmt::format("func.func @main({}) -> tensor<{}xf32> {{\n{}  func.return %s15 : tensor<{}xf32>\n}}\n",
                                          params, kBig, body, kBig);
  auto exe = testing::SharedClient().Compile(program);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  const uint32_t limit = testing::SharedClient().state()->target.max_storage_buffers_per_stage;
  if (HasAddresses() || limit >= 36) {
    EXPECT_EQ(exe->compile_stats().kernels, 1u);
  } else {
    EXPECT_GE(exe->compile_stats().kernels, (36 + limit - 1) / limit);
    EXPECT_EQ(exe->compile_stats().windowed_kernels, exe->compile_stats().kernels);
  }

  // One op whose windows alone pass the limit cannot be cut: a clear error naming it. 12
  // operands of 2 windows and a result of 13: 37 descriptors.
  constexpr int kParts = 12;
  std::string operands, types, concat_params;
  for (int i = 0; i < kParts; ++i) {
    operands += fmt::format("{}%a{}", i ? ", " : "", i);
    types += fmt::format("{}tensor<{}xf32>", i ? ", " : "", kBig);
    concat_params += fmt::format("{}%a{}: tensor<{}xf32>", i ? ", " : "", i, kBig);
  }
  const int64_t total = kParts * kBig;
  const std::string concat = fmt::format(
      "func.func @main({}) -> tensor<{}xf32> {{\n  %c = stablehlo.concatenate {}, dim = 0 : ({}) -> tensor<{}xf32>\n"
      "  func.return %c : tensor<{}xf32>\n}}\n",
      concat_params, total, operands, types, total, total);
  auto one = testing::SharedClient().Compile(concat);
  const uint64_t needed = kParts * 2 + (total * 4 + kRange - 1) / kRange;
  if (HasAddresses() || limit >= needed) {
    EXPECT_TRUE(one.ok()) << one.status().ToString();
    return;
  }
  ASSERT_FALSE(one.ok());
  const std::string& m = one.status().message();
  EXPECT_NE(m.find("maxPerStageDescriptorStorageBuffers = " + std::to_string(limit)), std::string::npos) << m;
  EXPECT_NE(m.find("count one per window"), std::string::npos) << m;
}

// ---- FFT (device/fft/fft_split.h): split along the batch, sides beyond the range bound
// through windows over the tensors' memory.

// Whether a tensor of `bytes` is beyond this device's maxStorageBufferRange (every tensor here is
// on lavapipe; not natively on GPUs with a 4 GiB range, where the FFTs run in one launch).
bool Beyond(uint64_t bytes) { return bytes > testing::SharedClient().state()->target.max_storage_buffer_range; }

// The plan cache's split counters so far (the cache exists once a program ran an FFT).
device::fft::FftCacheStats FftStats() {
  const auto& state = testing::SharedClient().state();
  std::lock_guard<std::mutex> lock(state->fft_plans_mutex);
  return state->fft_plans ? state->fft_plans->stats() : device::fft::FftCacheStats{};
}

// Pseudo-random values in [-1, 1).
template <typename T>
std::vector<T> RandomValues(size_t n, uint32_t seed) {
  std::vector<T> v(n);
  uint32_t state = seed;
  for (T& x : v) {
    state = state * 1664525u + 1013904223u;
    x = static_cast<T>(static_cast<double>(state >> 8) / (1 << 23) - 1.0);
  }
  return v;
}

// Forward DFT (e^{-2 pi i jk/n}) of a power-of-two length, in double: iterative radix 2.
class HostFft {
 public:
  explicit HostFft(size_t n) : n_(n), twiddles_(n / 2) {
    for (size_t k = 0; k < n / 2; ++k) twiddles_[k] = std::polar(1.0, -2.0 * M_PI * static_cast<double>(k) / n);
  }
  void Run(std::vector<std::complex<double>>& a) const {
    for (size_t i = 1, j = 0; i < n_; ++i) {
      size_t bit = n_ >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(a[i], a[j]);
    }
    for (size_t len = 2; len <= n_; len <<= 1) {
      const size_t step = n_ / len;
      for (size_t i = 0; i < n_; i += len) {
        for (size_t k = 0; k < len / 2; ++k) {
          const std::complex<double> u = a[i + k], v = a[i + k + len / 2] * twiddles_[k * step];
          a[i + k] = u + v;
          a[i + k + len / 2] = u - v;
        }
      }
    }
  }

 private:
  size_t n_;
  std::vector<std::complex<double>> twiddles_;
};

// Values in [-1, 1) from a hash of the index (splitmix64 of i + salt). The LCG of RandomValues,
// sampled at a four-step's stride, is periodic enough to pile a stage's energy into a few
// columns, where an f32 FFT's error grows by up to sqrt of the stride.
std::vector<float> HashValues(size_t count, uint64_t salt) {
  std::vector<float> x(count);
  for (size_t i = 0; i < count; ++i) {
    uint64_t z = (i + salt) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x[i] = static_cast<float>(static_cast<double>(z >> 40) / (1 << 23) - 1.0);
  }
  return x;
}

// w^q = exp(-2 pi i q / n) for 0 <= q < n, in double, from two tables of about n / 4096 and 4096
// entries (outer[q / 4096] inner[q % 4096]).
class HostRotation {
 public:
  explicit HostRotation(int64_t n) : outer_(static_cast<size_t>(n / 4096 + 1)), inner_(4096) {
    for (size_t a = 0; a < outer_.size(); ++a) outer_[a] = std::polar(1.0, -2.0 * M_PI * static_cast<double>(a * 4096) / n);
    for (size_t b = 0; b < inner_.size(); ++b) inner_[b] = std::polar(1.0, -2.0 * M_PI * static_cast<double>(b) / n);
  }
  std::complex<double> operator()(int64_t q) const { return outer_[q / 4096] * inner_[q % 4096]; }

 private:
  std::vector<std::complex<double>> outer_, inner_;
};

// Largest |got - want| of a row, relative to the row's L2 norm of the input: an FFT's rounding
// error spreads over all outputs in proportion to that norm.
template <typename T>
double RowError(const std::complex<T>* got, const std::vector<std::complex<double>>& want, double norm) {
  double err = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::abs(std::complex<double>(got[i].real(), got[i].imag()) - want[i]));
  }
  return err / std::max(norm, 1e-30);
}

// complex<f32>[8193, 2048] (128 MiB + 16 KiB): FFT and IFFT split along the batch, each
// launch's input and output through windows. Every row checked against a host FFT in double;
// the first and last rows also bit for bit against the same transform of those rows alone (at
// range, one launch): the split runs VkFFT's own kernels.
TEST(BigTensorTest, FftAndIfftSplitAlongTheBatch) {
  constexpr int64_t rows = 8193, n = 2048;
  const std::string program = fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xcomplex<f32>>) -> (tensor<{0}x{1}xcomplex<f32>>, tensor<{0}x{1}xcomplex<f32>>) {{
  %f = stablehlo.fft %x, type = FFT, length = [{1}] : (tensor<{0}x{1}xcomplex<f32>>) -> tensor<{0}x{1}xcomplex<f32>>
  %g = stablehlo.fft %f, type = IFFT, length = [{1}] : (tensor<{0}x{1}xcomplex<f32>>) -> tensor<{0}x{1}xcomplex<f32>>
  func.return %f, %g : tensor<{0}x{1}xcomplex<f32>>, tensor<{0}x{1}xcomplex<f32>>
}}
)", rows, n);
  auto exe = CompileBig(program);
  if (!exe) return;
  const std::vector<float> x = RandomValues<float>(2 * rows * n, 7);
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("complex<f32>", {rows, n}, x));
  const device::fft::FftCacheStats before = FftStats();
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx}));
  const device::fft::FftCacheStats after = FftStats();
  const bool beyond = Beyond(rows * n * 8);
  EXPECT_EQ(after.split_records - before.split_records, beyond ? 2u : 0u);
  EXPECT_GE(after.split_launches - before.split_launches, beyond ? 4u : 0u);
  EXPECT_EQ(exe->last_stats().fft_split_launches, after.split_launches - before.split_launches);
  // Out of place, every launch has the same count and bound sizes: one compile per transform.
  EXPECT_LE(after.compiles - before.compiles, 2u);
  // A profile times each launch as an event of its own (GPU timestamps, or host times).
  for (bool host_times : {false, true}) {
    ExecutionProfile profile;
    ASSERT_OK_AND_ASSIGN(std::vector<Buffer> again, exe->Execute({dx}, {.profile = &profile, .profile_host_times = host_times}));
    uint64_t fft_events = 0;
    for (const ProfileEvent& e : profile.events) fft_events += e.kernel_class == "fft";
    EXPECT_EQ(fft_events, std::max<uint64_t>(2, exe->last_stats().fft_split_launches)) << host_times;
    EXPECT_EQ(profile.timing.find("left untimed"), std::string::npos) << profile.timing;
  }
  const std::vector<std::complex<float>> f = Download<std::complex<float>>(out[0]);
  const std::vector<std::complex<float>> g = Download<std::complex<float>>(out[1]);
  ASSERT_EQ(f.size(), static_cast<size_t>(rows * n));
  ASSERT_EQ(g.size(), static_cast<size_t>(rows * n));
  const HostFft host(n);
  double worst_f = 0, worst_g = 0;
  std::vector<std::complex<double>> row(n), in(n);
  for (int64_t r = 0; r < rows; ++r) {
    double norm = 0;
    for (int64_t i = 0; i < n; ++i) {
      in[i] = row[i] = {x[2 * (r * n + i)], x[2 * (r * n + i) + 1]};
      norm += std::norm(row[i]);
    }
    norm = std::sqrt(norm);
    host.Run(row);
    worst_f = std::max(worst_f, RowError(&f[r * n], row, norm));
    worst_g = std::max(worst_g, RowError(&g[r * n], in, norm));
  }
  // f32 with twiddles from a table: about 1e-7 relative (log2 n rounding steps).
  EXPECT_LT(worst_f, 2e-6);
  EXPECT_LT(worst_g, 2e-6 / std::sqrt(static_cast<double>(n)));

  // The same rows transformed alone, bound from their buffers' start: identical bits.
  constexpr int64_t part = 512;
  auto small = CompileBig(fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xcomplex<f32>>) -> tensor<{0}x{1}xcomplex<f32>> {{
  %f = stablehlo.fft %x, type = FFT, length = [{1}] : (tensor<{0}x{1}xcomplex<f32>>) -> tensor<{0}x{1}xcomplex<f32>>
  func.return %f : tensor<{0}x{1}xcomplex<f32>>
}}
)", part, n));
  if (!small) return;
  for (int64_t first : {int64_t{0}, rows - part}) {
    const std::vector<float> piece(x.begin() + 2 * first * n, x.begin() + 2 * (first + part) * n);
    ASSERT_OK_AND_ASSIGN(Buffer dp, Upload("complex<f32>", {part, n}, piece));
    ASSERT_OK_AND_ASSIGN(std::vector<Buffer> pout, small->Execute({dp}));
    EXPECT_EQ(small->last_stats().fft_split_launches, 0u);
    const std::vector<std::complex<float>> fp = Download<std::complex<float>>(pout[0]);
    ASSERT_EQ(fp.size(), static_cast<size_t>(part * n));
    EXPECT_EQ(std::memcmp(fp.data(), &f[first * n], fp.size() * sizeof(fp[0])), 0) << "rows from " << first;
  }
}

// f32[8193, 4096] -> RFFT -> complex<f32>[8193, 2049] -> IRFFT (through its scratch buffer,
// windowed too) -> f32[8193, 4096]: every side beyond the range.
TEST(BigTensorTest, RfftAndIrfftSplitAlongTheBatch) {
  constexpr int64_t rows = 8193, n = 4096, half = n / 2 + 1;
  const std::string program = fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xf32>) -> (tensor<{0}x{2}xcomplex<f32>>, tensor<{0}x{1}xf32>) {{
  %f = stablehlo.fft %x, type = RFFT, length = [{1}] : (tensor<{0}x{1}xf32>) -> tensor<{0}x{2}xcomplex<f32>>
  %g = stablehlo.fft %f, type = IRFFT, length = [{1}] : (tensor<{0}x{2}xcomplex<f32>>) -> tensor<{0}x{1}xf32>
  func.return %f, %g : tensor<{0}x{2}xcomplex<f32>>, tensor<{0}x{1}xf32>
}}
)", rows, n, half);
  auto exe = CompileBig(program);
  if (!exe) return;
  const std::vector<float> x = RandomValues<float>(rows * n, 11);
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("f32", {rows, n}, x));
  const device::fft::FftCacheStats before = FftStats();
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx}));
  const device::fft::FftCacheStats after = FftStats();
  const bool beyond = Beyond(rows * n * 4);
  EXPECT_EQ(after.split_records - before.split_records, beyond ? 2u : 0u);
  EXPECT_GE(exe->last_stats().fft_split_launches, beyond ? 4u : 0u);
  const std::vector<std::complex<float>> f = Download<std::complex<float>>(out[0]);
  const std::vector<float> g = Download<float>(out[1]);
  ASSERT_EQ(f.size(), static_cast<size_t>(rows * half));
  ASSERT_EQ(g.size(), static_cast<size_t>(rows * n));
  const HostFft host(n);
  double worst_f = 0, worst_g = 0;
  std::vector<std::complex<double>> row(n);
  for (int64_t r = 0; r < rows; ++r) {
    double norm = 0;
    for (int64_t i = 0; i < n; ++i) {
      row[i] = x[r * n + i];
      norm += std::norm(row[i]);
    }
    norm = std::sqrt(norm);
    for (int64_t i = 0; i < n; ++i) worst_g = std::max(worst_g, std::abs(g[r * n + i] - x[r * n + i]) / norm);
    host.Run(row);
    row.resize(half);
    worst_f = std::max(worst_f, RowError(&f[r * half], row, norm));
    row.resize(n);
  }
  EXPECT_LT(worst_f, 2e-6);
  EXPECT_LT(worst_g, 2e-6 / std::sqrt(static_cast<double>(n)));
}

// complex<f64>[4097, 2048] (128 MiB + 32 KiB) where the device has shaderFloat64; elsewhere the
// clear error about the type, as at any size.
TEST(BigTensorTest, F64FftSplitAlongTheBatch) {
  constexpr int64_t rows = 4097, n = 2048;
  const std::string program = fmt::format(R"(
func.func @main(%x: tensor<{0}x{1}xcomplex<f64>>) -> tensor<{0}x{1}xcomplex<f64>> {{
  %f = stablehlo.fft %x, type = FFT, length = [{1}] : (tensor<{0}x{1}xcomplex<f64>>) -> tensor<{0}x{1}xcomplex<f64>>
  func.return %f : tensor<{0}x{1}xcomplex<f64>>
}}
)", rows, n);
  if (!testing::SharedClient().state()->target.shader_float64) {
    auto exe = testing::SharedClient().Compile(program);
    ASSERT_FALSE(exe.ok());
    EXPECT_NE(exe.status().message().find("needs shaderFloat64"), std::string::npos) << exe.status().ToString();
    return;
  }
  auto exe = CompileBig(program);
  if (!exe) return;
  const std::vector<double> x = RandomValues<double>(2 * rows * n, 13);
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("complex<f64>", {rows, n}, x));
  const device::fft::FftCacheStats before = FftStats();
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx}));
  const bool beyond = Beyond(rows * n * 16);
  EXPECT_EQ(FftStats().split_records - before.split_records, beyond ? 1u : 0u);
  EXPECT_GE(exe->last_stats().fft_split_launches, beyond ? 2u : 0u);
  const std::vector<std::complex<double>> f = Download<std::complex<double>>(out[0]);
  ASSERT_EQ(f.size(), static_cast<size_t>(rows * n));
  const HostFft host(n);
  double worst = 0;
  std::vector<std::complex<double>> row(n);
  for (int64_t r = 0; r < rows; ++r) {
    double norm = 0;
    for (int64_t i = 0; i < n; ++i) {
      row[i] = {x[2 * (r * n + i)], x[2 * (r * n + i) + 1]};
      norm += std::norm(row[i]);
    }
    host.Run(row);
    worst = std::max(worst, RowError(&f[r * n], row, std::sqrt(norm)));
  }
  EXPECT_LT(worst, 1e-14);
}

// One transform larger than the range: complex<f32>[3 * 2^23] (192 MiB). The compile splits it
// (passes/split_large_ffts.cc: 4096 transforms of 6144 points and 6144 of 4096, twiddles
// between, each batch split between launches over windows where the device binds 128 MiB);
// checked against a host FFT in double, built from three radix-2 FFTs of 2^23 points.
TEST(BigTensorTest, OneTransformBeyondTheRangeIsSplit) {
  constexpr int64_t m = int64_t{1} << 23, n = 3 * m;
  const std::string program = fmt::format(R"(
func.func @main(%x: tensor<{0}xcomplex<f32>>) -> tensor<{0}xcomplex<f32>> {{
  %f = stablehlo.fft %x, type = FFT, length = [{0}] : (tensor<{0}xcomplex<f32>>) -> tensor<{0}xcomplex<f32>>
  func.return %f : tensor<{0}xcomplex<f32>>
}}
)", n);
  auto exe = CompileBig(program);
  if (!exe) return;
  const bool beyond = Beyond(n * 8);
  EXPECT_EQ(exe->compile_stats().split_ffts, beyond ? 1u : 0u);
  // Values from a hash of the index (HashValues: the four-step's stride here is 6144 elements;
  // VkFFT's own, unsplit, transform would grow its error as much on an LCG's values).
  std::vector<float> x = HashValues(2 * n, 1);
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("complex<f32>", {n}, x));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx}));
  if (beyond) EXPECT_GE(exe->last_stats().fft_split_launches, 2u);
  const std::vector<std::complex<float>> f = Download<std::complex<float>>(out[0]);
  ASSERT_EQ(f.size(), static_cast<size_t>(n));
  // X[k] = F0[k mod m] + w^k F1[k mod m] + w^2k F2[k mod m], Fr the FFT of x[r], x[r + 3], ...
  const HostFft host(m);
  std::vector<std::vector<std::complex<double>>> parts(3, std::vector<std::complex<double>>(m));
  double norm = 0;
  for (int64_t i = 0; i < n; ++i) {
    const std::complex<double> v(x[2 * i], x[2 * i + 1]);
    parts[i % 3][i / 3] = v;
    norm += std::norm(v);
  }
  x.clear();
  x.shrink_to_fit();
  for (auto& part : parts) host.Run(part);
  const HostRotation w(n);
  double err = 0;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t km = k % m;
    const std::complex<double> want = parts[0][km] + w(k) * parts[1][km] + w((2 * k) % n) * parts[2][km];
    err = std::max(err, std::abs(std::complex<double>(f[k].real(), f[k].imag()) - want));
  }
  // f32 through two transforms and a twiddle product: about 1e-6 of the input's norm at worst
  // over the 25M outputs (as VkFFT's single transform of 2^24 points).
  EXPECT_LT(err / std::sqrt(norm), 4e-6);
}

// A prime length beyond the range: complex<f32>[2^24 + 43] (128 MiB + 344 bytes), one transform
// the device cannot bind, takes Bluestein's form (passes/split_large_ffts.cc): a cyclic
// convolution through transforms of 33,592,320 = 2^10 3^8 5 points (the least 7-smooth
// length >= 2n - 1), each split by the four-step. Checked at a dozen outputs (the first, the
// last, the middle and pseudo-random ones) against sums in double, and over all of them by
// Parseval's identity.
TEST(BigTensorTest, PrimeTransformBeyondTheRangeTakesBluestein) {
  constexpr int64_t n = 16777259;  // 2^24 + 43, prime
  auto exe = CompileBig(fmt::format(R"(
func.func @main(%x: tensor<{0}xcomplex<f32>>) -> tensor<{0}xcomplex<f32>> {{
  %f = stablehlo.fft %x, type = FFT, length = [{0}] : (tensor<{0}xcomplex<f32>>) -> tensor<{0}xcomplex<f32>>
  func.return %f : tensor<{0}xcomplex<f32>>
}}
)", n));
  if (!exe) return;
  EXPECT_EQ(exe->compile_stats().split_ffts, Beyond(n * 8) ? 1u : 0u);
  const std::vector<float> x = HashValues(2 * n, 7);
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("complex<f32>", {n}, x));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe->Execute({dx}));
  const std::vector<std::complex<float>> f = Download<std::complex<float>>(out[0]);
  ASSERT_EQ(f.size(), static_cast<size_t>(n));
  const HostRotation w(n);
  double norm = 0, energy = 0;
  for (int64_t j = 0; j < n; ++j) norm += std::norm(std::complex<double>(x[2 * j], x[2 * j + 1]));
  for (int64_t k = 0; k < n; ++k) energy += std::norm(std::complex<double>(f[k].real(), f[k].imag()));
  // Parseval: sum |X|^2 = n sum |x|^2.
  EXPECT_NEAR(energy / (static_cast<double>(n) * norm), 1.0, 1e-5);
  double err = 0;
  for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{2}, n / 2, n / 2 + 1, n - 1, int64_t{4096}, int64_t{1234567},
                    int64_t{9876543}, int64_t{16000001}, int64_t{777}, int64_t{12345678}}) {
    std::complex<double> want = 0;
    int64_t q = 0;  // j k mod n
    for (int64_t j = 0; j < n; ++j) {
      want += std::complex<double>(x[2 * j], x[2 * j + 1]) * w(q);
      q += k;
      if (q >= n) q -= n;
    }
    err = std::max(err, std::abs(std::complex<double>(f[k].real(), f[k].imag()) - want));
  }
  // As for the composite split above: the error against the input's norm.
  EXPECT_LT(err / std::sqrt(norm), 4e-6);
}

// A real innermost length of 1 (a conversion kernel over whole tensors) becomes a convert (RFFT)
// or a real part (IRFFT) beyond the range.
TEST(BigTensorTest, UnitRealLengthsBeyondTheRangeConvert) {
  auto ones = CompileBig(fmt::format(R"(
func.func @main(%x: tensor<{0}x1xf32>) -> (tensor<{0}x1xcomplex<f32>>, tensor<{0}x1xf32>) {{
  %f = stablehlo.fft %x, type = RFFT, length = [1] : (tensor<{0}x1xf32>) -> tensor<{0}x1xcomplex<f32>>
  %g = stablehlo.fft %f, type = IRFFT, length = [1] : (tensor<{0}x1xcomplex<f32>>) -> tensor<{0}x1xf32>
  func.return %f, %g : tensor<{0}x1xcomplex<f32>>, tensor<{0}x1xf32>
}}
)", kBig));
  if (!ones) return;
  EXPECT_EQ(ones->compile_stats().split_ffts, Beyond(kBig * 8) ? 2u : 0u);
  const std::vector<float> x = RandomValues<float>(kBig, 19);
  ASSERT_OK_AND_ASSIGN(Buffer dx, Upload("f32", {kBig, 1}, x));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, ones->Execute({dx}));
  const std::vector<std::complex<float>> f = Download<std::complex<float>>(out[0]);
  const std::vector<float> g = Download<float>(out[1]);
  ASSERT_EQ(f.size(), x.size());
  ASSERT_EQ(g.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (f[i] != std::complex<float>(x[i], 0) || g[i] != x[i]) {
      ADD_FAILURE() << "element " << i << ": " << x[i] << " -> " << f[i] << " -> " << g[i];
      break;
    }
  }
}

}  // namespace
}  // namespace vkhlo
