// Index spaces beyond 2^32 - 1 elements (issue 25): fused values that are never stored (iotas,
// masks, broadcasts of tensor<65537x65537x...>, 2^32 + 2^17 + 1 elements) reduced or sliced to
// small results, exact against closed forms computed on the host: full, row and column
// reductions (i64 wrapping past 2^63, ui32 wrapping at 2^32), a masked count, an argmax whose
// winner lies past 2^32, a slice of a huge iota at the last elements, and the clear errors for
// what stays unsupported (a reshape that needs the linear position, a sort of such a tensor).
//
// Runs natively, under VKHLO_PROFILE=mobile (no shaderInt64: the i64 values are uvec2 pairs)
// and with VKHLO_INT64=emulate. The index arithmetic itself is 32-bit everywhere: coordinates per
// dimension (each below 2^31), never a linear position past 2^32.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "device/allocator.h"
#include "runtime/state.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo {
namespace {

constexpr int64_t kSide = 65537;               // kSide^2 = 2^32 + 2^17 + 1 elements
constexpr uint64_t kN = uint64_t{kSide} * kSide;

using testing::Download;

// Compiles and runs @main without arguments.
StatusOr<std::vector<Buffer>> RunMain(const std::string& program) {
  VKHLO_ASSIGN_OR_RETURN(Executable exe, testing::SharedClient().Compile(program));
  return exe.Execute(std::vector<Buffer>{});
}

// The row-major position of each element of a kSide x kSide x i64 iota pair (a value every test
// builds from per-dimension iotas: the device never computes a linear index past 2^32).
constexpr const char* kLinear = R"(
  %r = stablehlo.iota dim = 0 : tensor<65537x65537xi64>
  %c = stablehlo.iota dim = 1 : tensor<65537x65537xi64>
  %side = stablehlo.constant dense<65537> : tensor<65537x65537xi64>
  %rs = stablehlo.multiply %r, %side : tensor<65537x65537xi64>
  %lin = stablehlo.add %rs, %c : tensor<65537x65537xi64>
)";

// sum of 0 .. kN - 1 in i64 (it passes 2^63: wraps) and of the positions mod 2^32 in ui32.
TEST(Index64Test, FullSumsOfPositionsWrap) {
  const std::string program = fmt::format(R"(
func.func @main() -> (tensor<i64>, tensor<ui32>) {{{}
  %z = stablehlo.constant dense<0> : tensor<i64>
  %s = stablehlo.reduce(%lin init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<65537x65537xi64>, tensor<i64>) -> tensor<i64>
  %l32 = stablehlo.convert %lin : (tensor<65537x65537xi64>) -> tensor<65537x65537xui32>
  %z32 = stablehlo.constant dense<0> : tensor<ui32>
  %s32 = stablehlo.reduce(%l32 init: %z32) applies stablehlo.add across dimensions = [1, 0] : (tensor<65537x65537xui32>, tensor<ui32>) -> tensor<ui32>
  func.return %s, %s32 : tensor<i64>, tensor<ui32>
}}
)", kLinear);
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, RunMain(program));
  const unsigned __int128 sum = static_cast<unsigned __int128>(kN) * (kN - 1) / 2;
  EXPECT_EQ(Download<uint64_t>(out[0]).at(0), static_cast<uint64_t>(sum));
  EXPECT_EQ(Download<uint32_t>(out[1]).at(0), static_cast<uint32_t>(sum));
}

