// FFT plans: VkFFT transforms compiled once per (descriptor, device) and recorded into command
// lists between other work.
//
//   auto cache = FftPlanCache::Create(device);                  // one per Device, dies first
//   FftDescriptor d{FftKind::kRfft, FftPrecision::kF32, {1024}, /*batch=*/8};
//   auto list = CommandList::Begin(device);
//   (*cache)->Record(*list, d, input.view(), output.view());   // barriers as for a dispatch
//   list->Submit()->Wait();
//
// A plan is the transform for one FftDescriptor. VkFFT binds each buffer from its start (the
// tensor's offset travels in push constants) and bakes the bound size into its kernels, so a
// plan holds one VkFFT application per pair of (input, output) VkBuffers it has been used with;
// the allocator's blocks all share one size, so the kernels are compiled by glslang once and
// later applications load them. Descriptor sets are written once per application and never
// rewritten, so recording never disturbs a submission in flight; applications bound to a
// VkBuffer the allocator destroys are dropped before the handle can be reused.
//
// Hazards: Record declares what the transform reads (input) and writes (output, VkFFT's temp
// buffer, the plan's scratch), so the command list puts barriers exactly where needed, also
// between two transforms of one plan in one list.
//
// Lengths of 1: VkFFT has no radix-1 kernel, and a transform over a length-1 axis is the
// identity, so the plan drops those axes. FFT/IFFT with every length 1 is a copy. A real-side
// innermost length of 1 (RFFT/IRFFT with fft_length [..., 1]) is a real<->complex conversion
// (shaders/fft/real_complex.comp) around a complex FFT/IFFT of the remaining axes.
//
// Tensors beyond maxStorageBufferRange (fft_split.h): a transform whose input, output or
// scratch ends past the range from its VkBuffer's start is recorded as several VkFFT launches,
// each over a run of the batch, the sides that do not fit bound through windows (VkBuffers over
// the tensor's memory, which the plan needs: pass an FftTensor with its VkDeviceMemory). Each
// launch has its own application (the windows differ); launches of the same batch count and
// bound sizes share the compiled kernels: out of place every launch has the same count (the
// last one redoes a few transforms) and windows one size, so a split compiles once; in place
// the last launch has fewer transforms, a second compile. The
// kernels are VkFFT's own, as below the range: the same results, launch by launch. A single
// transform larger than the range is refused (FAILED_PRECONDITION, see SplitError); so is a
// real innermost length of 1 beyond the range (the conversion kernel binds whole tensors).
//
// complex<f64> needs shaderFloat64 in the device's masked capabilities; otherwise creating the
// plan fails with FAILED_PRECONDITION naming the device and its profile.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

#include "device/buffer.h"
#include "device/command_list.h"
#include "device/fft/fft.h"
#include "device/fft/fft_split.h"
#include "device/fft/fft_staged.h"
#include "device/pipeline.h"
#include "vkhlo/status.h"

namespace vkhlo::device {
class Device;
}

namespace vkhlo::device::fft {

class FftPlanCache;
class VkfftApp;
struct VkfftBindings;

struct FftCacheStats {
  uint64_t plans = 0;          // descriptors planned
  uint64_t compiles = 0;       // VkFFT applications compiled with glslang
  uint64_t applications = 0;   // VkFFT applications created (compiled or loaded), ever
  uint64_t live_applications = 0;
  uint64_t records = 0;        // transforms recorded
  uint64_t split_records = 0;  // of those, recorded as several launches (beyond the range)
  uint64_t split_launches = 0; // VkFFT launches of split transforms
  uint64_t live_windows = 0;   // VkBuffers over parts of blocks (fft_split.h)
};

// A tensor for a plan: its view, and the memory bound (at offset 0) to the view's VkBuffer, as
// the allocator binds its blocks. The memory is needed only where the view ends beyond
// maxStorageBufferRange: the plan then binds windows of it.
struct FftTensor {
  BufferView view;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};
// The first `bytes` of `buffer`.
FftTensor TensorOf(const Buffer& buffer, uint64_t bytes);

class FftPlan {
 public:
  ~FftPlan();
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  const FftDescriptor& descriptor() const { return descriptor_; }

  // Records the transform of `input` into `output`. Both are views of buffers from the device's
  // allocator covering at least input_bytes() / output_bytes(), at offsets that are multiples of
  // the element size. `input` and `output` are disjoint (the input is left unchanged), or, for
  // FFT and IFFT only, the same range (in place). An empty descriptor records nothing.
  Status Record(CommandList& list, const BufferView& input, const BufferView& output);
  // The same, for tensors of any size (see the header comment); adds to `split_launches` (if
  // given) the launches of a transform split beyond the range.
  Status Record(CommandList& list, const FftTensor& input, const FftTensor& output,
                uint64_t* split_launches = nullptr);

 private:
  friend class FftPlanCache;
  struct Application;
  // (input VkBuffer, bound bytes, output VkBuffer, bound bytes, scratch VkBuffer, bound bytes,
  // in place, batch entries per launch)
  using ApplicationKey =
      std::tuple<VkBuffer, uint64_t, VkBuffer, uint64_t, VkBuffer, uint64_t, bool, uint64_t>;

  // How the transform runs (see the header comment).
  enum class Mode {
    kVkfft,           // VkFFT on (input, output) with vkfft_
    kCopy,            // FFT/IFFT over length-1 axes only
    kWidenThenFft,    // RFFT [..., 1]: real -> complex into the output, then FFT in place
    kIfftThenNarrow,  // IRFFT [..., 1]: IFFT into the scratch buffer, then real parts
  };

