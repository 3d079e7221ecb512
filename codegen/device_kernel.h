// Device kernels: how ops that are not elemental (reduce, reduce_window, dot_general,
// convolution, sort, scatter, rng_bit_generator, ...) run on the device.
//
// The fusion planner (fusion.h) makes such an op a Fusion of its own with `device_op` set: its
// inputs are the buffers it reads (the op's operands and the values its regions capture), its
// outputs the op's results. Later the same Fusion may also hold elemental producers of the
// op's operands (a prologue) and element-wise consumers of its results (an epilogue), computed
// inside the device kernel through the elemental emitter; `outputs` then lists what the kernel
// writes. The emitter registered for the op's code turns the Fusion into a DeviceKernel: one
// or more dispatches, recorded in order (each sees the previous one's writes), each binding
// fusion inputs, fusion outputs or scratch buffers.
//
// Conventions (as codegen's loop kernels, kernel.h): every binding is a `uint[]` storage buffer
// at set 0, binding i = bindings[i]; push constants start with the uvec4 workgroup base at byte
// offset 0 (the device layer fills it when it splits a grid beyond maxComputeWorkGroupCount;
// shaders/include/vkhlo_dispatch.glsl) and continue with the dispatch's `push_words` at byte
// offset 16. Grids may exceed maxComputeWorkGroupCount in x; the kernel adds the base. The
// device binds exactly the bindings the SPIR-V declares, so a kernel must not let the optimizer
// drop an unused one (the shader writer's keep statement does that: shader_writer.h).
//
//   const DeviceKernelEmitter* e = FindDeviceKernelEmitter(op);       // nullptr: not supported
//   StatusOr<DeviceKernel> kernel = e->emit(fusion, target, options);  // GLSL per dispatch
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/fusion.h"
#include "codegen/kernel.h"
#include "codegen/shader_writer.h"
#include "codegen/target.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen {

// A buffer a dispatch binds.
struct KernelBuffer {
  enum class Kind {
    kValue,     // a fusion input or output (`value`)
    kScratch,   // DeviceKernel::scratch_bytes[scratch], alive during this kernel's dispatches
    kConstant,  // DeviceKernel::constant_words[scratch]: uploaded once when compiled, read only
  };
  Kind kind = Kind::kValue;
  const ir::Value* value = nullptr;
  int scratch = -1;  // the index of a scratch or constant buffer
  bool written = false;  // the dispatch writes it (outputs must be written by some dispatch)

  static KernelBuffer Read(const ir::Value* v) { return {Kind::kValue, v, -1, false}; }
  static KernelBuffer Write(const ir::Value* v) { return {Kind::kValue, v, -1, true}; }
  static KernelBuffer Scratch(int index, bool written) { return {Kind::kScratch, nullptr, index, written}; }
  static KernelBuffer Constant(int index) { return {Kind::kConstant, nullptr, index, false}; }
};

struct KernelDispatch {
  std::string name;  // "fusion_3.reduce_rows" (pipeline name in messages, timings, dumps)
  std::string glsl;  // a complete compute shader
  std::string summary;  // what it computes (a comment in dumps)
  std::array<uint32_t, 3> grid = {1, 1, 1};  // workgroups; 0 in any dimension: skipped
  std::vector<KernelBuffer> bindings;
  std::vector<uint32_t> push_words;       // push constants after the 16-byte workgroup base
  uint32_t required_subgroup_size = 0;    // 0: the driver's choice
  // It only copies inputs to the outputs that may share their buffers (DeviceKernel::in_place):
  // skipped when the runtime made every such output share its input's buffer.
  bool skip_in_place = false;
  // For profiles (include/vkhlo/profile.h): the configuration by name where the emitter has one
  // (a library tile config, "cpu.packed_12x64"; empty: the name's suffix says the strategy), and
  // the floating-point operations the dispatch does where known (2 per multiply-add of a
  // matmul or convolution product; 0: unknown).
  std::string config;
  uint64_t flops = 0;
};

// An output that may be written into an input's buffer (codegen/in_place.h): indices into the
// fusion's outputs and inputs; `bytes_written` is what the dispatches that still run write to it.
struct InPlaceOutput {
  int output = 0;
  int input = 0;
  uint64_t bytes_written = 0;
};

struct DeviceKernel {
  std::string summary;                  // the ops, the strategy and why (dumps, tests)
  std::vector<uint64_t> scratch_bytes;  // per scratch buffer
  // Tables the kernel reads (e.g. per-channel quantization constants), uploaded once when the
  // kernel is compiled and held by the executable: a table in a buffer, not in GLSL text,
  // because drivers compile large constant arrays slowly (llvmpipe: minutes).
  std::vector<std::vector<uint32_t>> constant_words;
  std::vector<KernelDispatch> dispatches;
  // Every bound buffer's offset must be a multiple of this (vector loads need more than 4).
  uint32_t binding_alignment = 4;
  std::vector<InPlaceOutput> in_place;
};

// Bytes a scratch or constant buffer `b` of `kernel` takes (0 for values and bad indices).
inline uint64_t InternalBufferBytes(const DeviceKernel& kernel, const KernelBuffer& b) {
  if (b.scratch < 0) return 0;
  const auto i = static_cast<size_t>(b.scratch);
  if (b.kind == KernelBuffer::Kind::kScratch) return i < kernel.scratch_bytes.size() ? kernel.scratch_bytes[i] : 0;
  if (b.kind == KernelBuffer::Kind::kConstant) {
    return i < kernel.constant_words.size() ? kernel.constant_words[i].size() * sizeof(uint32_t) : 0;
  }
  return 0;
}

