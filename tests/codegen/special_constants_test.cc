// Float constants that are zeros, infinities or NaNs keep IEEE semantics in fused kernels:
// `x * 0.0` is NaN for an infinite x and -0 for a negative one, `0.0 - x` is +0 for x = +0,
// `x + 0.0` is +0 for x = -0, a reduction's 0.0 init adds like any element. lavapipe folds such
// identities when the constant is a literal in the kernel (even in `precise` code of a module
// declaring SignedZeroInfNanPreserve), and without float controls (the mobile run) every driver
// may; codegen hides those constants from the driver's compiler (constants.cc, kOpaqueZero).
// Bit for bit against the interpreter, signed zeros included (NaNs match any NaN).
#include <gtest/gtest.h>

#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

TEST(SpecialConstants, KeepIeeeSemanticsInFusedKernels) {
  const std::string text = R"(
func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
                                       tensor<f32>, tensor<8xi1>, tensor<8xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<8xf32>
  %nzero = stablehlo.constant dense<-0.0> : tensor<8xf32>
  %inf = stablehlo.constant dense<0x7F800000> : tensor<8xf32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<8xf32>
  %0 = stablehlo.multiply %x, %zero : tensor<8xf32>
  %1 = stablehlo.subtract %zero, %x : tensor<8xf32>
  %2 = stablehlo.add %x, %zero : tensor<8xf32>
  %3 = stablehlo.multiply %inf, %x : tensor<8xf32>
  %4 = stablehlo.add %x, %nzero : tensor<8xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %5 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %6 = stablehlo.compare EQ, %x, %nan, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %7 = stablehlo.divide %zero, %x : tensor<8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
                                         tensor<f32>, tensor<8xi1>, tensor<8xf32>
}
)";
  const std::vector<std::vector<uint32_t>> inputs = {
      {0x00000000u, 0x80000000u, 0x3F800000u, 0xBF800000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x00000001u},
      std::vector<uint32_t>(8, 0x80000000u)};  // all -0: the reduction's +0 init decides the sign
  for (const std::vector<uint32_t>& bits : inputs) {
    auto x = ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kF32, {8}));
    ASSERT_TRUE(x.ok()) << x.status().ToString();
    for (int64_t i = 0; i < 8; ++i) x->SetBits(i, bits[static_cast<size_t>(i)]);
    auto both = testing::RunOnBoth(text, {*x});
    ASSERT_TRUE(both.ok()) << both.status().ToString();
    for (size_t k = 0; k < both->vulkan.size(); ++k) {
      std::string why;
      EXPECT_TRUE(testing::SameBits(both->vulkan[k], both->reference[k], &why)) << "result " << k << ": " << why;
    }
  }
}

}  // namespace
}  // namespace vkhlo
