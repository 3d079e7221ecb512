// Issue 25: tensors just above maxStorageBufferRange (128 MiB on lavapipe) in every kernel
// family, checked against host computations. On a device with bufferDeviceAddress the big
// bindings are reached by address (ExecutionStats::address_bindings counts them); without it
// (VKHLO_PROFILE=mobile masks it off) through several descriptors, "windows"
// (ExecutionStats::windowed_bindings). FFT is an error on both.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/state.h"
#include "tests/codegen/runtime_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo {
namespace {

constexpr uint64_t kRange = 128ull << 20;
// f32 elements just above the range, and two-dimensional shapes just above it.
constexpr int64_t kBig = (kRange / 4) + 8;  // 33554440
constexpr int64_t kRows = 8193, kCols = 4097;  // 134266884 bytes of f32

bool HasAddresses() { return testing::SharedClient().state()->target.buffer_device_address; }

// Big bindings of the last execution, through the path this device has (the other path unused).
uint64_t BigBound(const ExecutionStats& s) {
  EXPECT_EQ(HasAddresses() ? s.windowed_bindings : s.address_bindings, 0u);
  return HasAddresses() ? s.address_bindings : s.windowed_bindings;
}

template <typename T>
StatusOr<Buffer> Upload(const std::string& element, const std::vector<int64_t>& dims, const std::vector<T>& host) {
  return testing::SharedClient().BufferFromHost(
      TensorType{element, dims},
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(host.data()), host.size() * sizeof(T)));
}

template <typename T>
std::vector<T> Download(const Buffer& b) {
  auto bytes = b.ToHost();
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::vector<T> out(bytes.ok() ? bytes->size() / sizeof(T) : 0);
  if (bytes.ok()) std::memcpy(out.data(), bytes->data(), out.size() * sizeof(T));
  return out;
}

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
    EXPECT_GE(BigBound(exe->last_stats()), 3u);
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
  EXPECT_GE(BigBound(exe->last_stats()), 3u);
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
  EXPECT_GE(BigBound(exe->last_stats()), 1u);
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
  EXPECT_GE(BigBound(exe->last_stats()), 2u);
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
  EXPECT_GE(BigBound(exe->last_stats()), 2u);
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
  EXPECT_GE(BigBound(exe->last_stats()), 3u);
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
  EXPECT_GE(BigBound(exe->last_stats()), 3u);
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

// VkFFT binds buffers through descriptors: an FFT beyond the range is a clear compile error on
// every device (not a wrong result, not a failure at run time).
TEST(BigTensorTest, FftBeyondTheRangeIsAClearError) {
  const std::string program = R"(
func.func @main(%x: tensor<8193x2048xcomplex<f32>>) -> tensor<8193x2048xcomplex<f32>> {
  %f = stablehlo.fft %x, type = FFT, length = [2048] : (tensor<8193x2048xcomplex<f32>>) -> tensor<8193x2048xcomplex<f32>>
  func.return %f : tensor<8193x2048xcomplex<f32>>
}
)";
  auto exe = testing::SharedClient().Compile(program);
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find("134234112 bytes, more than the device's maxStorageBufferRange"), std::string::npos)
      << exe.status().ToString();
}

}  // namespace
}  // namespace vkhlo