// A mask compared and summed: the positions at or past 2^32 (2^17 + 1 of them) and the even ones.
TEST(Index64Test, MaskedCountsPast2To32) {
  const std::string program = fmt::format(R"(
func.func @main() -> (tensor<i32>, tensor<i32>) {{{}
  %edge = stablehlo.constant dense<4294967296> : tensor<65537x65537xi64>
  %past = stablehlo.compare GE, %lin, %edge : (tensor<65537x65537xi64>, tensor<65537x65537xi64>) -> tensor<65537x65537xi1>
  %one = stablehlo.constant dense<1> : tensor<65537x65537xi32>
  %zero = stablehlo.constant dense<0> : tensor<65537x65537xi32>
  %m = stablehlo.select %past, %one, %zero : tensor<65537x65537xi1>, tensor<65537x65537xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %n = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<65537x65537xi32>, tensor<i32>) -> tensor<i32>
  %two = stablehlo.constant dense<1> : tensor<65537x65537xi64>
  %low = stablehlo.and %lin, %two : tensor<65537x65537xi64>
  %odd = stablehlo.convert %low : (tensor<65537x65537xi64>) -> tensor<65537x65537xi32>
  %o = stablehlo.reduce(%odd init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<65537x65537xi32>, tensor<i32>) -> tensor<i32>
  func.return %n, %o : tensor<i32>, tensor<i32>
}}
)", kLinear);
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, RunMain(program));
  EXPECT_EQ(Download<int32_t>(out[0]).at(0), static_cast<int32_t>(kN - (uint64_t{1} << 32)));
  EXPECT_EQ(Download<int32_t>(out[1]).at(0), static_cast<int32_t>(kN / 2));
}

// argmax of -|position - P| (ties to the smaller position) over all kN elements, P just past
// 2^32 (the last element is SliceOfAHugeIotaInALoopFusion's; one sweep keeps the test short).
TEST(Index64Test, ArgmaxFindsAPositionPast2To32) {
  for (const uint64_t p : {uint64_t{4294967301}}) {
    const std::string program = fmt::format(R"(
func.func @main() -> (tensor<i64>, tensor<i64>) {{{}
  %p = stablehlo.constant dense<{}> : tensor<65537x65537xi64>
  %d = stablehlo.subtract %lin, %p : tensor<65537x65537xi64>
  %a = stablehlo.abs %d : tensor<65537x65537xi64>
  %v = stablehlo.negate %a : tensor<65537x65537xi64>
  %lo = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
  %no = stablehlo.constant dense<-1> : tensor<i64>
  %best:2 = stablehlo.reduce(%v init: %lo), (%lin init: %no) across dimensions = [0, 1] : (tensor<65537x65537xi64>, tensor<65537x65537xi64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    reducer(%av: tensor<i64>, %bv: tensor<i64>) (%ai: tensor<i64>, %bi: tensor<i64>) {{
      %gt = stablehlo.compare GT, %av, %bv : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %eq = stablehlo.compare EQ, %av, %bv : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %lt = stablehlo.compare LT, %ai, %bi : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %first = stablehlo.or %gt, %tie : tensor<i1>
      %rv = stablehlo.select %first, %av, %bv : tensor<i1>, tensor<i64>
      %ri = stablehlo.select %first, %ai, %bi : tensor<i1>, tensor<i64>
      stablehlo.return %rv, %ri : tensor<i64>, tensor<i64>
    }}
  func.return %best#0, %best#1 : tensor<i64>, tensor<i64>
}}
)", kLinear, p);
    ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, RunMain(program));
    EXPECT_EQ(Download<int64_t>(out[0]).at(0), 0) << p;
    EXPECT_EQ(Download<int64_t>(out[1]).at(0), static_cast<int64_t>(p)) << p;
  }
}

