// The device-kernel plumbing (codegen/device_kernel.h) end to end on the device, with a kernel
// registered by the test: fusion makes the op a kernel of its own, the runtime binds inputs,
// outputs and scratch buffers, passes push words, and records several dispatches in order.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>

#include "codegen/device_kernel.h"
#include "codegen/fusion.h"
#include "frontend/parser.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

using codegen::DeviceKernel;
using codegen::KernelBuffer;
using codegen::KernelDispatch;

constexpr const char* kTarget = "vkhlo_test.reverse_plus";

bool IsTestCall(const ir::Operation& op) {
  const ir::Attribute* target = op.attribute("call_target_name");
  const std::string* name = target ? target->AsString() : nullptr;
  return name != nullptr && *name == kTarget && op.num_operands() == 1 && op.num_results() == 1 &&
         op.operand(0)->type().element_type() == ir::ElementType::kF32;
}

// out[i] = in[n-1-i] + push word 0 (as float): dispatch 1 reverses into a scratch buffer,
// dispatch 2 adds the constant into the output.
StatusOr<DeviceKernel> EmitReversePlus(const codegen::Fusion& fusion, const codegen::TargetInfo&,
                                       const codegen::KernelOptions&) {
  const ir::Value* in = fusion.inputs.at(0);
  const ir::Value* out = fusion.outputs.at(0);
  const uint32_t n = static_cast<uint32_t>(in->type().num_elements());
  DeviceKernel k;
  k.summary = "test: reverse, then add";
  k.scratch_bytes = {uint64_t{n} * 4};
  const uint32_t groups = (n + 63) / 64;

  KernelDispatch reverse;
  reverse.name = fusion.name + ".reverse";
  reverse.bindings = {KernelBuffer::Read(in), KernelBuffer::Scratch(0, true)};
  reverse.grid = {groups, 1, 1};
  reverse.glsl = codegen::DeviceKernelHeader(reverse.bindings, {64, 1, 1}) +
                 fmt::format("void main() {{\n  {}\n  uint i = vkhlo_workgroup_id(pc).x * 64u + gl_LocalInvocationID.x;\n"
                             "  if (i < {}u) b1[i] = b0[{}u - i];\n}}\n",
                             codegen::KeepBindingsStatement(2), n, n - 1);

  KernelDispatch add;
  add.name = fusion.name + ".add";
  add.bindings = {KernelBuffer::Scratch(0, false), KernelBuffer::Write(out)};
  add.grid = {groups, 1, 1};
  add.push_words = {0x3fc00000u};  // 1.5f
  add.glsl = codegen::DeviceKernelHeader(add.bindings, {64, 1, 1}, "uint addend; ") +
             fmt::format("void main() {{\n  {}\n  uint i = vkhlo_workgroup_id(pc).x * 64u + gl_LocalInvocationID.x;\n"
                         "  if (i < {}u) b1[i] = floatBitsToUint(uintBitsToFloat(b0[i]) + uintBitsToFloat(pc.addend));\n}}\n",
                         codegen::KeepBindingsStatement(2), n);
  k.dispatches = {reverse, add};
  return k;
}

class DeviceKernelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    codegen::RegisterDeviceKernelForTesting(ir::OpCode::kCustomCall, {&EmitReversePlus, &IsTestCall});
  }
};

constexpr const char* kProgram = R"(
func.func @main(%x: tensor<100xf32>) -> tensor<100xf32> {
  %n = stablehlo.negate %x : tensor<100xf32>
  %r = stablehlo.custom_call @vkhlo_test.reverse_plus(%n) : (tensor<100xf32>) -> tensor<100xf32>
  %m = stablehlo.multiply %r, %r : tensor<100xf32>
  func.return %m : tensor<100xf32>
}
)";

TEST_F(DeviceKernelTest, FusionMakesTheOpAKernelOfItsOwn) {
  auto module = frontend::ParseModule(kProgram);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const ir::Block& block = (*module)->FindFunction("main")->body().front();
  auto plan = codegen::PlanBlock(block, codegen::TargetInfo::Everything());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->fusions.size(), 3u);  // negate, the custom call, multiply
  EXPECT_EQ(plan->fusions[0].device_op, nullptr);
  ASSERT_NE(plan->fusions[1].device_op, nullptr);
  EXPECT_EQ(plan->fusions[1].device_op->code(), ir::OpCode::kCustomCall);
  EXPECT_EQ(plan->fusions[1].inputs.size(), 1u);
  EXPECT_EQ(plan->fusions[1].outputs.size(), 1u);
  EXPECT_EQ(plan->fusions[2].device_op, nullptr);
}

TEST_F(DeviceKernelTest, DispatchesRunInOrderWithScratchAndPushWords) {
  const Client& client = testing::SharedClient();
  auto exe = client.Compile(kProgram);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  std::vector<float> x(100);
  for (int i = 0; i < 100; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i) * 0.25f;
  auto buffer = client.BufferFromHost({"f32", {100}}, {reinterpret_cast<const uint8_t*>(x.data()), x.size() * 4});
  ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
  auto results = exe->Execute({*buffer});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  auto bytes = (*results)[0].ToHost();
  ASSERT_TRUE(bytes.ok());
  std::vector<float> y(100);
  std::memcpy(y.data(), bytes->data(), 400);
  for (int i = 0; i < 100; ++i) {
    const float r = -x[static_cast<size_t>(99 - i)] + 1.5f;
    EXPECT_EQ(y[static_cast<size_t>(i)], r * r) << "element " << i;
  }
  EXPECT_EQ(exe->last_stats().kernels_dispatched, 4u);  // negate, reverse, add, multiply
  EXPECT_EQ(exe->last_stats().host_evaluated_ops, 0u);
}

TEST_F(DeviceKernelTest, AnOpWithoutAKernelIsAClearError) {
  const Client& client = testing::SharedClient();
  auto exe = client.Compile(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = stablehlo.custom_call @some.other_target(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
)");
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find("some.other_target"), std::string::npos) << exe.status().ToString();
}

}  // namespace
}  // namespace vkhlo
