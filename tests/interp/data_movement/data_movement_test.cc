// Data-movement ops of the reference interpreter: edge cases the conformance programs do not
// reach (clamping, negative padding, empty tensors, splats, narrow and complex element types,
// stable sorting, scatter order and out-of-bounds updates, gather batching) and clean errors on
// bad attributes.
#include <gtest/gtest.h>

#include "run_program.h"

namespace vkhlo::interp::testing {
namespace {

// --- broadcast, reshape, transpose, reverse, concatenate, iota ---

TEST(BroadcastInDimTest, SpecExample) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<2x3x2xi32> {
  %0 = stablehlo.constant dense<[[1, 2, 3]]> : tensor<1x3xi32>
  %1 = "stablehlo.broadcast_in_dim"(%0) {broadcast_dimensions = array<i64: 2, 1>} : (tensor<1x3xi32>) -> tensor<2x3x2xi32>
  func.return %1 : tensor<2x3x2xi32>
})",
                     "dense<[[[1, 1], [2, 2], [3, 3]], [[1, 1], [2, 2], [3, 3]]]> : tensor<2x3x2xi32>"));
}

TEST(BroadcastInDimTest, SplatStaysSplatAndComplexWorks) {
  auto out = RunMain(R"(
func.func @main() -> (tensor<1000x1000xf32>, tensor<2x2xcomplex<f32>>) {
  %0 = stablehlo.constant dense<1.5> : tensor<f32>
  %1 = "stablehlo.broadcast_in_dim"(%0) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<1000x1000xf32>
  %2 = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
  %3 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0>} : (tensor<2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  func.return %1, %3 : tensor<1000x1000xf32>, tensor<2x2xcomplex<f32>>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE((*out)[0].literal().is_splat());
  EXPECT_EQ((*out)[0].literal().GetFloat(999999), 1.5);
  EXPECT_TRUE(
      ValueIs((*out)[1], "dense<[[(1.0, 2.0), (1.0, 2.0)], [(3.0, -4.0), (3.0, -4.0)]]> : tensor<2x2xcomplex<f32>>"));
}

TEST(BroadcastInDimTest, RejectsIncompatibleShapes) {
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<2x4xi32> {
  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1 = "stablehlo.broadcast_in_dim"(%0) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi32>) -> tensor<2x4xi32>
  func.return %1 : tensor<2x4xi32>
})",
                        "cannot broadcast"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<2x3xi32> {
  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1 = "stablehlo.broadcast_in_dim"(%0) {broadcast_dimensions = array<i64: 5>} : (tensor<3xi32>) -> tensor<2x3xi32>
  func.return %1 : tensor<2x3xi32>
})",
                        "outside"));
}

TEST(BroadcastTest, LegacyBroadcastPrependsSizes) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<2x3xi8> {
  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi8>
  %1 = "stablehlo.broadcast"(%0) {broadcast_sizes = array<i64: 2>} : (tensor<3xi8>) -> tensor<2x3xi8>
  func.return %1 : tensor<2x3xi8>
})",
                     "dense<[[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi8>"));
}

TEST(TransposeTest, ThreeDimensionsAndBadPermutation) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<2x3x2xi32> {
  %0 = stablehlo.constant dense<[[[1,2], [3,4], [5,6]], [[7,8], [9,10], [11,12]]]> : tensor<2x3x2xi32>
  %1 = "stablehlo.transpose"(%0) {permutation = array<i64: 2, 1, 0>} : (tensor<2x3x2xi32>) -> tensor<2x3x2xi32>
  func.return %1 : tensor<2x3x2xi32>
})",
                     "dense<[[[1,7], [3,9], [5,11]], [[2,8], [4,10], [6,12]]]> : tensor<2x3x2xi32>"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<2x2xi32> {
  %0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %1 = "stablehlo.transpose"(%0) {permutation = array<i64: 0, 0>} : (tensor<2x2xi32>) -> tensor<2x2xi32>
  func.return %1 : tensor<2x2xi32>
})",
                        "repeats"));
}