// A reducer that is not commutative (keep the right operand: the last element of each range) is
// folded in order, contiguous chunks per invocation: the full "last" is the last position, the
// last of each column its bottom element.
TEST(Index64Test, InOrderReducerSeesTheLastElement) {
  const std::string program = fmt::format(R"(
func.func @main() -> (tensor<i64>, tensor<65537xi64>) {{{}
  %z = stablehlo.constant dense<-1> : tensor<i64>
  %last = stablehlo.reduce(%lin init: %z) across dimensions = [0, 1] : (tensor<65537x65537xi64>, tensor<i64>) -> tensor<i64>
    reducer(%a: tensor<i64>, %b: tensor<i64>) {{
      stablehlo.return %b : tensor<i64>
    }}
  %bottom = stablehlo.reduce(%lin init: %z) across dimensions = [0] : (tensor<65537x65537xi64>, tensor<i64>) -> tensor<65537xi64>
    reducer(%a: tensor<i64>, %b: tensor<i64>) {{
      stablehlo.return %b : tensor<i64>
    }}
  func.return %last, %bottom : tensor<i64>, tensor<65537xi64>
}}
)", kLinear);
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, RunMain(program));
  EXPECT_EQ(Download<int64_t>(out[0]).at(0), static_cast<int64_t>(kN - 1));
  const std::vector<int64_t> bottom = Download<int64_t>(out[1]);
  ASSERT_EQ(bottom.size(), static_cast<size_t>(kSide));
  int64_t bad = 0;
  for (int64_t k = 0; k < kSide; ++k) {
    if (bottom[k] != (kSide - 1) * kSide + k && bad++ < 5) ADD_FAILURE() << "column " << k << ": " << bottom[k];
  }
  EXPECT_EQ(bad, 0);
}

// A loop fusion whose output is small: the last 7 columns of the last two rows of the position
// iota (positions past 2^32, the last element included) and a broadcast of a row reversed.
TEST(Index64Test, SliceOfAHugeIotaInALoopFusion) {
  const std::string program = fmt::format(R"(
func.func @main() -> (tensor<2x7xi64>, tensor<3xi64>) {{{}
  %l3 = stablehlo.reshape %lin : (tensor<65537x65537xi64>) -> tensor<65537x1x65537xi64>
  %s3 = stablehlo.slice %l3 [65535:65537, 0:1, 65530:65537] : (tensor<65537x1x65537xi64>) -> tensor<2x1x7xi64>
  %s = stablehlo.reshape %s3 : (tensor<2x1x7xi64>) -> tensor<2x7xi64>
  %b = stablehlo.broadcast_in_dim %c, dims = [1, 2] : (tensor<65537x65537xi64>) -> tensor<2x65537x65537xi64>
  %rev = stablehlo.reverse %b, dims = [2] : tensor<2x65537x65537xi64>
  %t = stablehlo.slice %rev [1:2, 65536:65537, 0:3] : (tensor<2x65537x65537xi64>) -> tensor<1x1x3xi64>
  %u = stablehlo.reshape %t : (tensor<1x1x3xi64>) -> tensor<3xi64>
  func.return %s, %u : tensor<2x7xi64>, tensor<3xi64>
}}
)", kLinear);
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, RunMain(program));
  const std::vector<int64_t> s = Download<int64_t>(out[0]);
  ASSERT_EQ(s.size(), 14u);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 7; ++j) EXPECT_EQ(s[i * 7 + j], (65535 + i) * kSide + 65530 + j) << i << "," << j;
  }
  EXPECT_EQ(s.back(), static_cast<int64_t>(kN - 1));
  EXPECT_EQ(Download<int64_t>(out[1]), (std::vector<int64_t>{65536, 65535, 65534}));
}

