// A thin C++ face on one VkFFT application (vkFFT.h is included by vkfft_app.cc alone).
//
// A VkfftApp is the compiled kernels of one transform (size, batch, precision, kind) with its
// descriptor sets written once for fixed VkBuffers, each bound from its start over `bytes`.
// Tensors inside those buffers are addressed by byte offsets given at each Append (VkFFT's
// specifyOffsetsAtLaunch: offsets travel in push constants), so recording never rewrites a
// descriptor set that a pending command buffer may still use.
//
// VkFFT bakes each buffer's bound size into its shaders, so apps for different buffer sizes
// compile separately; apps with the same layout and sizes are created from the kernels an
// earlier app compiled (Binary()), without running glslang again.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "device/capabilities.h"
#include "vkhlo/status.h"

namespace vkhlo::device::fft {

// The transform, in VkFFT's terms.
struct VkfftLayout {
  uint32_t dims = 1;                // transformed dimensions, 1..3
  uint64_t size[3] = {1, 1, 1};     // innermost first (VkFFT's x, y, z); R2C: x is the real length
  uint64_t batch = 1;               // transforms of that size, stored one after another
  bool double_precision = false;
  bool r2c = false;                 // real <-> complex (RFFT, IRFFT)
  bool inverse = false;             // IFFT, IRFFT (normalized by 1/N)
  bool in_place = false;            // C2C only: input and output are the same range
};

// A VkBuffer bound from offset 0 over `bytes`.
struct VkfftBinding {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t bytes = 0;
};

// input: what the transform reads; output: what it writes; scratch: intermediate complex data,
// only for IRFFT (whose complex input must survive and whose real output is too small).
struct VkfftBindings {
  VkfftBinding input, output, scratch;
};

// What VkFFT plans a transform for: it reads nothing else of the device (vkGetPhysicalDevice-
// Properties' vendor and compute limits). Kernels made for one target load wherever VkFFT is
// shown the same target (VkfftContext::target) and the device offers at least its limits.
struct VkfftTarget {
  uint32_t vendor_id = 0;  // 0: no vendor's tuning (VkFFT's generic settings)
  uint32_t max_workgroup_invocations = 0;
  uint32_t max_shared_memory_bytes = 0;
  uint32_t max_workgroup_size[3] = {0, 0, 0};
  uint32_t max_workgroup_count[3] = {0, 0, 0};
  bool operator==(const VkfftTarget&) const = default;
};

// Where VkFFT runs and what it may assume. `queue` and `command_pool` are used only while an app
// is created (VkFFT uploads tables and waits on `fence`); the caller holds the queue exclusively
// meanwhile. `limits` are the masked limits (the capability profile) VkFFT's kernels must fit.
struct VkfftContext {
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  const DeviceLimits* limits = nullptr;
  // When set, what VkFFT is shown instead of the device's vendor and `limits`.
  const VkfftTarget* target = nullptr;
};

// VkFFT's version (VkFFTGetVersion: 10226 for 1.2.26): kernels saved by one version load only in
// the same one.
uint32_t VkfftVersion();

class VkfftApp {
 public:
  // Compiles the kernels with glslang when `binary` is null; otherwise loads them from `binary`
  // (an earlier app's Binary() for the same layout, binding sizes and target). A build without
  // glslang (the runtime-only library) only loads.
  static StatusOr<std::unique_ptr<VkfftApp>> Create(const VkfftContext& context,
                                                    const VkfftLayout& layout,
                                                    const VkfftBindings& bindings,
                                                    const std::vector<uint32_t>* binary);
  ~VkfftApp();
  VkfftApp(const VkfftApp&) = delete;
  VkfftApp& operator=(const VkfftApp&) = delete;

  // The compiled kernels (empty for an app loaded from a binary).
  const std::vector<uint32_t>& Binary() const { return binary_; }
  // Words of the binary VkFFT read while loading (0 for a compiled app).
  uint64_t WordsLoaded() const;

  // Buffers VkFFT allocated for itself and writes while it runs (its four-step temp buffer), as
  // (VkBuffer, bytes); the caller tracks hazards on them.
  std::vector<VkfftBinding> InternalWrittenBuffers() const;

  // Records the transform into `command_buffer`; offsets are in bytes within the bindings and
  // must be multiples of the element size. Not thread-safe (the app keeps launch state).
  Status Append(VkCommandBuffer command_buffer, uint64_t input_offset, uint64_t output_offset,
                uint64_t scratch_offset);

 private:
  struct Impl;
  explicit VkfftApp(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  std::vector<uint32_t> binary_;
};

}  // namespace vkhlo::device::fft