TEST(ReverseTest, ReversesBoolsAndHandlesEmpty) {
  auto out = RunMain(R"(
func.func @main() -> (tensor<2x3xi1>, tensor<0x3xf32>) {
  %0 = stablehlo.constant dense<[[true, false, false], [false, true, true]]> : tensor<2x3xi1>
  %1 = "stablehlo.reverse"(%0) {dimensions = array<i64: 0, 1>} : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %2 = stablehlo.constant dense<> : tensor<0x3xf32>
  %3 = "stablehlo.reverse"(%2) {dimensions = array<i64: 0>} : (tensor<0x3xf32>) -> tensor<0x3xf32>
  func.return %1, %3 : tensor<2x3xi1>, tensor<0x3xf32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[[true, true, false], [false, false, true]]> : tensor<2x3xi1>"));
  EXPECT_EQ((*out)[1].literal().num_elements(), 0);
}

TEST(ReshapeTest, KeepsRowMajorOrderAndChecksCount) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<3x2xf16> {
  %0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf16>
  %1 = "stablehlo.reshape"(%0) : (tensor<2x3xf16>) -> tensor<3x2xf16>
  func.return %1 : tensor<3x2xf16>
})",
                     "dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf16>"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<4xf16> {
  %0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf16>
  %1 = "stablehlo.reshape"(%0) : (tensor<3xf16>) -> tensor<4xf16>
  func.return %1 : tensor<4xf16>
})",
                        "cannot reshape"));
}

TEST(ConcatenateTest, MiddleDimensionWithEmptyInput) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<2x3xui16> {
  %0 = stablehlo.constant dense<[[1], [2]]> : tensor<2x1xui16>
  %1 = stablehlo.constant dense<> : tensor<2x0xui16>
  %2 = stablehlo.constant dense<[[3, 4], [5, 6]]> : tensor<2x2xui16>
  %3 = "stablehlo.concatenate"(%0, %1, %2) {dimension = 1 : i64} : (tensor<2x1xui16>, tensor<2x0xui16>, tensor<2x2xui16>) -> tensor<2x3xui16>
  func.return %3 : tensor<2x3xui16>
})",
                     "dense<[[1, 3, 4], [2, 5, 6]]> : tensor<2x3xui16>"));
}

TEST(IotaTest, NarrowFloatsWrapIntegersAndComplex) {
  auto out = RunMain(R"(
func.func @main() -> (tensor<2x3xf8E4M3FN>, tensor<300xui8>, tensor<3xcomplex<f64>>) {
  %0 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xf8E4M3FN>
  %1 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<300xui8>
  %2 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3xcomplex<f64>>
  func.return %0, %1, %2 : tensor<2x3xf8E4M3FN>, tensor<300xui8>, tensor<3xcomplex<f64>>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]> : tensor<2x3xf8E4M3FN>"));
  EXPECT_EQ((*out)[1].literal().GetInt(299), 299 % 256);
  EXPECT_TRUE(ValueIs((*out)[2], "dense<[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]> : tensor<3xcomplex<f64>>"));
}

TEST(GetDimensionSizeTest, ReturnsSizeAndRejectsBadDimension) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<i32> {
  %0 = stablehlo.constant dense<0.0> : tensor<2x7xf32>
  %1 = "stablehlo.get_dimension_size"(%0) {dimension = 1 : i64} : (tensor<2x7xf32>) -> tensor<i32>
  func.return %1 : tensor<i32>
})",
                     "dense<7> : tensor<i32>"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<i32> {
  %0 = stablehlo.constant dense<0.0> : tensor<2x7xf32>
  %1 = "stablehlo.get_dimension_size"(%0) {dimension = 2 : i64} : (tensor<2x7xf32>) -> tensor<i32>
  func.return %1 : tensor<i32>
})",
                        "outside"));
}

// --- slice, dynamic_slice, dynamic_update_slice, pad ---

TEST(SliceTest, StridesAndBounds) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<2x2xi64> {
  %0 = stablehlo.constant dense<[[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]]> : tensor<3x5xi64>
  %1 = "stablehlo.slice"(%0) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 3, 5>, strides = array<i64: 2, 3>} : (tensor<3x5xi64>) -> tensor<2x2xi64>
  func.return %1 : tensor<2x2xi64>
})",
                     "dense<[[1, 4], [11, 14]]> : tensor<2x2xi64>"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<2xi64> {
  %0 = stablehlo.constant dense<[0, 1, 2]> : tensor<3xi64>
  %1 = "stablehlo.slice"(%0) {start_indices = array<i64: 2>, limit_indices = array<i64: 4>, strides = array<i64: 1>} : (tensor<3xi64>) -> tensor<2xi64>
  func.return %1 : tensor<2xi64>
})",
                        "limit"));
}

