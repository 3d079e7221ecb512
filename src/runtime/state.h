// The runtime's internals behind include/vkhlo/runtime.h: the client (device, codegen target),
// device tensors, and executables, which run a loaded plan (loaded_plan.h). What a compile made
// of an IR module (compiled_module.h) hangs off an executable for the compiler alone: nothing
// here names the IR (issue 22).
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/target.h"
#include "device/buffer.h"
#include "device/device.h"
#include "device/pipeline.h"
#include "plan/plan.h"
#include "runtime/tensor_desc.h"
#include "vkhlo/checks.h"
#include "vkhlo/custom_call.h"
#include "vkhlo/process_grid.h"
#include "vkhlo/runtime.h"

namespace vkhlo::device::fft {
class FftPlanCache;
}  // namespace vkhlo::device::fft

namespace vkhlo::codegen {
class GlslCompiler;
}  // namespace vkhlo::codegen

namespace vkhlo::runtime {

struct ClientState {
  std::unique_ptr<device::Device> device;
  // stablehlo.fft's VkFFT plans (fft_record.h; shared, so that a runtime-only build destroys a
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
  TensorDesc type;
  TensorType public_type;  // `type` as Buffer::type() hands it out
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
  TensorDesc type;                       // tensors: the value's type
  std::vector<RtValue> elements;         // tuples

  static RtValue Tensor(std::shared_ptr<BufferState> storage, TensorDesc type) {
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

struct CompiledModule;      // runtime/compiled_module.h
struct PolymorphicProgram;  // runtime/polymorphic.h
struct LoadedPlan;          // runtime/loaded_plan.h
struct ProcessContext;      // runtime/execution.h

// An executable: the plan Execute runs, loaded, and — when compiled here — what the compile made
// (the module and its programs, kept to lower again for Serialize). An executable loaded from a
// file (Client::LoadExecutable) has the loaded plan alone.
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
  // What the compile made of its module (compiled_module.h); null for a loaded plan.
  std::shared_ptr<CompiledModule> compiled;
  // CompileOptions::checks: how the host compares what the checks read (vkhlo/checks.h).
  std::shared_ptr<const CompiledChecks> checks;
  CompileStats compile_stats;
  // SHA-256 of the program text or bytecode Client::Compile was given (unset for a built
  // computation or a module compiled directly): the plan's source hash (plan_lowering.h).
  std::optional<std::array<uint8_t, 32>> source_sha256;
  mutable std::mutex stats_mutex;
  ExecutionStats last_stats;
};

// A new device tensor of `type` (contents undefined).
StatusOr<std::shared_ptr<BufferState>> AllocateTensor(const std::shared_ptr<ClientState>& client, const TensorDesc& type);

// A copy of `tensor` (whose contents are complete) on `client`'s device, through host memory:
// how tensors move between devices.
StatusOr<std::shared_ptr<BufferState>> CopyThroughHost(const BufferState& tensor,
                                                       const std::shared_ptr<ClientState>& client);

}  // namespace vkhlo::runtime
