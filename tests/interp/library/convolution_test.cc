// convolution: the spec's example, hand-computed group cases, and random cases with every window
// attribute against a reference that follows the spec's decomposition (pad and dilate the lhs,
// slice windows, reverse them, dot with the kernel; split/concat for groups).
#include <fmt/format.h>

#include "tests/interp/library/test_util.h"

namespace vkhlo::interp::testing {
namespace {

using ir::ElementType;

TEST(Convolution, SpecExample) {
  const std::string text = R"(
func.func @main(%lhs: tensor<1x4x4x1xi32>, %rhs: tensor<3x3x1x1xi32>) -> tensor<1x2x2x1xi32> {
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    window_strides = dense<4> : tensor<2xi64>, padding = dense<0> : tensor<2x2xi64>,
    lhs_dilation = dense<2> : tensor<2xi64>, rhs_dilation = dense<1> : tensor<2xi64>,
    window_reversal = dense<false> : tensor<2xi1>,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
  } : (tensor<1x4x4x1xi32>, tensor<3x3x1x1xi32>) -> tensor<1x2x2x1xi32>
  func.return %0 : tensor<1x2x2x1xi32>
})";
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kS32, {1, 4, 4, 1},
                                                     {1, 2, 5, 6, 3, 4, 7, 8, 10, 11, 14, 15, 12, 13, 16, 17})),
                            InterpValue::Tensor(Make(ElementType::kS32, {3, 3, 1, 1}, std::vector<double>(9, 1)))});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Ints(out[0]), (std::vector<int64_t>{10, 26, 46, 62}));
}

TEST(Convolution, FeatureGroupsWithKernelDilation) {
  // f0 = [1, 2, 3, 4] with kernel o0 = [1, 1]; f1 = [10, 20, 30, 40] with o1 = [1, -1]; the
  // kernel is dilated by 2, so each output reads x[i] and x[i + 2].
  const std::string text = R"(
func.func @main(%lhs: tensor<1x2x4xf32>, %rhs: tensor<2x1x2xf32>) -> tensor<1x2x2xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {rhs_dilate = [2]}
      {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x2x4xf32>, tensor<2x1x2xf32>) -> tensor<1x2x2xf32>
  func.return %0 : tensor<1x2x2xf32>
})";
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, {1, 2, 4}, {1, 2, 3, 4, 10, 20, 30, 40})),
                            InterpValue::Tensor(Make(ElementType::kF32, {2, 1, 2}, {1, 1, 1, -1}))});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Doubles(out[0]), (std::vector<double>{4, 6, -20, -20}));
}

TEST(Convolution, BatchGroups) {
  // Batch b0 = [1, 2, 3] goes to output feature 0 (kernel [1, 0]), b1 = [4, 5, 6] to feature 1
  // (kernel [0, 1]).
  const std::string text = R"(
func.func @main(%lhs: tensor<2x1x3xf32>, %rhs: tensor<2x1x2xf32>) -> tensor<1x2x2xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {}
      {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x1x3xf32>, tensor<2x1x2xf32>) -> tensor<1x2x2xf32>
  func.return %0 : tensor<1x2x2xf32>
})";
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, {2, 1, 3}, {1, 2, 3, 4, 5, 6})),
                            InterpValue::Tensor(Make(ElementType::kF32, {2, 1, 2}, {1, 0, 0, 1}))});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Doubles(out[0]), (std::vector<double>{1, 2, 5, 6}));
}

struct ConvCase {
  int64_t n, c, h, w, o, kh, kw;
  int64_t stride[2], pad[2][2], lhs_dil[2], rhs_dil[2];
  bool reverse[2];
  int64_t feature_groups, batch_groups;
};