// Column sums (dimension 0 reduced: each result strided through 2^32 positions) and row sums of
// the positions, the columns plus a stored argument broadcast along them (read at its own small
// index) and times 3 in a fused epilogue, every result checked.
TEST(Index64Test, ColumnAndRowSums) {
  const std::string program = fmt::format(R"(
func.func @main(%w: tensor<65537xi64>) -> (tensor<65537xi64>, tensor<65537xi64>, tensor<65537xi64>) {{{}
  %wb = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<65537xi64>) -> tensor<65537x65537xi64>
  %x = stablehlo.add %lin, %wb : tensor<65537x65537xi64>
  %z = stablehlo.constant dense<0> : tensor<i64>
  %cols = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<65537x65537xi64>, tensor<i64>) -> tensor<65537xi64>
  %rows = stablehlo.reduce(%lin init: %z) applies stablehlo.add across dimensions = [1] : (tensor<65537x65537xi64>, tensor<i64>) -> tensor<65537xi64>
  %three = stablehlo.constant dense<3> : tensor<65537xi64>
  %cols3 = stablehlo.multiply %cols, %three : tensor<65537xi64>
  func.return %cols, %rows, %cols3 : tensor<65537xi64>, tensor<65537xi64>, tensor<65537xi64>
}}
)", kLinear);
  std::vector<int64_t> w(kSide);
  for (int64_t k = 0; k < kSide; ++k) w[k] = (k * 7919) % 1000 - 500;
  ASSERT_OK_AND_ASSIGN(Executable exe, testing::SharedClient().Compile(program));
  ASSERT_OK_AND_ASSIGN(Buffer dw, testing::SharedClient().BufferFromHost(
                                      TensorType{"i64", {kSide}},
                                      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(w.data()), w.size() * 8)));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe.Execute({dw}));
  const std::vector<int64_t> cols = Download<int64_t>(out[0]), rows = Download<int64_t>(out[1]);
  const std::vector<int64_t> cols3 = Download<int64_t>(out[2]);  // an epilogue fused into the reduce
  ASSERT_EQ(cols3.size(), static_cast<size_t>(kSide));
  ASSERT_EQ(cols.size(), static_cast<size_t>(kSide));
  ASSERT_EQ(rows.size(), static_cast<size_t>(kSide));
  const int64_t tri = kSide * (kSide - 1) / 2;  // 0 + 1 + ... + kSide - 1
  int64_t bad = 0;
  for (int64_t k = 0; k < kSide; ++k) {
    const int64_t col = kSide * tri + kSide * k + kSide * w[k];  // sum over r of r * kSide + k + w[k]
    const int64_t row = k * kSide * kSide + tri;                 // sum over c of k * kSide + c
    if (cols[k] != col && bad++ < 5) ADD_FAILURE() << "column " << k << ": " << cols[k] << " want " << col;
    if (cols3[k] != 3 * col && bad++ < 5) ADD_FAILURE() << "3 x column " << k << ": " << cols3[k];
    if (rows[k] != row && bad++ < 5) ADD_FAILURE() << "row " << k << ": " << rows[k] << " want " << row;
  }
  EXPECT_EQ(bad, 0);
}

// Rows just within what a uint counts, without the split pass: one reduce of 2^32 - 8192
// elements whose last segment ends within L of 2^32 (SegmentEnd's form that cannot wrap) and
// whose loops stay within llvmpipe's 65535 iterations (segments never capped below what that
// needs); a row of 2^32 - 1 elements, where a loop's next position would wrap, is a clear error.
TEST(Index64Test, LongRowsWithoutTheSplit) {
  const auto program = [](int64_t rows, int64_t cols) {
    return fmt::format(R"(
func.func @main() -> tensor<ui32> {{
  %r = stablehlo.iota dim = 0 : tensor<{0}x{1}xui32>
  %c = stablehlo.iota dim = 1 : tensor<{0}x{1}xui32>
  %k = stablehlo.constant dense<{1}> : tensor<{0}x{1}xui32>
  %m = stablehlo.multiply %r, %k : tensor<{0}x{1}xui32>
  %x = stablehlo.add %m, %c : tensor<{0}x{1}xui32>
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<{0}x{1}xui32>, tensor<ui32>) -> tensor<ui32>
  func.return %s : tensor<ui32>
}}
)", rows, cols);
  };
  CompileOptions options;
  options.passes = "canonicalize,cse,dce";  // no split-long-reductions
  if (const char* d = std::getenv("INDEX64_DUMP")) options.dump_kernels_dir = d;
  ASSERT_OK_AND_ASSIGN(Executable exe, testing::SharedClient().Compile(program(2, 2147479552), options));
  ASSERT_OK_AND_ASSIGN(std::vector<Buffer> out, exe.Execute(std::vector<Buffer>{}));
  const uint64_t n = 4294959104;  // 0 + 1 + ... + (n - 1), mod 2^32
  EXPECT_EQ(Download<uint32_t>(out[0]).at(0), static_cast<uint32_t>(n * (n - 1) / 2));

  StatusOr<Executable> too_long = testing::SharedClient().Compile(program(3, 1431655765), options);
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.status().code(), StatusCode::kUnimplemented) << too_long.status().ToString();
  EXPECT_NE(too_long.status().message().find("reduces rows of 4294967295 elements"), std::string::npos)
      << too_long.status().message();
}