TEST(DynamicSliceTest, StartIndicesAreClamped) {
  // Spec example: (-1, 3) clamps to (0, 2). Unsigned huge and signed negative indices clamp too.
  auto out = RunMain(R"(
func.func @main() -> (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %operand = stablehlo.constant dense<[[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]]> : tensor<4x4xi32>
  %a = stablehlo.constant dense<-1> : tensor<i64>
  %b = stablehlo.constant dense<3> : tensor<i64>
  %0 = "stablehlo.dynamic_slice"(%operand, %a, %b) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>
  %v = stablehlo.constant dense<[10, 11, 12, 13]> : tensor<4xi32>
  %big = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
  %1 = "stablehlo.dynamic_slice"(%v, %big) {slice_sizes = array<i64: 2>} : (tensor<4xi32>, tensor<ui64>) -> tensor<2xi32>
  %neg = stablehlo.constant dense<-128> : tensor<i8>
  %2 = "stablehlo.dynamic_slice"(%v, %neg) {slice_sizes = array<i64: 2>} : (tensor<4xi32>, tensor<i8>) -> tensor<2xi32>
  func.return %0, %1, %2 : tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[[1, 1], [1, 1]]> : tensor<2x2xi32>"));
  EXPECT_TRUE(ValueIs((*out)[1], "dense<[12, 13]> : tensor<2xi32>"));
  EXPECT_TRUE(ValueIs((*out)[2], "dense<[10, 11]> : tensor<2xi32>"));
}

TEST(DynamicSliceTest, RejectsOversizedSlice) {
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<5xi32> {
  %v = stablehlo.constant dense<[10, 11, 12, 13]> : tensor<4xi32>
  %i = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.dynamic_slice"(%v, %i) {slice_sizes = array<i64: 5>} : (tensor<4xi32>, tensor<i32>) -> tensor<5xi32>
  func.return %0 : tensor<5xi32>
})",
                        "slice_sizes"));
}

TEST(DynamicUpdateSliceTest, StartIndicesAreClampedAndOperandKept) {
  auto out = RunMain(R"(
func.func @main() -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %operand = stablehlo.constant dense<[[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1]]> : tensor<4x4xi32>
  %update = stablehlo.constant dense<[[7, 8], [9, 10]]> : tensor<2x2xi32>
  %a = stablehlo.constant dense<-1> : tensor<i64>
  %b = stablehlo.constant dense<3> : tensor<i64>
  %0 = "stablehlo.dynamic_update_slice"(%operand, %update, %a, %b) : (tensor<4x4xi32>, tensor<2x2xi32>, tensor<i64>, tensor<i64>) -> tensor<4x4xi32>
  func.return %0, %operand : tensor<4x4xi32>, tensor<4x4xi32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[[1, 1, 7, 8], [1, 1, 9, 10], [1, 1, 1, 1], [1, 1, 1, 1]]> : tensor<4x4xi32>"));
  EXPECT_TRUE(ValueIs((*out)[1], "dense<[[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1]]> : tensor<4x4xi32>"));
}

TEST(PadTest, SpecExample) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<5x9xi32> {
  %0 = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %p = stablehlo.constant dense<0> : tensor<i32>
  %1 = "stablehlo.pad"(%0, %p) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 2, 1>, interior_padding = array<i64: 1, 2>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<5x9xi32>
  func.return %1 : tensor<5x9xi32>
})",
                     "dense<[[0, 1, 0, 0, 2, 0, 0, 3, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 4, 0, 0, 5, 0, 0, 6, 0], "
                     "[0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0]]> : tensor<5x9xi32>"));
}

