// What a compile makes of an IR module (compile.cc), kept with its executable for the compiler
// alone (ExecutableState::compiled): lowering it again is how a compiled executable serializes
// (plan_lowering.h). The runtime never reads it: it runs the plan lowered from it.
//
// A compiled module is a tree of BlockPrograms: one per block that runs (the entry function's
// body, each region of while/if/case, each called function), compiled once. A BlockProgram is
// the fusion plan of its block (codegen/fusion.h) plus a compiled pipeline per fusion and the
// buffer slots its intermediate values share.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/device_kernel.h"
#include "codegen/fusion.h"
#include "codegen/glsl_compiler.h"
#include "codegen/kernel.h"
#include "device/pipeline.h"
#include "ir/module.h"
#include "runtime/state.h"

namespace vkhlo::runtime {

struct KernelProfile;       // runtime/profiler.h
struct CompiledCustomCall;  // runtime/custom_call.h

struct CompiledKernel {
  // A loop kernel: its source and pipeline (null when its index space is empty).
  codegen::KernelSource source;
  std::shared_ptr<const device::Pipeline> pipeline;
  // The SPIR-V the pipeline was made of (kept for the plan, runtime/plan_lowering.h).
  std::shared_ptr<const codegen::SpirvWords> spirv;
  // A device kernel (codegen/device_kernel.h): set when the fusion has a device_op; its
  // dispatches' pipelines in order (null for a dispatch with an empty grid).
  std::optional<codegen::DeviceKernel> device;
  std::vector<std::shared_ptr<const device::Pipeline>> device_pipelines;
  std::vector<std::shared_ptr<const codegen::SpirvWords>> device_spirv;  // parallel to device_pipelines
  // The device kernel's constant tables (DeviceKernel::constant_words), uploaded when compiled.
  std::vector<std::shared_ptr<BufferState>> constants;
  // What a profile says about it (class, config, fused ops with their locations).
  std::shared_ptr<const KernelProfile> profile;
};

struct BlockProgram {
  const ir::Block* block = nullptr;
  codegen::BlockPlan plan;
  std::vector<CompiledKernel> kernels;  // parallel to plan.fusions
  // Programs of the regions of control-flow steps (while: cond, body; if: then, else; case).
  std::unordered_map<const ir::Operation*, std::vector<std::unique_ptr<BlockProgram>>> regions;
  // The whiles of this block whose trip count the program decides (passes/trip_count.h): their
  // iterations are recorded back to back, the condition never read back.
  std::unordered_map<const ir::Operation*, int64_t> trip_counts;
  // The other whiles of this block whose condition and body only record device work (no host
  // step: no if/case, data-dependent while, call, custom_call, collective or transfer): they
  // run in batches of iterations with one predicate read per batch (execute.cc RunBatched).
  std::unordered_map<const ir::Operation*, bool> batched;
  // Intermediate values that live only between kernels of this block share scratch slots.
  std::unordered_map<const ir::Value*, int> slot_of;
  std::vector<uint64_t> slot_bytes;
};

struct CompiledModule {
  std::unique_ptr<ir::Module> module;
  const ir::Function* entry = nullptr;
  std::unique_ptr<BlockProgram> program;  // the entry's body
  std::map<std::string, std::unique_ptr<BlockProgram>> functions;  // called functions' bodies
  // The reduction of each all_reduce / reduce_scatter / collective_reduce: a generated function
  // (acc..., x...) -> (reduced...) (compile.cc CompileReducer).
  std::unordered_map<const ir::Operation*, std::unique_ptr<BlockProgram>> reducers;
  // Each custom_call op's compiled target (custom_call_compile.cc).
  std::unordered_map<const ir::Operation*, std::shared_ptr<const CompiledCustomCall>> custom_calls;
  // Constants read from buffers, uploaded once.
  std::unordered_map<const ir::Value*, RtValue> constants;
};

}  // namespace vkhlo::runtime
