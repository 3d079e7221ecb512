// The runtime's internals behind include/vkhlo/runtime.h: the client (device, codegen target,
// SPIR-V compiler), device tensors, and compiled programs.
//
// An executable is a tree of BlockPrograms: one per block that runs (the entry function's body,
// each region of while/if/case, each called function), compiled once. A BlockProgram is the
// fusion plan of its block (codegen/fusion.h) plus a compiled pipeline per fusion and the
// buffer slots its intermediate values share.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/device_kernel.h"
#include "codegen/fusion.h"
#include "codegen/glsl_compiler.h"
#include "codegen/kernel.h"
#include "codegen/target.h"
#include "device/buffer.h"
#include "device/device.h"
#include "device/pipeline.h"
#include "ir/module.h"
#include "plan/plan.h"
#include "vkhlo/checks.h"
#include "vkhlo/custom_call.h"
#include "vkhlo/process_grid.h"
#include "vkhlo/runtime.h"

namespace vkhlo::device::fft {
class FftPlanCache;
}  // namespace vkhlo::device::fft

namespace vkhlo::runtime {

struct ClientState {
  std::unique_ptr<device::Device> device;
  // stablehlo.fft's VkFFT plans (fft_step.h; shared, so that a runtime-only build destroys a
  // client without VkFFT), created on first use (under fft_plans_mutex:
  // executions on several threads may reach their first FFT together); declared after
  // `device` so that it is destroyed first.
  std::shared_ptr<device::fft::FftPlanCache> fft_plans;
  std::mutex fft_plans_mutex;

  codegen::TargetInfo target;
  // GLSL to SPIR-V, made by the compiler on the client's first compile (EnsureCompiler,
  // runtime_internal.h): a runtime-only build never makes one. Shared, so that destroying a
  // client needs nothing of the compiler where none was made.
  std::shared_ptr<codegen::GlslCompiler> compiler;
  std::mutex compiler_mutex;
  std::string spirv_cache_directory;     // the compiler's disk cache ("" none)
  uint64_t spirv_cache_bytes = 64ull << 20;  // its memory cache
  CustomCallRegistry custom_calls;  // custom_call.h
  uint64_t executable_cache_entries = 64;  // ExecuteAndTransfer's cache bound (runtime_internal.h)
  uint64_t specialization_cache_entries = 16;  // per polymorphic executable (polymorphic.h)
  // The feed queues of executions outside a process grid (Client::TransferToInfeed, ...).
  std::shared_ptr<FeedQueue> infeed = std::make_shared<FeedQueue>();
  std::shared_ptr<FeedQueue> outfeed = std::make_shared<FeedQueue>();
};

// Device memory for one tensor (or a scratch slot shared by several).
struct BufferState {
  std::shared_ptr<ClientState> client;  // first: destroyed last, after `buffer`
  ir::Type type;
  TensorType public_type;
  device::Buffer buffer;
  // Made by an execution for a kernel's result and never handed out (not an argument, constant,
  // scratch slot or returned result): an in-place update may write it when nothing else refers
  // to it (codegen/in_place.h, execute.cc).
  bool transient = false;
  ~BufferState() { buffer.Reset(); }
};

// A runtime value: a tensor (in a buffer, at offset 0), a tuple, or a token.
struct RtValue {
  enum class Kind { kTensor, kTuple, kToken } kind = Kind::kToken;
  std::shared_ptr<BufferState> storage;  // tensors
  ir::Type type;                         // tensors: the value's type
  std::vector<RtValue> elements;         // tuples

  static RtValue Tensor(std::shared_ptr<BufferState> storage, ir::Type type) {
    RtValue v;
    v.kind = Kind::kTensor;
    v.storage = std::move(storage);
    v.type = std::move(type);
    return v;
  }
  static RtValue Tuple(std::vector<RtValue> elements) {
    RtValue v;
    v.kind = Kind::kTuple;
    v.elements = std::move(elements);
    return v;
  }
};

struct KernelProfile;  // runtime/profiler.h

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

struct CompiledCustomCall;  // runtime/custom_call.h
struct PolymorphicProgram;  // runtime/polymorphic.h
struct LoadedPlan;          // runtime/loaded_plan.h
struct ProcessContext;      // runtime/execution.h

struct BlockProgram {
  const ir::Block* block = nullptr;
  codegen::BlockPlan plan;
  std::vector<CompiledKernel> kernels;  // parallel to plan.fusions
  // Programs of the regions of control-flow steps (while: cond, body; if: then, else; case).
  std::unordered_map<const ir::Operation*, std::vector<std::unique_ptr<BlockProgram>>> regions;
  // The whiles of this block whose trip count the program decides (trip_count.h): their
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

// An executable: what the compile made (the module and its BlockPrograms, kept to lower again
// and for tools) and the plan lowered from it, loaded, which is what Execute runs. An
// executable loaded from a file (Client::LoadExecutable) has the loaded plan alone.
struct ExecutableState {
  std::shared_ptr<ClientState> client;
  // What Execute runs (execution.h). Null only for a polymorphic executable, whose
  // specialisations have their own.
  std::shared_ptr<const LoadedPlan> loaded;
  // Set for a shape-polymorphic program: Execute picks (or compiles) the specialisation for its
  // arguments' shapes; the fields below then stay empty but for `client` and `compile_stats`.
  std::shared_ptr<PolymorphicProgram> polymorphic;
  // How Execute runs a polymorphic executable (polymorphic.h RunPolymorphic, set by the
  // compiler that made it): the runtime calls it without depending on the compiler.
  StatusOr<std::vector<Buffer>> (*run_polymorphic)(const ExecutableState&, std::span<const Buffer>,
                                                  const ProcessContext&, ExecutionStats*) = nullptr;
  // The tensors Execute takes and returns (Executable::parameter_types / result_types): from
  // the entry's signature when compiled (dynamic sizes -1), from the plan's header when loaded.
  std::vector<TensorType> parameter_types, result_types;
  // How Executable::Serialize lowers a compiled executable to a plan (plan_lowering.h), set by
  // the compiler; null for a loaded plan, which is written as read.
  StatusOr<plan::Plan> (*lower_to_plan)(const ExecutableState&) = nullptr;
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
  // CompileOptions::checks: how the host compares what the checks read (vkhlo/checks.h).
  std::shared_ptr<const CompiledChecks> checks;
  CompileStats compile_stats;
  // SHA-256 of the program text or bytecode Client::Compile was given (unset for a built
  // computation or a module compiled directly): the plan's source hash (plan_lowering.h).
  std::optional<std::array<uint8_t, 32>> source_sha256;
  mutable std::mutex stats_mutex;
  ExecutionStats last_stats;
};

// Bytes a tensor of `type` takes in a buffer: storage bytes rounded up to whole words.
uint64_t BufferBytes(const ir::Type& type);

// A new device tensor of `type` (contents undefined).
StatusOr<std::shared_ptr<BufferState>> AllocateTensor(const std::shared_ptr<ClientState>& client, const ir::Type& type);

// A copy of `tensor` (whose contents are complete) on `client`'s device, through host memory:
// how tensors move between devices.
StatusOr<std::shared_ptr<BufferState>> CopyThroughHost(const BufferState& tensor,
                                                       const std::shared_ptr<ClientState>& client);

TensorType ToTensorType(const ir::Type& type);
StatusOr<ir::Type> FromTensorType(const TensorType& type);

}  // namespace vkhlo::runtime
