// Fusion decisions and kernel emission, without a device: which ops share a kernel, which
// values get buffers, what a target without a feature says.
#include "codegen/fusion.h"

#include <gtest/gtest.h>

#include "codegen/glsl_compiler.h"
#include "codegen/kernel.h"
#include "frontend/parser.h"
#include "verify/verifier.h"

namespace vkhlo::codegen {
namespace {

std::unique_ptr<ir::Module> Parse(const std::string& text) {
  auto module = frontend::ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return nullptr;
  Status verified = verify::VerifyModule(**module);
  EXPECT_TRUE(verified.ok()) << verified.ToString();
  return std::move(*module);
}

const ir::Block& Body(const ir::Module& module) { return module.functions().front()->body().front(); }

std::vector<std::string> OutputNames(const Fusion& f) {
  std::vector<std::string> names;
  for (const ir::Value* v : f.outputs) names.push_back(v->name_hint());
  return names;
}

TEST(Fusion, ChainOfElementwiseOpsIsOneKernel) {
  auto module = Parse(R"(
func.func @main(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %0 = stablehlo.add %x, %y : tensor<16xf32>
  %1 = stablehlo.multiply %0, %x : tensor<16xf32>
  %2 = stablehlo.negate %1 : tensor<16xf32>
  %3 = stablehlo.abs %2 : tensor<16xf32>
  %4 = stablehlo.maximum %3, %y : tensor<16xf32>
  %5 = stablehlo.subtract %4, %0 : tensor<16xf32>
  %6 = stablehlo.minimum %5, %1 : tensor<16xf32>
  %7 = stablehlo.add %6, %6 : tensor<16xf32>
  return %7 : tensor<16xf32>
})");
  auto plan = PlanBlock(Body(*module), TargetInfo::Everything());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->fusions.size(), 1u);
  EXPECT_EQ(plan->fusions[0].ops.size(), 8u);
  EXPECT_EQ(plan->fusions[0].inputs.size(), 2u);
  EXPECT_EQ(OutputNames(plan->fusions[0]), std::vector<std::string>{"7"});
  // Unfused: one kernel per op.
  FusionOptions unfused;
  unfused.fuse = false;
  auto each = PlanBlock(Body(*module), TargetInfo::Everything(), unfused);
  ASSERT_TRUE(each.ok());
  EXPECT_EQ(each->fusions.size(), 8u);
}

TEST(Fusion, ExpensiveSharedProducerGetsABufferCheapOneIsRecomputed) {
  auto module = Parse(R"(
func.func @main(%x: tensor<8xf32>, %s: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = stablehlo.exponential %x : tensor<8xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %0 = stablehlo.add %e, %b : tensor<8xf32>
  %1 = stablehlo.multiply %e, %b : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
})");
  auto plan = PlanBlock(Body(*module), TargetInfo::Everything());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  // exp (cost 16, read twice) is materialized; the broadcast (cost 0) is recomputed; the two
  // consumers share inputs and become one two-output kernel.
  ASSERT_EQ(plan->fusions.size(), 2u);
  EXPECT_EQ(OutputNames(plan->fusions[0]), std::vector<std::string>{"e"});
  EXPECT_EQ(OutputNames(plan->fusions[1]), (std::vector<std::string>{"0", "1"}));
}

TEST(Fusion, BroadcastingConsumerDoesNotRecomputeAnExpensiveProducer) {
  auto module = Parse(R"(
func.func @main(%x: tensor<8xf32>) -> tensor<8x100xf32> {
  %e = stablehlo.exponential %x : tensor<8xf32>
  %b = stablehlo.broadcast_in_dim %e, dims = [0] : (tensor<8xf32>) -> tensor<8x100xf32>
  return %b : tensor<8x100xf32>
})");
  auto plan = PlanBlock(Body(*module), TargetInfo::Everything());
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->fusions.size(), 2u);  // exp once per element, then the broadcast
}

TEST(Fusion, ControlFlowOperandsAndBigConstantsGetBuffers) {
  auto module = Parse(R"(
func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c = stablehlo.constant dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70]> : tensor<70xi32>
  %s = stablehlo.slice %c [0:4] : (tensor<70xi32>) -> tensor<4xi32>
  %a = stablehlo.add %x, %s : tensor<4xi32>
  %r = stablehlo.while(%i = %a) : tensor<4xi32>
  cond {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %f = stablehlo.slice %i [0:1] : (tensor<4xi32>) -> tensor<1xi32>
    %g = stablehlo.reshape %f : (tensor<1xi32>) -> tensor<i32>
    %p = stablehlo.compare LT, %g, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    stablehlo.return %i : tensor<4xi32>
  }
  return %r : tensor<4xi32>
})");
  auto plan = PlanBlock(Body(*module), TargetInfo::Everything());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->buffer_constants.size(), 1u);  // 280 bytes: uploaded once
  ASSERT_EQ(plan->fusions.size(), 1u);
  EXPECT_EQ(OutputNames(plan->fusions[0]), std::vector<std::string>{"a"});  // the while's operand
  ASSERT_EQ(plan->steps.size(), 3u);  // fusion, while, return
  EXPECT_EQ(plan->steps[1].op->code(), ir::OpCode::kWhile);
}

