// The kernels of a plan (plan/kernel.h) from what the compile made: each pipeline's SPIR-V and
// the facts the device layer reflected from it (bindings, push constants, workgroup size,
// shared memory, the workgroup base), and the device requirements (plan/requirements.h) the
// plan's kernels and bound ranges add up to. Used by plan_lowering.cc only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "codegen/glsl_compiler.h"
#include "codegen/target.h"
#include "device/capabilities.h"
#include "device/pipeline.h"
#include "plan/plan.h"
#include "runtime/device_offer.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// Adds kernels to a plan, one per pipeline (pipelines are shared by content in the device's
// cache, so two dispatches of the same module name one kernel).
class PlanKernels {
 public:
  explicit PlanKernels(plan::Plan& plan) : plan_(plan) {}

  // The kernel of `pipeline`, made of `spirv` with entry point `entry_point`;
  // `required_subgroup_size` as the pipeline was created with (0: any).
  StatusOr<uint32_t> Add(const device::Pipeline& pipeline, const codegen::SpirvWords& spirv,
                         const std::string& entry_point, uint32_t required_subgroup_size);

 private:
  plan::Plan& plan_;
  std::unordered_map<const device::Pipeline*, uint32_t> index_;
};

// What `plan`'s kernels need of a device: the features their SPIR-V capabilities, texel formats,
// address bindings and subgroup sizes need, the subgroup operations they use, and the largest
// workgroup, shared memory, push constants, descriptors and bound range; with the profile and
// SPIR-V environment of `target`, which they were compiled for.
StatusOr<plan::DeviceRequirements> PlanRequirements(const plan::Plan& plan, const codegen::TargetInfo& target);


}  // namespace vkhlo::runtime
