// Validate(): the cross references an executor indexes without checking, and
// CheckRequirements(): the message a loader gives for a device that cannot run a plan; and
// DescribeHeader(), what a tool shows of a file.
#include <gtest/gtest.h>

#include <string>

#include "plan/describe.h"
#include "plan/plan.h"
#include "tests/plan/sample_plans.h"

namespace vkhlo::plan {
namespace {

using testing::EveryStepPlan;

std::string Problem(const Plan& plan) {
  Status status = Validate(plan);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  return status.message();
}

template <class T>
T& FirstStep(Plan& plan, size_t list) {
  for (Segment& segment : plan.lists[list].segments) {
    for (Step& step : segment.steps) {
      if (auto* op = std::get_if<T>(&step.op)) return *op;
    }
  }
  ADD_FAILURE() << "no such step in list " << list;
  static T none;
  return none;
}

// A kernel without a workgroup base (a custom_call's) takes its push words from offset 0, so
// they may fill its whole block; one with a base has 16 bytes fewer for them.
TEST(PlanValidate, PushWordsStartAfterTheWorkgroupBaseIfAny) {
  Plan plan = EveryStepPlan();
  Dispatch& d = FirstStep<DispatchStep>(plan, 0).dispatches[0];
  Kernel& kernel = plan.kernels[d.kernel];
  kernel.push_constant_bytes = 32;
  kernel.workgroup_base_offset = Kernel::kNoWorkgroupBase;
  d.push_words.assign(8, 1);
  EXPECT_TRUE(Validate(plan).ok()) << Validate(plan).ToString();
  d.push_words.assign(9, 1);
  EXPECT_NE(Problem(plan).find("9 push words beyond kernel"), std::string::npos) << Problem(plan);
  kernel.workgroup_base_offset = 0;
  d.push_words.assign(4, 1);
  EXPECT_TRUE(Validate(plan).ok()) << Validate(plan).ToString();
  d.push_words.assign(5, 1);
  EXPECT_NE(Problem(plan).find("5 push words beyond kernel"), std::string::npos) << Problem(plan);
}

// A test program's checks read results the entry has (three tensors in the sample).
TEST(PlanValidate, ChecksReadResultsThatExist) {
  Plan plan = EveryStepPlan();
  plan.checks->results[1].actual_result = 3;
  EXPECT_NE(Problem(plan).find("checks: result check 1 reads result 3 of 3"), std::string::npos) << Problem(plan);
  plan = EveryStepPlan();
  plan.checks->results[0].expected_result = 2;  // and a constant
  EXPECT_NE(Problem(plan).find("expects a constant and a result, or neither"), std::string::npos) << Problem(plan);
  plan = EveryStepPlan();
  plan.checks->serialized[0].result = -1;
  EXPECT_NE(Problem(plan).find("serialized check 0 reads result -1"), std::string::npos) << Problem(plan);
  plan = EveryStepPlan();
  plan.checks.reset();  // a plan of no test program
  EXPECT_TRUE(Validate(plan).ok());
}

TEST(PlanValidate, FftKernelsDescribeATransformAndATarget) {
  Plan plan = EveryStepPlan();
  ASSERT_EQ(plan.fft_kernels.size(), 1u);
  EXPECT_TRUE(Validate(plan).ok());
  plan.fft_kernels[0].lengths = {2, 2, 2, 2};
  EXPECT_NE(Problem(plan).find("FFT kernels 0: a transform of 4 dimensions"), std::string::npos) << Problem(plan);
  plan = EveryStepPlan();
  plan.fft_kernels[0].max_workgroup_count = {65535};
  EXPECT_NE(Problem(plan).find("FFT kernels 0: workgroup size and count limits need 3 entries each"), std::string::npos)
      << Problem(plan);
}

TEST(PlanValidate, IndicesOutOfRangeNameWhere) {
  Plan plan = EveryStepPlan();
  FirstStep<DispatchStep>(plan, 0).dispatches[0].kernel = 99;
  EXPECT_NE(Problem(plan).find("list 0 'main', segment 0, step 0: kernel 99 of 5"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<CopyStep>(plan, 0).to.index = 1000;
  EXPECT_NE(Problem(plan).find("value 1000 of"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<FillStep>(plan, 0).to.index = 7;  // main has two slots
  EXPECT_NE(Problem(plan).find("slot 7 of 2"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<WhileStep>(plan, 0).body = 40;
  EXPECT_NE(Problem(plan).find("step list 40 of 10"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<CollectiveStep>(plan, 0).reducer = 12;
  EXPECT_NE(Problem(plan).find("step list 12 of 10"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<DispatchStep>(plan, 0).profile = 3;
  EXPECT_NE(Problem(plan).find("profile out of range"), std::string::npos) << Problem(plan);
}

TEST(PlanValidate, RangesAndBindingsMustFit) {
  Plan plan = EveryStepPlan();
  FirstStep<FillStep>(plan, 0).to.offset = 32;  // 32 + 48 bytes in a 64-byte slot
  EXPECT_NE(Problem(plan).find("beyond a buffer of 64 bytes"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<DispatchStep>(plan, 0).dispatches[0].bindings.pop_back();
  EXPECT_NE(Problem(plan).find("1 bindings for kernel 'fusion_0', which has 2"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<DispatchStep>(plan, 0).dispatches[0].push_words.assign(5, 0);  // 16 + 20 > 32 bytes
  EXPECT_NE(Problem(plan).find("5 push words"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  plan.values[FirstStep<DispatchStep>(plan, 0).outputs[0]].offset = 56;  // 16 bytes at 56 of a 64-byte slot
  EXPECT_NE(Problem(plan).find("lies outside slot 0 of its list"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  plan.lists[0].slots[1].last_step = 500;
  EXPECT_NE(Problem(plan).find("slot 1 lives over steps 1..500 of 20"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<CopyStep>(plan, 0).to.bytes = 8;
  EXPECT_NE(Problem(plan).find("different sizes"), std::string::npos) << Problem(plan);
}

TEST(PlanValidate, ControlFlowShapes) {
  Plan plan = EveryStepPlan();
  FirstStep<WhileStep>(plan, 0).operands.pop_back();
  EXPECT_NE(Problem(plan).find("while state of 1 values"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<BranchStep>(plan, 2).branches.push_back(3);  // an if with three branches
  EXPECT_NE(Problem(plan).find("3 branches"), std::string::npos) << Problem(plan);

  plan = EveryStepPlan();
  FirstStep<BranchStep>(plan, 2).selector.bytes = 3;
  EXPECT_NE(Problem(plan).find("a predicate of 3 bytes"), std::string::npos) << Problem(plan);
}

TEST(PlanValidate, HostStepsStandAlone) {
  Plan plan = EveryStepPlan();
  // Move the replica_id step into the segment before it.
  std::vector<Segment>& segments = plan.lists[0].segments;
  for (size_t s = 1; s < segments.size(); ++s) {
    if (std::holds_alternative<ProcessStep>(segments[s].steps[0].op)) {
      segments[s - 1].steps.push_back(segments[s].steps[0]);
      break;
    }
  }
  EXPECT_NE(Problem(plan).find("a host step shares its segment"), std::string::npos) << Problem(plan);
}

TEST(PlanValidate, ListsMustNotRunThemselves) {
  Plan plan = EveryStepPlan();
  // @helper (list 5) calls the while body (list 2), which calls @helper.
  StepList& helper = plan.lists[5];
  helper.segments.push_back(Segment{{Step{0, CallStep{2, {helper.arguments[0], helper.arguments[0]}, {helper.results[0], helper.results[0]}}}}});
  EXPECT_NE(Problem(plan).find("runs itself"), std::string::npos) << Problem(plan);
}

DeviceOffer Phone() {
  DeviceOffer offer;
  offer.device_name = "Mali-G78";
  offer.vulkan_api_minor = 1;
  offer.features = kShaderInt64 | kStorageBuffer16BitAccess | kStorageTexelBufferRgba32f;
  offer.subgroup_operations = 0xff;
  offer.max_storage_buffer_range = 1 << 27;
  offer.max_shared_memory_bytes = 32768;
  offer.max_workgroup_size = {512, 512, 64};
  offer.max_workgroup_invocations = 512;
  offer.max_push_constants_bytes = 128;
  offer.max_storage_buffers_per_stage = 8;
  offer.min_storage_buffer_offset_alignment = 16;
  offer.max_texel_buffer_elements = 1 << 16;
  offer.min_subgroup_size = 16;
  offer.max_subgroup_size = 32;
  return offer;
}

TEST(PlanRequirements, MetAndMissing) {
  const DeviceRequirements needed = EveryStepPlan().header.requirements;
  EXPECT_TRUE(CheckRequirements(needed, Phone()).ok()) << CheckRequirements(needed, Phone()).ToString();

  DeviceOffer weak = Phone();
  weak.features &= ~kShaderInt64;
  weak.max_shared_memory_bytes = 4096;
  weak.max_workgroup_size[1] = 2;
  weak.min_storage_buffer_offset_alignment = 256;
  weak.max_subgroup_size = 16;
  weak.max_texel_buffer_elements = 65535;
  const Status status = CheckRequirements(needed, weak);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  const std::string m = status.message();
  EXPECT_NE(m.find("the plan needs what Mali-G78 lacks: shaderInt64"), std::string::npos) << m;
  EXPECT_NE(m.find("maxComputeSharedMemorySize 8192 (has 4096)"), std::string::npos) << m;
  EXPECT_NE(m.find("maxComputeWorkGroupSize[1] 4 (has 2)"), std::string::npos) << m;
  EXPECT_NE(m.find("minStorageBufferOffsetAlignment dividing 64 (has 256)"), std::string::npos) << m;
  EXPECT_NE(m.find("requiredSubgroupSize 32 (has 16..16)"), std::string::npos) << m;
  EXPECT_NE(m.find("maxTexelBufferElements 65536 (has 65535)"), std::string::npos) << m;
  EXPECT_NE(m.find("compiled for profile 'mobile'"), std::string::npos) << m;
  EXPECT_EQ(m.find("requiredSubgroupSize 16"), std::string::npos) << m;  // 16 is within range
}

TEST(PlanDescribe, Header) {
  const std::string text = DescribeHeader(EveryStepPlan().header);
  EXPECT_NE(text.find("format 1.1, written by vkhlo 0.1.0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("source sha256 01080f16"), std::string::npos) << text;
  EXPECT_NE(text.find("entry @main(tensor<4xf32>, !stablehlo.token) -> (tuple<tuple<tensor<4xf32>, tensor<i32>>, "
                      "tensor<2x2xf32>>, !stablehlo.token)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("compiled for profile 'mobile', Vulkan 1.1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("features: shaderInt64, storageBuffer16BitAccess, storageTexelBuffer(R32G32B32A32_SFLOAT)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("maxComputeSharedMemorySize 8192, maxComputeWorkGroupSize 256x4x1"), std::string::npos) << text;
  EXPECT_NE(text.find("required subgroup sizes: 16 32\n"), std::string::npos) << text;
  EXPECT_EQ(FormatEntryType(EntryType{EntryType::Kind::kTensor, TensorType{"bf16", {-1, 3}}, {}}), "tensor<?x3xbf16>");
}

TEST(PlanRequirements, FeatureNames) {
  EXPECT_EQ(FeatureNames(kShaderFloat64 | kBufferDeviceAddress), "shaderFloat64, bufferDeviceAddress");
  EXPECT_EQ(FeatureName(uint64_t{1} << 40), "feature bit 40");  // a newer compiler's feature
  EXPECT_EQ(FeatureNames(kSignedZeroInfNanPreserveFloat32 | kDenormPreserveFloat64),
            "shaderSignedZeroInfNanPreserveFloat32, shaderDenormPreserveFloat64");
  EXPECT_EQ(FeatureName(kRoundingModeRteFloat16), "shaderRoundingModeRTEFloat16");
  // A device without the float controls a kernel declares cannot run it.
  DeviceRequirements needed;
  needed.features = kRoundingModeRteFloat32;
  const Status status = CheckRequirements(needed, Phone());
  EXPECT_NE(status.message().find("lacks: shaderRoundingModeRTEFloat32"), std::string::npos) << status.ToString();
}

}  // namespace
}  // namespace vkhlo::plan