TEST(PadTest, NegativeEdgesCutIntoInteriorPadding) {
  // [1, 2, 3] interior 2 -> [1 p p 2 p p 3] (7); low -2 and high -1 keep [p 2 p p].
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<4xf32> {
  %0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %p = stablehlo.constant dense<-0.5> : tensor<f32>
  %1 = "stablehlo.pad"(%0, %p) {edge_padding_low = array<i64: -2>, edge_padding_high = array<i64: -1>, interior_padding = array<i64: 2>} : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
})",
                     "dense<[-0.5, 2.0, -0.5, -0.5]> : tensor<4xf32>"));
  // Everything cut away, and padding of an empty operand.
  auto out = RunMain(R"(
func.func @main() -> (tensor<0xi32>, tensor<3xi32>) {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %p = stablehlo.constant dense<9> : tensor<i32>
  %1 = "stablehlo.pad"(%0, %p) {edge_padding_low = array<i64: -1>, edge_padding_high = array<i64: -1>, interior_padding = array<i64: 0>} : (tensor<2xi32>, tensor<i32>) -> tensor<0xi32>
  %e = stablehlo.constant dense<> : tensor<0xi32>
  %2 = "stablehlo.pad"(%e, %p) {edge_padding_low = array<i64: 1>, edge_padding_high = array<i64: 2>, interior_padding = array<i64: 5>} : (tensor<0xi32>, tensor<i32>) -> tensor<3xi32>
  func.return %1, %2 : tensor<0xi32>, tensor<3xi32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].literal().num_elements(), 0);
  EXPECT_TRUE(ValueIs((*out)[1], "dense<[9, 9, 9]> : tensor<3xi32>"));
}

TEST(PadTest, RejectsNegativeInteriorAndNegativeSizes) {
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<3xi32> {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %p = stablehlo.constant dense<9> : tensor<i32>
  %1 = "stablehlo.pad"(%0, %p) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 2>, interior_padding = array<i64: -1>} : (tensor<2xi32>, tensor<i32>) -> tensor<3xi32>
  func.return %1 : tensor<3xi32>
})",
                        "interior_padding"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<0xi32> {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %p = stablehlo.constant dense<9> : tensor<i32>
  %1 = "stablehlo.pad"(%0, %p) {edge_padding_low = array<i64: -2>, edge_padding_high = array<i64: -1>, interior_padding = array<i64: 0>} : (tensor<2xi32>, tensor<i32>) -> tensor<0xi32>
  func.return %1 : tensor<0xi32>
})",
                        "negative"));
}

TEST(DynamicShapeOpsTest, ShapesFromOperandsMustMatchTheDeclaredType) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<2xi32> {
  %v = stablehlo.constant dense<[10, 11, 12, 13, 14]> : tensor<5xi32>
  %start = stablehlo.constant dense<[1]> : tensor<1xi64>
  %limit = stablehlo.constant dense<[5]> : tensor<1xi64>
  %strides = stablehlo.constant dense<[3]> : tensor<1xi64>
  %0 = "stablehlo.real_dynamic_slice"(%v, %start, %limit, %strides) : (tensor<5xi32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
})",
                     "dense<[11, 14]> : tensor<2xi32>"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<3x2xi32> {
  %v = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %0 = "stablehlo.dynamic_reshape"(%v, %shape) : (tensor<6xi32>, tensor<2xi64>) -> tensor<3x2xi32>
  func.return %0 : tensor<3x2xi32>
})",
                        "declared"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<2xi32> {
  %v = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %shape = stablehlo.constant dense<[-2]> : tensor<1xi64>
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%v, %shape) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<1xi64>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
})",
                        "negative"));
}

// --- gather ---

TEST(GatherTest, SpecExampleWithClampedStart) {
  // [0, 9] maps to operand (dim 0 = 9, dim 1 = 0); dim 0 clamps to 3 - 1 = 2.
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<2x3x2x2xi32> {
  %operand = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]], [[17, 18], [19, 20], [21, 22], [23, 24]]]> : tensor<3x4x2xi32>
  %start = stablehlo.constant dense<[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]]> : tensor<2x3x2xi64>
  %0 = "stablehlo.gather"(%operand, %start) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false
  } : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
})",
                     "dense<[[[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]], "
                     "[[[9, 10], [11, 12]], [[11, 12], [13, 14]], [[17, 18], [19, 20]]]]> : tensor<2x3x2x2xi32>"));
}