  FftPlan(FftPlanCache& cache, FftDescriptor descriptor);
  Status Init();
  // Records a real <-> complex conversion of `elements` elements.
  Status RecordConversion(CommandList& list, const BufferView& from, const BufferView& to,
                          bool to_complex);
  // Records vkfft_ from `input` to `output` (the same range: in place), in one launch or, beyond
  // the range, several.
  Status RecordVkfft(CommandList& list, const FftTensor& input, const FftTensor& output,
                     uint64_t* split_launches);
  // The application for `batch` entries on these bindings, created on first use.
  StatusOr<Application*> GetApplication(const VkfftBindings& bindings, uint64_t batch,
                                        bool in_place);
  // Drops applications bound to `buffer` (its block, or a window's, was destroyed).
  void Forget(VkBuffer buffer);

  FftPlanCache& cache_;
  FftDescriptor descriptor_;
  Mode mode_ = Mode::kVkfft;
  FftDescriptor vkfft_;  // what VkFFT computes: descriptor_ without length-1 axes
  bool has_vkfft_ = false;
  std::shared_ptr<const Pipeline> conversion_;  // fft/real_complex, for the [..., 1] modes
  Buffer scratch_;  // IRFFT: the complex intermediate
  std::map<ApplicationKey, std::unique_ptr<Application>> applications_;
  // Compiled kernels by bound sizes (input, output, scratch bytes), in place, batch per launch.
  std::map<std::tuple<uint64_t, uint64_t, uint64_t, bool, uint64_t>, std::vector<uint32_t>>
      binaries_;
};

class FftPlanCache {
 public:
  static StatusOr<std::unique_ptr<FftPlanCache>> Create(Device& device);
  // Waits for the device to go idle, then frees every plan. Must run before the Device closes.
  ~FftPlanCache();
  FftPlanCache(const FftPlanCache&) = delete;
  FftPlanCache& operator=(const FftPlanCache&) = delete;

  Device& device() const { return device_; }

  // The plan for `descriptor`, created on first use; it lives as long as the cache.
  StatusOr<FftPlan*> GetOrCreate(const FftDescriptor& descriptor);
  // GetOrCreate(descriptor), then FftPlan::Record.
  Status Record(CommandList& list, const FftDescriptor& descriptor, const BufferView& input,
                const BufferView& output);
  Status Record(CommandList& list, const FftDescriptor& descriptor, const FftTensor& input,
                const FftTensor& output, uint64_t* split_launches = nullptr);

  // The staged form (fft_staged.h), for plans that carry VkFFT's kernels: the kernels VkFFT
  // compiles for `descriptor` on `target` (needs glslang: the full library), and a transform
  // recorded with kernels so made (either library; checked before VkFFT loads them).
  StatusOr<std::vector<uint32_t>> StagedKernels(const FftDescriptor& descriptor, const VkfftTarget& target);
  // `kernels_id` is KernelsId(kernels) (fft_staged.h), computed once by whoever holds them.
  // `launches`, when given, gains the runs of a batch beyond kStagedRunBytes.
  Status RecordStaged(CommandList& list, const FftDescriptor& descriptor, const VkfftTarget& target,
                      std::span<const uint32_t> kernels, uint64_t kernels_id, const BufferView& input,
                      const BufferView& output, uint64_t* launches = nullptr);
  // The staged form with kernels VkFFT compiles here (glslang: the full library), for tensors
  // split across allocations (buffer.h), which no VkFFT binding can span: runs of the batch are
  // copied piece by piece into the staged buffers and out again. Compiled once per descriptor.
  Status RecordStagedCompiled(CommandList& list, const FftDescriptor& descriptor, const BufferView& input,
                              const BufferView& output, uint64_t* launches = nullptr);

  FftCacheStats stats() const;

 private:
  friend class FftPlan;
  // FAILED_PRECONDITION for complex<f64> without shaderFloat64.
  Status CheckPrecision(const FftDescriptor& descriptor) const;
  // Where VkFFT plans: this device, the cache's pool and fence (the queue is set while creating),
  // shown `target` when given, else the device's masked limits.
  VkfftContext ContextFor(const VkfftTarget* target) const;
  explicit FftPlanCache(Device& device) : device_(device) {}
  // Applies the block destructions the allocator reported since the last call. Caller holds
  // mutex_.
  void ForgetDestroyedBuffersLocked();

  Device& device_;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;  // for VkFFT's own uploads
  VkFence fence_ = VK_NULL_HANDLE;
  uint64_t listener_id_ = 0;

  mutable std::mutex mutex_;  // plans, applications, windows, stats, recording through VkFFT
  WindowCache windows_;
  std::map<std::tuple<FftKind, FftPrecision, std::vector<uint64_t>, uint64_t>,
           std::unique_ptr<FftPlan>>
      plans_;
  FftCacheStats stats_;
  // Staged transforms by descriptor, target and kernels (id and word count; compiled here: see
  // kCompiledHere).
  std::map<std::tuple<FftKind, FftPrecision, std::vector<uint64_t>, uint64_t, std::vector<uint32_t>, uint64_t, uint64_t>,
           std::unique_ptr<StagedFft>>
      staged_;
  // The word count keying staged transforms whose kernels VkFFT compiled in this cache (no
  // loaded kernels have that many words).
  static constexpr uint64_t kCompiledHere = UINT64_MAX;
  // RecordStaged and RecordStagedCompiled: `kernels` loaded, or compiled when `compile`.
  Status RecordStagedWith(CommandList& list, const FftDescriptor& descriptor, const VkfftTarget& target,
                          std::span<const uint32_t> kernels, uint64_t kernels_id, bool compile,
                          const BufferView& input, const BufferView& output, uint64_t* launches);

  // Filled by the allocator's callback (under the allocator's lock, so not under mutex_).
  std::mutex destroyed_mutex_;
  std::vector<VkBuffer> destroyed_buffers_;
};

}  // namespace vkhlo::device::fft