// What stays unsupported is a clear error naming the op: a reshape that needs the linear
// position of a value past 2^32 elements, a fused value beyond 2^40 elements, and a sort (its
// kernel indexes linearly).
TEST(Index64Test, UnsupportedCasesAreClearErrors) {
  const std::string reshape = R"(
func.func @main() -> tensor<i32> {
  %x = stablehlo.iota dim = 0 : tensor<65536x65537xi32>
  %y = stablehlo.reshape %x : (tensor<65536x65537xi32>) -> tensor<65537x256x256xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<65537x256x256xi32>, tensor<i32>) -> tensor<i32>
  func.return %s : tensor<i32>
}
)";
  StatusOr<std::vector<Buffer>> r = RunMain(reshape);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnimplemented) << r.status().ToString();
  EXPECT_NE(r.status().message().find("stablehlo.reshape"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("4295032832 elements"), std::string::npos) << r.status().message();

  // Fused values are allowed past the device's memory only up to 2^40 elements: a sum over
  // 2^62 elements is refused at once (no kernel counts that far), as before.
  const std::string huge = R"(
func.func @main() -> tensor<i8> {
  %x = stablehlo.constant dense<1> : tensor<2147483647x2147483647xi8>
  %z = stablehlo.constant dense<0> : tensor<i8>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<2147483647x2147483647xi8>, tensor<i8>) -> tensor<i8>
  func.return %s : tensor<i8>
}
)";
  r = RunMain(huge);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kResourceExhausted) << r.status().ToString();
  EXPECT_NE(r.status().message().find("'stablehlo.constant' result of type tensor<2147483647x2147483647xi8>"),
            std::string::npos)
      << r.status().message();

  const std::string sort = R"(
func.func @main() -> tensor<1xi32> {
  %x = stablehlo.iota dim = 1 : tensor<65537x65537xi32>
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<65537x65537xi32>) -> tensor<65537x65537xi32>
  %t = stablehlo.slice %s [0:1, 0:1] : (tensor<65537x65537xi32>) -> tensor<1x1xi32>
  %u = stablehlo.reshape %t : (tensor<1x1xi32>) -> tensor<1xi32>
  func.return %u : tensor<1xi32>
}
)";
  r = RunMain(sort);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("stablehlo.sort"), std::string::npos) << r.status().message();
  // The sort's result is stored: on a device whose memory cannot hold its 16 GiB that is the
  // error (before any kernel is planned); elsewhere the sort kernel's index space is.
  const uint64_t bytes = kN * 4;
  if (bytes > testing::SharedClient().state()->device->allocator().MemoryLimit()) {
    EXPECT_EQ(r.status().code(), StatusCode::kResourceExhausted) << r.status().ToString();
    EXPECT_NE(r.status().message().find("result of type tensor<65537x65537xi32> needs 17180393476 bytes"),
              std::string::npos)
        << r.status().message();
  } else {
    EXPECT_EQ(r.status().code(), StatusCode::kUnimplemented) << r.status().ToString();
    EXPECT_NE(r.status().message().find("4295098369 elements"), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace vkhlo
