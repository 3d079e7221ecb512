// The vkhlo runtime: compile programs (built with XlaBuilder, StableHLO text or portable artifacts) for a Vulkan
// device and run them.
//
//   auto client = vkhlo::Client::Create();                         // StatusOr<unique_ptr<Client>>
//   auto exe = (*client)->Compile(computation, {});                 // or text, or an artifact's bytes
//   auto x = (*client)->TransferToDevice(LiteralUtil::CreateR1<float>({1, 2}));
//   auto results = exe->Execute({&*x});                             // std::vector<Buffer>
//   auto literal = (*results)[0].ToLiteral();                       // a row-major Literal
//   auto value = (*client)->ExecuteAndTransfer(computation, {&arg}); // all of it, cached
//
// Compile(source, CompileOptions) takes any program (text, a portable artifact, a computation)
// with options (entry, passes, kernel dumps); BufferFromHost / ToHost move raw bytes.
//
// Every tensor op runs on the device: an op the Vulkan backend cannot run yet, or one the device
// lacks a feature for (f64 without shaderFloat64), is a compile error naming the op, its
// location and what is missing — never a silent fallback to the interpreter. Control flow
// (while, if, case) runs on the host, reading back only the predicate.
//
// Shape-polymorphic programs (dynamic dimensions `tensor<?x784xf32>`, as jax.export writes them
// with symbolic shapes) compile into an executable that specialises itself: the first Execute
// with a new combination of argument shapes (and of the values of the scalar integer arguments
// that decide shapes) refines the program to static shapes and compiles it; later calls with
// the same combination reuse it (a bounded cache per executable). CompileOptions::argument_types
// or Executable::Specialize compile for given shapes ahead of time.
//
// Host data is exchanged as Literals (any layout in, row-major out: the device keeps tensors
// row-major) or as bytes in row-major "storage" layout: little-endian, i1 and sub-byte types one
// byte per element (see vkhlo/literal.h). No Vulkan or glslang header is needed to use this one.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "vkhlo/literal.h"
#include "vkhlo/profile.h"
#include "vkhlo/program_source.h"
#include "vkhlo/shape.h"
#include "vkhlo/status.h"
#include "vkhlo/xla_computation.h"

namespace vkhlo {

class FeedQueue;  // process_grid.h

namespace runtime {
struct ClientState;
struct BufferState;
struct ExecutableState;
struct ExecutableCache;
}  // namespace runtime

class CustomCallRegistry;  // vkhlo/custom_call.h
struct CompiledChecks;     // vkhlo/checks.h

// A tensor type: MLIR element type spelling ("f32", "i8", "ui16", "bf16", "complex<f32>") and
// dimensions. A shape-polymorphic executable's parameter_types() give -1 for a dynamic size.
struct TensorType {
  std::string element_type;
  std::vector<int64_t> dims;

  int64_t num_elements() const;  // -1 when a dimension is negative or the product overflows
  std::string ToString() const;  // "tensor<2x3xf32>", "tensor<?x3xf32>"
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
  // Downloads the elements as an array Literal (row-major layout).
  StatusOr<Literal> ToLiteral() const;
  // The tensor's shape (row-major layout); an empty tuple shape for an empty Buffer.
  Shape shape() const;
  explicit operator bool() const { return state_ != nullptr; }

  // Internal: the runtime's representation.
  const std::shared_ptr<runtime::BufferState>& state() const { return state_; }
  explicit Buffer(std::shared_ptr<runtime::BufferState> state) : state_(std::move(state)) {}