TEST(Kernel, MissingFeatureIsACompileErrorNamingOpTypeAndFeature) {
  auto module = Parse(R"(
func.func @main(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = stablehlo.add %x, %x : tensor<4xf64>
  return %0 : tensor<4xf64>
})");
  TargetInfo phone;
  phone.device_name = "a phone";
  phone.profile = "mobile";
  auto plan = PlanBlock(Body(*module), phone);
  ASSERT_TRUE(plan.ok());
  auto kernel = EmitLoopKernel(plan->fusions[0], phone, {.source_name = "f.mlir"});
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(kernel.status().message(),
            "f.mlir:3:3: error: 'stablehlo.add' on tensor<4xf64> needs shaderFloat64, which a phone lacks (profile mobile)");
}

TEST(Kernel, DataMovementOfWideTypesNeedsNoFeature) {
  auto module = Parse(R"(
func.func @main(%x: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
})");
  TargetInfo phone;
  auto plan = PlanBlock(Body(*module), phone);
  ASSERT_TRUE(plan.ok());
  auto kernel = EmitLoopKernel(plan->fusions[0], phone, {});
  ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
  EXPECT_EQ(kernel->glsl.find("double"), std::string::npos);
  GlslCompiler compiler("");
  EXPECT_TRUE(compiler.Compile(kernel->glsl).ok());
}

TEST(Kernel, PackedOutputsGiveWholeWordsPerInvocation) {
  auto module = Parse(R"(
func.func @main(%x: tensor<10xi8>, %y: tensor<10xi16>) -> (tensor<10xi8>, tensor<10xi16>) {
  %0 = stablehlo.add %x, %x : tensor<10xi8>
  %1 = stablehlo.convert %0 : (tensor<10xi8>) -> tensor<10xi16>
  %2 = stablehlo.add %1, %y : tensor<10xi16>
  return %0, %2 : tensor<10xi8>, tensor<10xi16>
})");
  const TargetInfo target = TargetInfo::Everything();
  auto plan = PlanBlock(Body(*module), target);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->fusions.size(), 1u);
  auto kernel = EmitLoopKernel(plan->fusions[0], target, {});
  ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
  EXPECT_EQ(kernel->config.elements_per_invocation, 4u);  // an 8-bit output: 4 to a word
  EXPECT_EQ(kernel->workgroups, 1u);
  GlslCompiler compiler("");
  auto spirv = compiler.Compile(kernel->glsl);
  EXPECT_TRUE(spirv.ok()) << spirv.status().ToString();
}

TEST(Kernel, LoopConfigFollowsTheDevice) {
  TargetInfo small;
  small.max_workgroup_invocations = 128;
  small.max_workgroup_size = {128, 128, 64};
  small.subgroup_size = 32;
  EXPECT_EQ(ChooseLoopConfig(small, 1).workgroup_size, 128u);
  TargetInfo odd = TargetInfo::Everything();
  odd.subgroup_size = 48;
  EXPECT_EQ(ChooseLoopConfig(odd, 1).workgroup_size, 240u);  // a multiple of the subgroup
  EXPECT_EQ(ChooseLoopConfig(TargetInfo::Everything(), 2).elements_per_invocation, 2u);
  EXPECT_EQ(ChooseLoopConfig(TargetInfo::Everything(), 1, true).elements_per_invocation, kVectorWidth);
}