using DeviceKernelEmitFn = StatusOr<DeviceKernel> (*)(const Fusion& fusion, const TargetInfo& target,
                                                      const KernelOptions& options);

struct DeviceKernelEmitter {
  DeviceKernelEmitFn emit = nullptr;
  // Whether the op accepts `op` (its types and attributes); false: the compile error
  // "not supported on the Vulkan backend yet" names the op. nullptr: every instance.
  bool (*accepts)(const ir::Operation& op) = nullptr;
  // Opt-in epilogue fusion (fusion.h): the element-wise ops after `op` (in its block, program
  // order) that the kernel computes itself, the values they read besides those, and the values
  // it stores (`outputs`: the chain's last result, or several whose other uses all come after
  // the last of `ops`). The planner then puts them in the Fusion's ops (after `op`), binds
  // `inputs` as fusion inputs and `outputs` as its outputs. false or nullptr: no epilogue.
  bool (*absorb_epilogue)(const ir::Operation& op, const TargetInfo& target, std::vector<const ir::Operation*>& ops,
                          std::vector<const ir::Value*>& inputs, std::vector<const ir::Value*>& outputs) = nullptr;
  // Opt-in prologue fusion (fusion.h): elemental producers of the op's operands that are read
  // once per element (or cheap to recompute) join the op's Fusion, and the emitter computes
  // them at each element's index through the elemental emitter instead of reading a buffer.
  // `fusion.ops` then lists the producers too and `fusion.inputs` the buffers they read.
  bool fuses_operand_producers = false;
  // Opt-in epilogue fusion (fusion.h): element-wise consumers of the op's results (of the
  // results' shape, reading them only at the same index) join the op's Fusion as further
  // `outputs` after the op's results; the emitter computes them from each result element.
  bool fuses_result_consumers = false;
  // Opt-in: scalar roots of element-wise trees (a loop counter's step) may join the op's
  // Fusion as further outputs after its own (and their ops and inputs with them), computed
  // once by the kernel (fusion.cc's ScalarHost), so they cost no dispatch of their own.
  bool hosts_scalars = false;
};

class DeviceKernelTable {
 public:
  void Register(ir::OpCode code, DeviceKernelEmitter emitter);
  const DeviceKernelEmitter* Find(ir::OpCode code) const;

 private:
  std::vector<DeviceKernelEmitter> table_;
};

// Every device kernel emitter (device_kernel_table.cc calls the Register* functions below).
const DeviceKernelTable& DeviceKernelEmitters();

// The emitter for `op`, or nullptr when the op is not a device op (or not this instance).
const DeviceKernelEmitter* FindDeviceKernelEmitter(const ir::Operation& op);
inline bool IsDeviceOp(const ir::Operation& op) { return FindDeviceKernelEmitter(op) != nullptr; }

// Helpers for fixed-text emitters (sort, linalg, random), through the shader writer
// (shader_writer.h): the prologue of a kernel (version, extensions, the header, the workgroup
// size, `uint[]` bindings named b0, b1, ... readonly or, when written, read-write, and the push
// constant block `pc`: the workgroup base followed by `push_fields`, e.g. "uint stride; uint
// count;"). Kernel bodies use `vkhlo_workgroup_id(pc)` (shaders/include/vkhlo_dispatch.glsl
// semantics, defined by the writer).
//
// `facts` fill the header every kernel gets (shader_writer.h): the dispatch's name, the variant
// chosen and why, the op it computes with its location; the binding table says what each binding
// holds (a value's type, or a scratch or constant buffer).
struct KernelHeaderFacts {
  std::string name;                 // the dispatch's name ("fusion_3.sort_runs")
  std::vector<std::string> config;  // the variant chosen, a line each
  std::vector<std::string> why;     // why that variant, a line each
  const ir::Operation* op = nullptr;
  std::string source_name;          // for the op's location
};
std::string DeviceKernelHeader(const std::vector<KernelBuffer>& bindings, std::array<uint32_t, 3> workgroup_size,
                               const std::string& push_fields = "", const std::vector<std::string>& extensions = {},
                               const KernelHeaderFacts& facts = {});
// The writer's statement for the start of main() that keeps every binding b0..bN-1 of
// DeviceKernelHeader in the module (never executes).
std::string KeepBindingsStatement(size_t num_bindings);

// Registration of each family (one file each; device_kernel_table.cc calls them).
// (Families add their Register* declaration here.)
void RegisterLibraryKernels(DeviceKernelTable& table);  // dot_general, dot, convolution (codegen/library)
void RegisterReductionKernels(DeviceKernelTable& table);  // codegen/reduction/
void RegisterIndexingKernels(DeviceKernelTable& table);
void RegisterSortKernels(DeviceKernelTable& table);
void RegisterLinalgKernels(DeviceKernelTable& table);
void RegisterRandomKernels(DeviceKernelTable& table);
void RegisterAllDeviceKernels(DeviceKernelTable& table);

// Tests: registers (or replaces) an emitter at run time.
void RegisterDeviceKernelForTesting(ir::OpCode code, DeviceKernelEmitter emitter);

}  // namespace vkhlo::codegen