 private:
  std::shared_ptr<runtime::BufferState> state_;
};

struct CompileOptions {
  std::string entry = "main";
  // Passes run before fusion (names of vkhlo-opt --pass, comma-separated; an unknown name is
  // an error). Empty: the default pipeline (passes::DefaultPipelineSpec(), vkhlo-opt
  // --list-passes prints it).
  std::string passes;
  // Write every kernel's GLSL (.comp) and SPIR-V assembly (.spvasm) here.
  std::string dump_kernels_dir;
  bool fuse = true;  // false: one kernel per element-wise op (to measure fusion)
  // false: dynamic_update_slice and scatter never write into their operand's buffer (to measure
  // what in-place updates save; codegen/in_place.h).
  bool in_place_updates = true;
  uint32_t elements_per_invocation = 0;  // 0: the device's loop config
  // Shape-polymorphic programs: compile for these argument types now (one per entry parameter,
  // tokens left out), instead of specialising on each new combination at Execute. Empty: a
  // polymorphic program compiles into a self-specialising executable (a static one as usual).
  std::vector<TensorType> argument_types;
  // With argument_types: the values of the scalar integer parameters that decide shapes
  // (Executable::shape_arguments()), by parameter index.
  std::map<int64_t, int64_t> argument_values;
  // A test program (vkhlo/checks.h): compile the entry's check ops into results and outfeeds
  // the host compares (Executable::checks()). Off: a test op is a compile error.
  bool checks = false;
};

// What one Execute did.
struct ExecutionStats {
  uint64_t kernels_dispatched = 0;
  uint64_t command_buffers = 0;     // submissions (one per straight-line segment)
  uint64_t bytes_read = 0;          // by kernels, from their input buffers
  uint64_t bytes_written = 0;       // by kernels, to their output buffers
  uint64_t predicate_readbacks = 0; // control-flow predicates read by the host
  // While iterations whose trip count the program decides (lax.scan / fori_loop), recorded back
  // to back with no predicate read (docs/design.md "Loops on the device").
  uint64_t counted_loop_iterations = 0;
  // Dispatches not recorded because an earlier one in this execution wrote the same scratch
  // from the same unchanging inputs (a loop-invariant matmul operand packed once, not each step).
  uint64_t invariant_dispatches_reused = 0;
  uint64_t host_evaluated_ops = 0;  // tensor ops evaluated on the host: always 0
  uint64_t peak_scratch_bytes = 0;  // intermediate buffers (reused by liveness)
  uint64_t in_place_updates = 0;    // dynamic_update_slice / scatter results written into their operand's buffer
  // Bindings of tensors beyond maxStorageBufferRange reached through buffer device addresses
  // (one per binding per dispatch; 0 when every tensor fits a descriptor).
  uint64_t address_bindings = 0;
  // ... and, on devices without bufferDeviceAddress, through several descriptors ("windows").
  uint64_t windowed_bindings = 0;
  // VkFFT launches of FFTs beyond maxStorageBufferRange, split along the batch with the tensors
  // bound through windows of their memory (0 when every FFT fits one descriptor per tensor).
  uint64_t fft_split_launches = 0;
  // FFTs on tensors split across allocations (beyond maxMemoryAllocationSize), which no VkFFT
  // binding can span: run staged, copied piece by piece into buffers of their own and back.
  uint64_t fft_staged_transforms = 0;
  // Bindings of tensors beyond maxMemoryAllocationSize, split across several allocations (one
  // per binding per dispatch; always through windows).
  uint64_t split_bindings = 0;
};

// One compiled kernel (a dispatch of a device kernel counts apart): its SPIR-V size and what
// producing it cost, in compile order (vkhlo-compile-report prints them; a test keeps every
// kernel's SPIR-V within a budget, tests/codegen/kernel_size_test.cc).
struct KernelCompileStats {
  std::string name;           // the kernel's (dispatch's) name, as in --dump-kernels
  uint64_t spirv_bytes = 0;   // the optimized module the driver gets
  double spirv_ms = 0;        // GLSL -> SPIR-V (a cache hit costs a lookup only)
  double pipeline_ms = 0;     // vkCreateComputePipelines (a pipeline cache hit costs a lookup only)
  bool spirv_cached = false;  // the SPIR-V came from the memory or disk cache
};

struct CompileStats {
  uint64_t kernels = 0;           // loop kernels in the executable (all regions)
  uint64_t spirv_compiles = 0;    // glslang runs (cache misses)
  uint64_t spirv_cache_hits = 0;  // in memory or on disk
  double codegen_ms = 0;          // passes, fusion, GLSL emission
  double spirv_ms = 0;            // GLSL -> SPIR-V (incl. validation and optimization)
  double pipeline_ms = 0;         // vkCreateComputePipelines
  uint64_t constant_bytes = 0;    // constants uploaded once
  // Kernels (dispatches) that reach a tensor beyond maxStorageBufferRange by its device address.
  uint64_t address_bound_kernels = 0;
  // ... and through several descriptors (windows), on devices without bufferDeviceAddress.
  uint64_t windowed_kernels = 0;
  // FFT ops whose one transform exceeded what a binding holds, split into smaller transforms
  // before fusion (per axis, four-step; docs/design.md).
  uint64_t split_ffts = 0;
  std::vector<KernelCompileStats> per_kernel;  // every kernel compiled, in order
};

// What a shape-polymorphic executable's specialisations cost and saved.
struct SpecializationStats {
  uint64_t compiled = 0;    // specialisations compiled (new combinations of shapes and values)
  uint64_t hits = 0;        // Execute calls that found theirs cached
  uint64_t evicted = 0;     // dropped from the bounded cache (least recently used first)
  uint64_t cached = 0;      // held now
  double compile_ms = 0;    // total time spent specialising: refinement and compilation
  double last_compile_ms = 0;
};

class Executable {
 public:
  Executable() = default;
  // Runs the entry function. Arguments must match its parameters in count, element type and
  // shape (INVALID_ARGUMENT naming the first mismatch). Safe to call from several threads.
  // Results: one Buffer per tensor the entry returns, tuples flattened in order (tokens, which
  // hold no data, are left out).
  StatusOr<std::vector<Buffer>> Execute(std::vector<const Buffer*> arguments) const;
  // The same with the Buffers themselves: `{x, y}`, a std::vector<Buffer>, a span.
  StatusOr<std::vector<Buffer>> Execute(std::initializer_list<Buffer> arguments) const {
    return ExecuteBuffers(std::span<const Buffer>(arguments.begin(), arguments.size()));
  }
  // (A template, so that `Execute({&x, &y})` picks the pointer overload above: a braced list
  // never deduces a template argument.)
  template <typename Buffers>
    requires std::is_convertible_v<const Buffers&, std::span<const Buffer>>
  StatusOr<std::vector<Buffer>> Execute(const Buffers& arguments) const {
    return ExecuteBuffers(std::span<const Buffer>(arguments));
  }
  StatusOr<std::vector<Buffer>> ExecuteBuffers(std::span<const Buffer> arguments) const;
  // With options: `{.profile = &profile}` records where this execution's time went
  // (vkhlo/profile.h); without a profile it costs nothing.
  StatusOr<std::vector<Buffer>> Execute(std::vector<const Buffer*> arguments, const ExecuteOptions& options) const;
  StatusOr<std::vector<Buffer>> Execute(std::initializer_list<Buffer> arguments, const ExecuteOptions& options) const {
    return ExecuteBuffers(std::span<const Buffer>(arguments.begin(), arguments.size()), options);
  }
  template <typename Buffers>
    requires std::is_convertible_v<const Buffers&, std::span<const Buffer>>
  StatusOr<std::vector<Buffer>> Execute(const Buffers& arguments, const ExecuteOptions& options) const {
    return ExecuteBuffers(std::span<const Buffer>(arguments), options);
  }
  StatusOr<std::vector<Buffer>> ExecuteBuffers(std::span<const Buffer> arguments, const ExecuteOptions& options) const;
  // The tensors Execute takes and returns, in order (tokens left out, tuple results flattened);
  // a shape-polymorphic executable's dynamic sizes as -1.
  std::vector<TensorType> parameter_types() const;
  std::vector<TensorType> result_types() const;
  // What CompileOptions::checks made of the program's checks (vkhlo/checks.h); null without.
  const CompiledChecks* checks() const;
  // The executable as a compiled plan, the bytes of a .vkx file (docs/plan_format.md): its
  // kernels as SPIR-V, the schedule of steps, constants, the entry's signature and the device
  // features and limits it needs, nothing of the compiler. `vkhlo-compile -o` writes it.
  // Client::LoadExecutable reads it back; a shape-polymorphic executable has no plan
  // (UNIMPLEMENTED: specialise it first).
  StatusOr<std::vector<uint8_t>> Serialize() const;
  ExecutionStats last_stats() const;
  // A polymorphic executable's own are zeros: each specialisation's are its own
  // (Specialize(...).compile_stats()), their totals in specialization_stats().
  const CompileStats& compile_stats() const;

