// custom_call on the Vulkan backend (include/vkhlo/custom_call.h): what the compile resolves
// for each op (custom_call_compile.cc) and what an execution runs (custom_call_execute.cc,
// Execution::RunCustomCall).
//
// A custom_call is a runtime step of its block (the fusion planner never fuses it): a kernel
// target records one dispatch into the execution's command list, binding the operands' buffers
// then freshly allocated results; a host callback target flushes the list, reads the operands
// back, calls the embedder and uploads its results.
#pragma once

#include <memory>
#include <string>

#include "device/pipeline.h"
#include "ir/module.h"
#include "runtime/custom_call_signature.h"
#include "runtime/state.h"
#include "vkhlo/custom_call.h"

namespace vkhlo::runtime {

struct CompiledCustomCall {
  std::shared_ptr<const CustomCallTarget> target;  // the registration at compile time
  std::string backend_config;
  std::string location;  // "file:line:col" (or the computation's name)
  int64_t api_version = 1;
  bool has_side_effect = false;
  // Kernel targets: the pipeline and the launch the target chose for the op's types.
  std::shared_ptr<const device::Pipeline> pipeline;
  CustomCallLaunch launch;

  const CustomCallKernel* kernel() const { return std::get_if<CustomCallKernel>(&target->implementation); }
  const CustomCallHostCallback* host() const { return std::get_if<CustomCallHostCallback>(&target->implementation); }
  CustomCallContext context() const {
    return CustomCallContext{target->name, backend_config, api_version, has_side_effect, location};
  }
};

// Resolves `op` (a stablehlo.custom_call at `location`) against `client`'s registry: checks
// the signature, validates and loads a kernel's SPIR-V. Errors start with "<location>: error:".
StatusOr<std::shared_ptr<const CompiledCustomCall>> CompileCustomCall(ClientState& client, const ir::Operation& op,
                                                                      const std::string& location);

}  // namespace vkhlo::runtime