// Inputs read at the output's own index are loaded as uvec4; a broadcast, a transposed and a
// 16-bit input are read element by element.
// A scalar root (a loop counter's step) joins a loop kernel of another index space that reads a
// value of its block, written by the kernel's first invocation; a kernel of arguments alone (it
// may be loop-invariant, run once per loop) takes none.
TEST(Fusion, ScalarRootsJoinALoopKernelOfTheirBlock) {
  auto module = Parse(R"(
func.func @main(%x: tensor<8x4xf32>, %y: tensor<4x8xf32>, %v: tensor<64xf32>, %i: tensor<i32>, %q: tensor<i64>) -> (tensor<8x8xf32>, tensor<64xf32>, tensor<i32>, tensor<i64>, tensor<8x8xf32>) {
  %d = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = stablehlo.exponential %t : tensor<8x8xf32>
  %a = stablehlo.abs %v : tensor<64xf32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.add %i, %one : tensor<i32>
  %w = stablehlo.convert %n : (tensor<i32>) -> tensor<i64>
  %m = stablehlo.multiply %q, %w : tensor<i64>
  return %e, %a, %n, %m, %d : tensor<8x8xf32>, tensor<64xf32>, tensor<i32>, tensor<i64>, tensor<8x8xf32>
})");
  const TargetInfo target = TargetInfo::Everything();
  auto plan = PlanBlock(Body(*module), target);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  // The product (returned too, so it does not store its transpose itself), the transposed exp
  // with both scalars, abs alone.
  ASSERT_EQ(plan->fusions.size(), 3u);
  const Fusion* host = nullptr;
  for (const Fusion& f : plan->fusions) {
    if (f.device_op == nullptr && f.dims == std::vector<int64_t>{8, 8}) host = &f;
    if (f.device_op == nullptr && f.dims == std::vector<int64_t>{64}) EXPECT_EQ(OutputNames(f), std::vector<std::string>{"a"});
  }
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(OutputNames(*host), (std::vector<std::string>{"e", "n", "m"}));
  auto kernel = EmitLoopKernel(*host, target, {});
  ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
  EXPECT_NE(kernel->glsl.find("if (invocation == 0u)"), std::string::npos) << kernel->glsl;
  EXPECT_EQ(kernel->vector_inputs, 0) << "a transposed read, and never the scalars' inputs";
  GlslCompiler compiler("");
  auto spirv = compiler.Compile(kernel->glsl);
  EXPECT_TRUE(spirv.ok()) << spirv.status().ToString() << kernel->glsl;
  // Unfused, each scalar op is a kernel of its own.
  FusionOptions unfused;
  unfused.fuse = false;
  auto each = PlanBlock(Body(*module), target, unfused);
  ASSERT_TRUE(each.ok());
  EXPECT_GT(each->fusions.size(), 5u);
}

TEST(Kernel, VectorizesContiguousInputsOnly) {
  auto module = Parse(R"(
func.func @main(%x: tensor<4x6xf32>, %y: tensor<24xf32>, %s: tensor<f32>, %t: tensor<6x4xf32>, %h: tensor<4x6xf16>) -> tensor<4x6xf32> {
  %r = stablehlo.reshape %y : (tensor<24xf32>) -> tensor<4x6xf32>
  %0 = stablehlo.multiply %x, %r : tensor<4x6xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
  %1 = stablehlo.add %0, %b : tensor<4x6xf32>
  %tt = stablehlo.transpose %t, dims = [1, 0] : (tensor<6x4xf32>) -> tensor<4x6xf32>
  %2 = stablehlo.subtract %1, %tt : tensor<4x6xf32>
  %c = stablehlo.convert %h : (tensor<4x6xf16>) -> tensor<4x6xf32>
  %3 = stablehlo.maximum %2, %c : tensor<4x6xf32>
  return %3 : tensor<4x6xf32>
})");
  const TargetInfo target = TargetInfo::Everything();
  auto plan = PlanBlock(Body(*module), target);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->fusions.size(), 1u);
  const Fusion& fusion = plan->fusions[0];
  std::vector<bool> contiguous = ContiguousInputs(fusion, target);
  ASSERT_EQ(contiguous.size(), fusion.inputs.size());
  for (size_t i = 0; i < fusion.inputs.size(); ++i) {
    const std::string name = fusion.inputs[i]->name_hint();
    EXPECT_EQ(contiguous[i], name == "x" || name == "y") << name;
  }
  auto kernel = EmitLoopKernel(fusion, target, {});
  ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
  EXPECT_EQ(kernel->config.elements_per_invocation, kVectorWidth);
  EXPECT_EQ(kernel->vector_inputs, 2);
  EXPECT_EQ(kernel->vector_outputs, 1);
  EXPECT_NE(kernel->glsl.find("uvec4 in0v[]"), std::string::npos) << kernel->glsl;
  EXPECT_EQ(kernel->glsl.find("bool full"), std::string::npos);  // 24 elements: no tail
  GlslCompiler compiler("");
  auto spirv = compiler.Compile(kernel->glsl);
  EXPECT_TRUE(spirv.ok()) << spirv.status().ToString() << kernel->glsl;
  // An explicit 1 element per invocation keeps the scalar kernel.
  auto scalar = EmitLoopKernel(fusion, target, {.elements_per_invocation = 1});
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->vector_inputs, 0);
  EXPECT_EQ(scalar->glsl.find("uvec4 in0v[]"), std::string::npos);
}