  // Whether the program has dynamic shapes and specialises itself on Execute.
  bool is_polymorphic() const;
  // The entry parameters (indices, tokens left out) whose values decide shapes: scalar integer
  // parameters whose values flow into shape operands (dimension arguments). Execute reads their
  // values from the device (a small download) to pick the specialisation.
  std::vector<int64_t> shape_arguments() const;
  // The static executable for these argument types (and values of the shape arguments), as
  // Execute would compile it on first use: refinement errors (a shape computation that does not
  // fold, sizes that contradict each other) come back here, naming the op and the values. It
  // is cached like Execute's. For a static executable: itself when the types are its own.
  StatusOr<Executable> Specialize(const std::vector<TensorType>& argument_types,
                                  const std::map<int64_t, int64_t>& argument_values = {}) const;
  SpecializationStats specialization_stats() const;

  explicit Executable(std::shared_ptr<runtime::ExecutableState> state) : state_(std::move(state)) {}
  const std::shared_ptr<runtime::ExecutableState>& state() const { return state_; }

 private:
  std::shared_ptr<runtime::ExecutableState> state_;
};

// How Client::Create picks and opens the device. Every field left unset comes from the
// environment (README, "Environment"), so an embedder can leave the choice to its users.
struct ClientOptions {
  // Which Vulkan device: an index (as vkhlo-info lists them) or a case-insensitive substring of
  // its name. Unset: VKHLO_DEVICE, else the best device there is.
  std::optional<std::string> device;
  // "native" or "mobile" (the capability profiles). Unset: VKHLO_PROFILE, else native.
  std::optional<std::string> profile;
  // Vulkan validation layers, messages to stderr. Unset: VKHLO_VALIDATION.
  std::optional<bool> validation;
  // Most device memory this client reserves, in bytes (a service's share of the GPU; lavapipe
  // would otherwise take system memory up to its heap size). Beyond it, transfers and Execute
  // fail with RESOURCE_EXHAUSTED. Unset: VKHLO_DEVICE_MEMORY_LIMIT, else the heap's size.
  std::optional<uint64_t> device_memory_limit;
  // Bounds of the client's in-memory caches, least recently used out first (docs/design.md,
  // "Caches and limits"); executables that are still held keep what they use. Unset:
  // VKHLO_PIPELINE_CACHE_ENTRIES (default 1024 pipelines), VKHLO_SPIRV_CACHE_BYTES (64 MiB of
  // SPIR-V), VKHLO_EXECUTABLE_CACHE_ENTRIES (ExecuteAndTransfer's executables, default 64).
  std::optional<uint64_t> pipeline_cache_entries;
  std::optional<uint64_t> spirv_cache_bytes;
  std::optional<uint64_t> executable_cache_entries;
  // Specialisations a shape-polymorphic executable keeps (least recently used out). Unset:
  // VKHLO_SPECIALIZATION_CACHE_ENTRIES, default 16.
  std::optional<uint64_t> specialization_cache_entries;
};

class Client {
 public:
  // Opens the device `options` ask for.
  static StatusOr<std::unique_ptr<Client>> Create(ClientOptions options = {});