// The spec's decomposition in NCHW / OIHW / NCHW layout; returns the result and its dims.
std::vector<double> Reference(const ConvCase& p, const std::vector<double>& lhs, const std::vector<double>& rhs,
                              std::vector<int64_t>& out_dims) {
  const int64_t in_sp[2] = {p.h, p.w}, k_sp[2] = {p.kh, p.kw};
  // padded_lhs = pad(lhs, 0, low, high, interior = lhs_dilation - 1) (negative padding crops).
  int64_t padded[2];
  for (int s = 0; s < 2; ++s) padded[s] = p.pad[s][0] + (in_sp[s] - 1) * p.lhs_dil[s] + 1 + p.pad[s][1];
  std::vector<double> pl(static_cast<size_t>(p.n * p.c * padded[0] * padded[1]), 0.0);
  for (int64_t b = 0; b < p.n; ++b) {
    for (int64_t c = 0; c < p.c; ++c) {
      for (int64_t y = 0; y < p.h; ++y) {
        for (int64_t x = 0; x < p.w; ++x) {
          const int64_t py = p.pad[0][0] + y * p.lhs_dil[0], px = p.pad[1][0] + x * p.lhs_dil[1];
          if (py < 0 || px < 0 || py >= padded[0] || px >= padded[1]) continue;
          pl[static_cast<size_t>(((b * p.c + c) * padded[0] + py) * padded[1] + px)] = lhs[((b * p.c + c) * p.h + y) * p.w + x];
        }
      }
    }
  }
  int64_t windows[2];
  for (int s = 0; s < 2; ++s) {
    const int64_t dilated_window = (k_sp[s] - 1) * p.rhs_dil[s] + 1;
    windows[s] = dilated_window > padded[s] ? 0 : (padded[s] - dilated_window) / p.stride[s] + 1;
  }
  const int64_t out_n = p.n / p.batch_groups, cg = p.c / p.feature_groups;
  out_dims = {out_n, p.o, windows[0], windows[1]};
  std::vector<double> out(static_cast<size_t>(out_n * p.o * windows[0] * windows[1]), 0.0);
  const int64_t per_fg = p.o / p.feature_groups, per_bg = p.o / p.batch_groups;
  for (int64_t n = 0; n < out_n; ++n) {
    for (int64_t o = 0; o < p.o; ++o) {
      // The group this output feature comes from (split of rhs along its output features).
      const int64_t fg = o / per_fg, bg = o / per_bg;
      const int64_t lhs_batch = bg * out_n + n;
      for (int64_t oy = 0; oy < windows[0]; ++oy) {
        for (int64_t ox = 0; ox < windows[1]; ++ox) {
          // lhs_window: slice with window dilation; then reversed along the reversed dims.
          std::vector<double> window(static_cast<size_t>(cg * p.kh * p.kw));
          for (int64_t c = 0; c < cg; ++c) {
            for (int64_t ky = 0; ky < p.kh; ++ky) {
              for (int64_t kx = 0; kx < p.kw; ++kx) {
                const int64_t py = oy * p.stride[0] + ky * p.rhs_dil[0], px = ox * p.stride[1] + kx * p.rhs_dil[1];
                const int64_t wy = p.reverse[0] ? p.kh - 1 - ky : ky, wx = p.reverse[1] ? p.kw - 1 - kx : kx;
                window[static_cast<size_t>((c * p.kh + wy) * p.kw + wx)] =
                    pl[static_cast<size_t>(((lhs_batch * p.c + fg * cg + c) * padded[0] + py) * padded[1] + px)];
              }
            }
          }
          double sum = 0;
          for (int64_t c = 0; c < cg; ++c) {
            for (int64_t ky = 0; ky < p.kh; ++ky) {
              for (int64_t kx = 0; kx < p.kw; ++kx) {
                sum += window[static_cast<size_t>((c * p.kh + ky) * p.kw + kx)] * rhs[((o * cg + c) * p.kh + ky) * p.kw + kx];
              }
            }
          }
          out[static_cast<size_t>(((n * p.o + o) * windows[0] + oy) * windows[1] + ox)] = sum;
        }
      }
    }
  }
  return out;
}