// A count that is not a multiple of 4: the last invocation reads and writes its tail per word.
TEST(Kernel, VectorizedKernelHasAScalarTail) {
  auto module = Parse(R"(
func.func @main(%x: tensor<10xi32>, %y: tensor<10xi32>) -> (tensor<10xi32>, tensor<10xi8>) {
  %0 = stablehlo.add %x, %y : tensor<10xi32>
  %1 = stablehlo.convert %0 : (tensor<10xi32>) -> tensor<10xi8>
  return %0, %1 : tensor<10xi32>, tensor<10xi8>
})");
  const TargetInfo target = TargetInfo::Everything();
  auto plan = PlanBlock(Body(*module), target);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->fusions.size(), 1u);
  auto kernel = EmitLoopKernel(plan->fusions[0], target, {});
  ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
  EXPECT_EQ(kernel->config.elements_per_invocation, kVectorWidth);
  EXPECT_EQ(kernel->vector_inputs, 2);
  EXPECT_EQ(kernel->vector_outputs, 1);  // the i8 output is packed, 4 to a word
  EXPECT_NE(kernel->glsl.find("bool full"), std::string::npos) << kernel->glsl;
  GlslCompiler compiler("");
  auto spirv = compiler.Compile(kernel->glsl);
  EXPECT_TRUE(spirv.ok()) << spirv.status().ToString() << kernel->glsl;
}

// A device without buffer device addresses binds a tensor beyond maxStorageBufferRange through
// one descriptor per window: fusion plans kernels within maxPerStageDescriptorStorageBuffers
// counted that way, cutting a fused tree where a buffer saves descriptors.
TEST(Fusion, KernelsFitTheDescriptorLimitCountingWindows) {
  auto module = Parse(R"(
func.func @main(%a: tensor<300xf32>, %b: tensor<300xf32>, %c: tensor<300xf32>, %d: tensor<300xf32>,
                %e: tensor<300xf32>, %f: tensor<300xf32>, %s: tensor<f32>) -> tensor<300xf32> {
  %0 = stablehlo.add %a, %b : tensor<300xf32>
  %1 = stablehlo.add %0, %c : tensor<300xf32>
  %2 = stablehlo.add %1, %d : tensor<300xf32>
  %3 = stablehlo.add %2, %e : tensor<300xf32>
  %4 = stablehlo.add %3, %f : tensor<300xf32>
  %k = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<300xf32>
  %5 = stablehlo.multiply %4, %k : tensor<300xf32>
  return %5 : tensor<300xf32>
})");
  TargetInfo target = TargetInfo::Everything();
  target.buffer_device_address = false;
  target.max_storage_buffer_range = 1024;  // 1200 bytes: two windows per tensor
  target.min_storage_buffer_offset_alignment = 16;
  target.max_storage_buffers_per_stage = 8;
  EXPECT_EQ(DescriptorsFor(target, 1200), 2u);
  EXPECT_EQ(DescriptorsFor(target, 1024), 1u);
  auto plan = PlanBlock(Body(*module), target);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_GT(plan->fusions.size(), 1u);
  size_t ops = 0;
  for (const Fusion& f : plan->fusions) {
    uint64_t descriptors = 0;
    for (const ir::Value* v : f.inputs) descriptors += DescriptorsFor(target, v->type().num_elements() * 4);
    for (const ir::Value* v : f.outputs) descriptors += DescriptorsFor(target, v->type().num_elements() * 4);
    EXPECT_LE(descriptors, 8u) << f.name;
    for (const ir::Value* v : f.inputs) EXPECT_NE(v->name_hint(), "k") << "the broadcast of a scalar stays fused";
    ops += f.ops.size();
  }
  EXPECT_EQ(ops, 7u);  // every op computed once
  // With device addresses every tensor is one binding: one kernel.
  target.buffer_device_address = true;
  auto one = PlanBlock(Body(*module), target);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(one->fusions.size(), 1u);
  // A single op that cannot fit is a clear error naming the limit.
  target.buffer_device_address = false;
  target.max_storage_buffers_per_stage = 5;
  auto too_many = PlanBlock(Body(*module), target);
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.status().message().find("maxPerStageDescriptorStorageBuffers = 5"), std::string::npos)
      << too_many.status().ToString();
}

}  // namespace
}  // namespace vkhlo::codegen