  // The one way to compile: a program (StableHLO text, a portable artifact, or an
  // XlaComputation: vkhlo/program_source.h) for the device — parse, verify, passes, fusion,
  // kernels, constants uploaded once. An op the device cannot run yet is an UNIMPLEMENTED error
  // naming it and its location. Errors in text carry line:column; in an artifact, the byte
  // offset (and the op's position in the file it was exported from, when the artifact records
  // one); in a computation, its name.
  StatusOr<Executable> Compile(const ProgramSource& source, const CompileOptions& options = {}) const;
  // XLA's spelling of the same (Compile(source) with default options), kept for code written
  // against XLA's client: the executable boxed.
  StatusOr<std::unique_ptr<Executable>> Compile(const XlaComputation& computation) const;
  StatusOr<std::unique_ptr<Executable>> CompileStableHlo(std::string_view program) const;
  StatusOr<std::unique_ptr<Executable>> CompileStableHlo(std::span<const uint8_t> program) const;
  // An executable from a compiled plan (a .vkx file's bytes: Executable::Serialize,
  // `vkhlo-compile -o`), with no compiling: the file is read with bounds checks (DATA_LOSS
  // naming the field and offset for a truncated or corrupted one), the device is checked
  // against what the plan needs (FAILED_PRECONDITION listing what it lacks), pipelines are made
  // of the plan's SPIR-V and its constants uploaded. Host callbacks the plan calls must be
  // registered first (NOT_FOUND naming them). It runs as the executable that was serialized,
  // with the same results.
  StatusOr<Executable> LoadExecutable(std::span<const uint8_t> plan) const;