TEST(GatherTest, BatchingDimsAndImplicitIndexVector) {
  // operand [batch=2, 4]; indices [batch=2, 3] with index_vector_dim = 2 (implicit, one
  // component): result[b, i] = operand[b, clamp(indices[b, i])].
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<2x3xf64> {
  %operand = stablehlo.constant dense<[[0.0, 1.0, 2.0, 3.0], [10.0, 11.0, 12.0, 13.0]]> : tensor<2x4xf64>
  %idx = stablehlo.constant dense<[[3, 0, -5], [1, 7, 2]]> : tensor<2x3xi32>
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1>
  } : (tensor<2x4xf64>, tensor<2x3xi32>) -> tensor<2x3xf64>
  func.return %0 : tensor<2x3xf64>
})",
                     "dense<[[3.0, 0.0, 0.0], [11.0, 13.0, 12.0]]> : tensor<2x3xf64>"));
}

TEST(GatherTest, EmptyIndicesAndBadNumbers) {
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<0x2xi32> {
  %operand = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %idx = stablehlo.constant dense<> : tensor<0x1xi32>
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>
  } : (tensor<2x2xi32>, tensor<0x1xi32>) -> tensor<0x2xi32>
  func.return %0 : tensor<0x2xi32>
})",
                     "dense<> : tensor<0x2xi32>"));
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<1x2xi32> {
  %operand = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %idx = stablehlo.constant dense<[[0]]> : tensor<1x1xi32>
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [7], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>
  } : (tensor<2x2xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>
  func.return %0 : tensor<1x2xi32>
})",
                        "start_index_map"));
}

// --- scatter ---

constexpr const char* kScatterProgram = R"(
func.func @main() -> tensor<5xi32> {
  %input = stablehlo.constant dense<[0, 10, 20, 30, 40]> : tensor<5xi32>
  %idx = stablehlo.constant dense<[[1], [7], [1], [-1], [4], [1]]> : tensor<6x1xi32>
  %upd = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = REGION
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5xi32>, tensor<6x1xi32>, tensor<6xi32>) -> tensor<5xi32>
  func.return %0 : tensor<5xi32>
})";

std::string ScatterWith(const std::string& region) {
  std::string program = kScatterProgram;
  program.replace(program.find("REGION"), 6, region);
  return program;
}

TEST(ScatterTest, RepeatedIndicesCombineInOrderAndOutOfBoundsAreSkipped) {
  // Index 1 gets 1, 3, 6 in that order; 7 and -1 are out of bounds.
  EXPECT_TRUE(RunsTo(ScatterWith("stablehlo.add %a, %b : tensor<i32>"), "dense<[0, 20, 20, 30, 45]> : tensor<5xi32>"));
  // A non-commutative update shows the order: ((10 - 1) - 3) - 6 = 0.
  EXPECT_TRUE(
      RunsTo(ScatterWith("stablehlo.subtract %a, %b : tensor<i32>"), "dense<[0, 0, 20, 30, 35]> : tensor<5xi32>"));
}

TEST(ScatterTest, PartlyOutOfBoundsWindowUpdatesOnlyInBoundsElements) {
  // Window of 2 starting at 3 in a 4-element input: element 3 is updated, element 4 is not.
  EXPECT_TRUE(RunsTo(R"(
func.func @main() -> tensor<4xi32> {
  %input = stablehlo.constant dense<[0, 0, 0, 0]> : tensor<4xi32>
  %idx = stablehlo.constant dense<[3]> : tensor<1xi32>
  %upd = stablehlo.constant dense<[5, 6]> : tensor<2xi32>
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>} : (tensor<4xi32>, tensor<1xi32>, tensor<2xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
})",
                     "dense<[0, 0, 0, 5]> : tensor<4xi32>"));
}

