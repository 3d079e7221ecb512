// The vkhlo runtime: compile StableHLO programs for a Vulkan device and run them.
//
//   auto client = vkhlo::Client::Create();                        // device from the environment
//   auto exe = client->Compile(mlir_text, {.entry = "main"});     // passes, fusion, SPIR-V
//   auto x = client->BufferFromHost({"f32", {4}}, bytes);        // a device tensor
//   auto results = exe->Execute({*x});                            // std::vector<Buffer>
//   auto host = (*results)[0].ToHost();                           // bytes, Literal layout
//
// Every tensor op runs on the device: an op the Vulkan backend cannot run yet, or one the device
// lacks a feature for (f64 without shaderFloat64), is a compile error naming the op, its
// location and what is missing — never a silent fallback to the interpreter. Control flow
// (while, if, case) runs on the host, reading back only the predicate.
//
// Host data is exchanged as bytes in row-major "storage" layout: little-endian, i1 and sub-byte
// types one byte per element (see ir::Literal); a later API adds literals with layouts.
// No Vulkan or glslang header is needed to use this one.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo {

namespace runtime {
struct ClientState;
struct BufferState;
struct ExecutableState;
}  // namespace runtime

// A tensor type: MLIR element type spelling ("f32", "i8", "ui16", "bf16", "complex<f32>") and
// dimensions.
struct TensorType {
  std::string element_type;
  std::vector<int64_t> dims;

  int64_t num_elements() const;
  std::string ToString() const;  // "tensor<2x3xf32>"
  bool operator==(const TensorType&) const = default;
};

// A tensor in device memory. Cheap to copy (copies share the memory); immutable once made.
class Buffer {
 public:
  Buffer() = default;
  const TensorType& type() const;
  // Bytes of the storage layout (num_elements * bytes per element).
  uint64_t byte_size() const;
  // Downloads the elements (waits for the work that produces them).
  StatusOr<std::vector<uint8_t>> ToHost() const;
  explicit operator bool() const { return state_ != nullptr; }

  // Internal: the runtime's representation.
  const std::shared_ptr<runtime::BufferState>& state() const { return state_; }
  explicit Buffer(std::shared_ptr<runtime::BufferState> state) : state_(std::move(state)) {}

 private:
  std::shared_ptr<runtime::BufferState> state_;
};

struct CompileOptions {
  std::string entry = "main";
  // Passes run before fusion (names of vkhlo-opt --pass); those not registered in this build
  // are skipped. Empty: the default pipeline.
  std::string passes;
  // Write every kernel's GLSL (.comp) and SPIR-V assembly (.spvasm) here.
  std::string dump_kernels_dir;
  bool fuse = true;  // false: one kernel per element-wise op (to measure fusion)
  uint32_t elements_per_invocation = 0;  // 0: the device's loop config
};

// What one Execute did.
struct ExecutionStats {
  uint64_t kernels_dispatched = 0;
  uint64_t command_buffers = 0;     // submissions (one per straight-line segment)
  uint64_t bytes_read = 0;          // by kernels, from their input buffers
  uint64_t bytes_written = 0;       // by kernels, to their output buffers
  uint64_t predicate_readbacks = 0; // control-flow predicates read by the host
  uint64_t host_evaluated_ops = 0;  // tensor ops evaluated on the host: always 0
  uint64_t peak_scratch_bytes = 0;  // intermediate buffers (reused by liveness)
};

struct CompileStats {
  uint64_t kernels = 0;           // loop kernels in the executable (all regions)
  uint64_t spirv_compiles = 0;    // glslang runs (cache misses)
  uint64_t spirv_cache_hits = 0;  // in memory or on disk
  double codegen_ms = 0;          // passes, fusion, GLSL emission
  double spirv_ms = 0;            // GLSL -> SPIR-V (incl. validation and optimization)
  double pipeline_ms = 0;         // vkCreateComputePipelines
  uint64_t constant_bytes = 0;    // constants uploaded once
};

class Executable {
 public:
  Executable() = default;
  // Runs the entry function. Arguments must match its parameters in count, element type and
  // shape (INVALID_ARGUMENT naming the first mismatch). Safe to call from several threads.
  StatusOr<std::vector<Buffer>> Execute(std::span<const Buffer> arguments) const;
  StatusOr<std::vector<Buffer>> Execute(std::initializer_list<Buffer> arguments) const {
    return Execute(std::span<const Buffer>(arguments.begin(), arguments.size()));
  }
  std::vector<TensorType> parameter_types() const;
  ExecutionStats last_stats() const;
  const CompileStats& compile_stats() const;

  explicit Executable(std::shared_ptr<runtime::ExecutableState> state) : state_(std::move(state)) {}
  const std::shared_ptr<runtime::ExecutableState>& state() const { return state_; }

 private:
  std::shared_ptr<runtime::ExecutableState> state_;
};

class Client {
 public:
  // Opens the device the environment asks for (VKHLO_DEVICE, VKHLO_PROFILE, VKHLO_VALIDATION),
  // as device::Device::CreateFromEnvironment does.
  static StatusOr<Client> Create();

  // Parses, verifies, runs the passes, fuses, generates and compiles kernels, uploads constants.
  StatusOr<Executable> Compile(std::string_view mlir_text, const CompileOptions& options = {}) const;

  // A device tensor holding `bytes` (num_elements * bytes per element, storage layout).
  StatusOr<Buffer> BufferFromHost(const TensorType& type, std::span<const uint8_t> bytes) const;

  // "<device name> (<profile>)".
  std::string device_description() const;

  explicit Client(std::shared_ptr<runtime::ClientState> state) : state_(std::move(state)) {}
  const std::shared_ptr<runtime::ClientState>& state() const { return state_; }

 private:
  std::shared_ptr<runtime::ClientState> state_;
};

}  // namespace vkhlo