// Permutes `data` of shape `dims` by `perm` (result dim i = input dim perm[i]).
std::vector<double> Transpose(const std::vector<double>& data, const std::vector<int64_t>& dims,
                              const std::vector<int64_t>& perm, std::vector<int64_t>& out_dims) {
  out_dims.clear();
  for (int64_t p : perm) out_dims.push_back(dims[p]);
  std::vector<int64_t> in_strides(dims.size(), 1);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 2; i >= 0; --i) in_strides[i] = in_strides[i + 1] * dims[i + 1];
  std::vector<double> out(data.size());
  std::vector<int64_t> idx(dims.size(), 0);
  for (size_t linear = 0; linear < data.size(); ++linear) {
    int64_t off = 0;
    for (size_t i = 0; i < perm.size(); ++i) off += idx[i] * in_strides[perm[i]];
    out[linear] = data[static_cast<size_t>(off)];
    for (int64_t i = static_cast<int64_t>(idx.size()) - 1; i >= 0; --i) {
      if (++idx[i] < out_dims[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

std::string Dims(const std::vector<int64_t>& dims) {
  std::string s;
  for (int64_t d : dims) s += fmt::format("{}x", d);
  return s;
}

void RunCase(const ConvCase& p, uint32_t seed) {
  const auto lhs = RandomInts(static_cast<size_t>(p.n * p.c * p.h * p.w), -5, 5, seed);
  const auto rhs = RandomInts(static_cast<size_t>(p.o * (p.c / p.feature_groups) * p.kh * p.kw), -5, 5, seed + 1);
  std::vector<int64_t> ref_dims;
  const auto expected = Reference(p, lhs, rhs, ref_dims);
  // The op sees lhs as NHWC, the kernel as HWIO and produces NHWC.
  std::vector<int64_t> lhs_dims, rhs_dims, out_dims;
  const auto lhs_nhwc = Transpose(lhs, {p.n, p.c, p.h, p.w}, {0, 2, 3, 1}, lhs_dims);
  const auto rhs_hwio = Transpose(rhs, {p.o, p.c / p.feature_groups, p.kh, p.kw}, {2, 3, 1, 0}, rhs_dims);
  const auto expected_nhwc = Transpose(expected, ref_dims, {0, 2, 3, 1}, out_dims);
  const std::string text = fmt::format(R"(
func.func @main(%lhs: tensor<{0}f32>, %rhs: tensor<{1}f32>) -> tensor<{2}f32> {{
  %0 = "stablehlo.convolution"(%lhs, %rhs) {{
    window_strides = dense<[{3}, {4}]> : tensor<2xi64>,
    padding = dense<[[{5}, {6}], [{7}, {8}]]> : tensor<2x2xi64>,
    lhs_dilation = dense<[{9}, {10}]> : tensor<2xi64>, rhs_dilation = dense<[{11}, {12}]> : tensor<2xi64>,
    window_reversal = dense<[{13}, {14}]> : tensor<2xi1>,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = {15} : i64, batch_group_count = {16} : i64
  }} : (tensor<{0}f32>, tensor<{1}f32>) -> tensor<{2}f32>
  func.return %0 : tensor<{2}f32>
}})",
                                       Dims(lhs_dims), Dims(rhs_dims), Dims(out_dims), p.stride[0], p.stride[1],
                                       p.pad[0][0], p.pad[0][1], p.pad[1][0], p.pad[1][1], p.lhs_dil[0], p.lhs_dil[1],
                                       p.rhs_dil[0], p.rhs_dil[1], p.reverse[0], p.reverse[1], p.feature_groups,
                                       p.batch_groups);
  auto out = RunMain(text, {InterpValue::Tensor(Make(ElementType::kF32, lhs_dims, lhs_nhwc)),
                            InterpValue::Tensor(Make(ElementType::kF32, rhs_dims, rhs_hwio))});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Doubles(out[0]), expected_nhwc);
}

TEST(Convolution, EveryAttributeAgainstSpecDecomposition) {
  RunCase({2, 4, 7, 6, 6, 3, 2, {2, 1}, {{1, 2}, {-1, 1}}, {1, 2}, {2, 1}, {true, false}, 2, 1}, 10);
  RunCase({4, 3, 5, 5, 4, 2, 3, {1, 2}, {{0, 0}, {2, 0}}, {2, 1}, {1, 2}, {false, true}, 1, 2}, 20);
  RunCase({1, 6, 6, 4, 3, 1, 1, {3, 1}, {{0, -2}, {0, 0}}, {1, 1}, {1, 1}, {false, false}, 3, 1}, 30);
  RunCase({2, 2, 4, 4, 2, 5, 5, {1, 1}, {{0, 0}, {0, 0}}, {1, 1}, {1, 1}, {true, true}, 1, 1}, 40);  // no windows
}

}  // namespace
}  // namespace vkhlo::interp::testing