TEST(ScatterTest, VariadicWithBatchingDims) {
  // Two inputs updated together; the region keeps the pair with the larger first value. Batch
  // dimension 0 of the inputs follows batch dimension 0 of the indices.
  auto out = RunMain(R"(
func.func @main() -> (tensor<2x3xi32>, tensor<2x3xf32>) {
  %in0 = stablehlo.constant dense<[[0, 0, 0], [0, 0, 0]]> : tensor<2x3xi32>
  %in1 = stablehlo.constant dense<[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %idx = stablehlo.constant dense<[[2, 2], [0, 1]]> : tensor<2x2xi64>
  %u0 = stablehlo.constant dense<[[5, 7], [1, 2]]> : tensor<2x2xi32>
  %u1 = stablehlo.constant dense<[[0.5, 0.7], [0.1, 0.2]]> : tensor<2x2xf32>
  %0:2 = "stablehlo.scatter"(%in0, %in1, %idx, %u0, %u1) ({
  ^bb0(%a0: tensor<i32>, %a1: tensor<f32>, %b0: tensor<i32>, %b1: tensor<f32>):
    %gt = stablehlo.compare GT, %b0, %a0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %r0 = stablehlo.select %gt, %b0, %a0 : tensor<i1>, tensor<i32>
    %r1 = stablehlo.select %gt, %b1, %a1 : tensor<i1>, tensor<f32>
    stablehlo.return %r0, %r1 : tensor<i32>, tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xi32>, tensor<2x2xf32>) -> (tensor<2x3xi32>, tensor<2x3xf32>)
  func.return %0#0, %0#1 : tensor<2x3xi32>, tensor<2x3xf32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[[0, 0, 7], [1, 2, 0]]> : tensor<2x3xi32>"));
  EXPECT_TRUE(ValueIs((*out)[1], "dense<[[0.0, 0.0, 0.7], [0.1, 0.2, 0.0]]> : tensor<2x3xf32>"));
}

TEST(ScatterTest, RejectsUpdatesOfTheWrongShape) {
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<4xi32> {
  %input = stablehlo.constant dense<[0, 0, 0, 0]> : tensor<4xi32>
  %idx = stablehlo.constant dense<[3]> : tensor<1xi32>
  %upd = stablehlo.constant dense<[5, 6, 7, 8, 9]> : tensor<5xi32>
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>} : (tensor<4xi32>, tensor<1xi32>, tensor<5xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
})",
                        "does not fit"));
}

// --- sort ---

TEST(SortTest, StableWithEqualKeysCarriesPayload) {
  auto out = RunMain(R"(
func.func @main() -> (tensor<8xi32>, tensor<8xi32>) {
  %keys = stablehlo.constant dense<[3, 1, 3, 2, 1, 3, 2, 1]> : tensor<8xi32>
  %vals = stablehlo.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
  %0:2 = "stablehlo.sort"(%keys, %vals) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<8xi32>, tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)
  func.return %0#0, %0#1 : tensor<8xi32>, tensor<8xi32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[1, 1, 1, 2, 2, 3, 3, 3]> : tensor<8xi32>"));
  EXPECT_TRUE(ValueIs((*out)[1], "dense<[1, 4, 7, 3, 6, 0, 2, 5]> : tensor<8xi32>"));
}

TEST(SortTest, NegativeDimensionDescendingAndEmpty) {
  auto out = RunMain(R"(
func.func @main() -> (tensor<2x3xf32>, tensor<0x3xf32>) {
  %x = stablehlo.constant dense<[[1.0, 3.0, 2.0], [-1.0, -3.0, -2.0]]> : tensor<2x3xf32>
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = stablehlo.constant dense<> : tensor<0x3xf32>
  %1 = "stablehlo.sort"(%e) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<0x3xf32>) -> tensor<0x3xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<0x3xf32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValueIs((*out)[0], "dense<[[3.0, 2.0, 1.0], [-1.0, -2.0, -3.0]]> : tensor<2x3xf32>"));
  EXPECT_EQ((*out)[1].literal().num_elements(), 0);
}

TEST(SortTest, InconsistentComparatorStaysInBounds) {
  // "always true" is no strict weak order; the merge sort must still return a permutation.
  auto out = RunMain(R"(
func.func @main() -> tensor<5xi32> {
  %x = stablehlo.constant dense<[5, 4, 3, 2, 1]> : tensor<5xi32>
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<5xi32>) -> tensor<5xi32>
  func.return %0 : tensor<5xi32>
})");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  int64_t sum = 0;
  for (int64_t i = 0; i < 5; ++i) sum += (*out)[0].literal().GetInt(i);
  EXPECT_EQ(sum, 15);
}

TEST(SortTest, ComparatorMustReturnABoolean) {
  EXPECT_TRUE(FailsWith(R"(
func.func @main() -> tensor<2xi32> {
  %x = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) {dimension = 0 : i64} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
})",
                        "comparator"));
}

}  // namespace
}  // namespace vkhlo::interp::testing