  // A device tensor holding an array literal's values (any layout; the device keeps them
  // row-major). Tuples and tokens are not tensors: INVALID_ARGUMENT.
  StatusOr<Buffer> TransferToDevice(const Literal& literal) const;

  // Compiles `computation` (once: executables are cached per computation, copies of an
  // XlaComputation share one), transfers `arguments`, runs it and reads the result back: a
  // tuple-shaped result as a tuple Literal. Safe to call from several threads.
  StatusOr<Literal> ExecuteAndTransfer(const XlaComputation& computation, std::vector<const Literal*> arguments) const;
  // How many computations ExecuteAndTransfer has compiled (cache misses), for the curious.
  uint64_t computations_compiled() const;
  // How many executables ExecuteAndTransfer's cache holds now (at most
  // ClientOptions::executable_cache_entries).
  uint64_t cached_executables() const;

  // The host queues of executions outside a process grid (Execute, ExecuteAndTransfer; a grid's
  // processes have their own, process_grid.h), as XLA's Client has them. An `infeed` op takes
  // the oldest entry TransferToInfeed queued (a tuple literal is one entry of several tensors;
  // an infeed on an empty queue fails); an `outfeed` op queues its values, which
  // TransferFromOutfeed takes in order, checking them against `shape` (a tuple shape for
  // several). Thread-safe; entries are shared by every copy of this Client.
  Status TransferToInfeed(const Literal& literal) const;
  StatusOr<Literal> TransferFromOutfeed(const Shape& shape) const;
  // The queues themselves (HostTensors, storage bytes), for byte-level embedders.
  FeedQueue& infeed() const;
  FeedQueue& outfeed() const;

  // A device tensor holding `bytes` (num_elements * bytes per element, storage layout).
  StatusOr<Buffer> BufferFromHost(const TensorType& type, std::span<const uint8_t> bytes) const;

  // "<device name> (<profile>)".
  std::string device_description() const;

  // The custom_call targets this client's compiles resolve (vkhlo/custom_call.h). Shared by
  // copies of the client; thread-safe.
  CustomCallRegistry& custom_calls() const;

  explicit Client(std::shared_ptr<runtime::ClientState> state);
  const std::shared_ptr<runtime::ClientState>& state() const { return state_; }

 private:
  std::shared_ptr<runtime::ClientState> state_;
  std::shared_ptr<runtime::ExecutableCache> cache_;  // ExecuteAndTransfer's; shared by copies
};

}  // namespace vkhlo
