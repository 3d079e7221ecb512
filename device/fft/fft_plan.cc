#include "device/fft/fft_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "device/allocator.h"
#include "device/device.h"
#include "device/fft/fft_staged.h"
#include "device/fft/vkfft_app.h"
#include "device/queue.h"
#include "device/vk_status.h"
#include "embedded_shaders.h"

namespace vkhlo::device::fft {

struct FftPlan::Application {
  std::unique_ptr<VkfftApp> app;
  std::vector<BufferView> internal_writes;  // VkFFT's own temp buffer
};

namespace {

// Invocations per workgroup of fft/real_complex (within every device's limits, mobile's too).
constexpr uint32_t kConversionWorkgroup = 64;

bool Overlap(const BufferView& a, uint64_t a_bytes, const BufferView& b, uint64_t b_bytes) {
  return a.buffer == b.buffer && a.offset < b.offset + b_bytes && b.offset < a.offset + a_bytes;
}

// Makes every earlier write available and visible to every later access, whichever VkBuffer
// names the memory.
void GlobalBarrier(VkCommandBuffer command_buffer) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  const VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  vkCmdPipelineBarrier(command_buffer, stages, stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace

FftTensor TensorOf(const Buffer& buffer, uint64_t bytes) {
  return FftTensor{buffer.view(0, bytes), buffer.memory()};
}

FftPlan::FftPlan(FftPlanCache& cache, FftDescriptor descriptor)
    : cache_(cache), descriptor_(std::move(descriptor)) {}

FftPlan::~FftPlan() = default;

Status FftPlan::Init() {
  const FftDescriptor& d = descriptor_;
  if (d.empty()) return OkStatus();
  vkfft_ = WithoutUnitAxes(d);
  const bool real_length_one = d.real() && d.lengths.back() == 1;
  if (real_length_one) {
    // The remaining axes are a complex transform of the widened input (RFFT) or one whose real
    // parts are the result (IRFFT).
    vkfft_.lengths.pop_back();
    vkfft_.kind = d.kind == FftKind::kRfft ? FftKind::kFft : FftKind::kIfft;
    mode_ = d.kind == FftKind::kRfft ? Mode::kWidenThenFft : Mode::kIfftThenNarrow;
    const shaders::EmbeddedShader* shader = shaders::FindShader("fft/real_complex");
    if (shader == nullptr) return InternalError("the shader fft/real_complex is not embedded");
    ComputePipelineDesc desc;
    desc.name = "fft/real_complex";
    desc.spirv = shader->spirv;
    desc.workgroup_base_offset = 0;
    desc.specialization = {SpecUint(0, kConversionWorkgroup)};
    VKHLO_ASSIGN_OR_RETURN(conversion_, cache_.device().pipelines().GetOrCreate(desc));
  } else if (vkfft_.lengths.empty()) {
    mode_ = Mode::kCopy;
  }
  has_vkfft_ = !vkfft_.lengths.empty();
  if (has_vkfft_ && (d.kind == FftKind::kIrfft)) {
    // IRFFT's later axes run in place on complex data: neither the input (which must survive)
    // nor the real output (too small) can hold it. The [..., 1] case transforms into it.
    VKHLO_ASSIGN_OR_RETURN(
        scratch_, cache_.device().allocator().Allocate(d.complex_elements() * d.complex_bytes()));
  }
  return OkStatus();
}

void FftPlan::Forget(VkBuffer buffer) {
  for (auto it = applications_.begin(); it != applications_.end();) {
    const auto& [in, in_bytes, out, out_bytes, scratch, scratch_bytes, in_place, batch] =
        it->first;
    if (in == buffer || out == buffer || scratch == buffer) {
      it = applications_.erase(it);
      cache_.stats_.live_applications--;
    } else {
      ++it;
    }
  }
}

StatusOr<FftPlan::Application*> FftPlan::GetApplication(const VkfftBindings& bindings,
                                                        uint64_t batch, bool in_place) {
  Device& device = cache_.device();
  ApplicationKey key{bindings.input.buffer,   bindings.input.bytes, bindings.output.buffer,
                     bindings.output.bytes,   bindings.scratch.buffer, bindings.scratch.bytes,
                     in_place,                batch};
  if (auto it = applications_.find(key); it != applications_.end()) return it->second.get();

  auto binary_key = std::make_tuple(bindings.input.bytes, bindings.output.bytes,
                                    bindings.scratch.bytes, in_place, batch);
  auto binary_it = binaries_.find(binary_key);
  const std::vector<uint32_t>* binary = binary_it == binaries_.end() ? nullptr : &binary_it->second;

  VkfftContext context = cache_.ContextFor(nullptr);
  VkfftLayout layout = VkfftLayoutOf(vkfft_, in_place);
  layout.batch = batch;
  std::unique_ptr<VkfftApp> app;
  Status status = device.queue().WithExclusiveQueue([&](VkQueue queue) -> Status {
    context.queue = queue;
    VKHLO_ASSIGN_OR_RETURN(app, VkfftApp::Create(context, layout, bindings, binary));
    return OkStatus();
  });
  VKHLO_RETURN_IF_ERROR(status.WithContext("planning " + descriptor_.ToString()));

  cache_.stats_.applications++;
  cache_.stats_.live_applications++;
  if (binary == nullptr) {
    cache_.stats_.compiles++;
    if (!app->Binary().empty()) binaries_[binary_key] = app->Binary();
  }
  auto entry = std::make_unique<Application>();
  for (const VkfftBinding& b : app->InternalWrittenBuffers()) {
    entry->internal_writes.push_back(BufferView{b.buffer, 0, b.bytes});
  }
  entry->app = std::move(app);
  Application* raw = entry.get();
  applications_[key] = std::move(entry);
  return raw;
}

Status FftPlan::RecordVkfft(CommandList& list, const FftTensor& input, const FftTensor& output,
                            uint64_t* split_launches) {
  Device& device = cache_.device();
  const uint64_t range = device.capabilities().limits.max_storage_buffer_range;
  const bool in_place = input.view.buffer == output.view.buffer &&
                        input.view.offset == output.view.offset;
  const bool uses_scratch = vkfft_.kind == FftKind::kIrfft;
  const uint64_t batch = vkfft_.batch;

  // The sides VkFFT binds. Each is bound from its VkBuffer's start, over the whole block capped
  // at the range, when it ends within that; otherwise through windows (fft_split.h).
  struct Side {
    std::string_view what;
    FftTensor tensor;
    uint64_t bytes = 0;
    uint64_t block = 0;  // bytes of the VkBuffer
    bool windowed = false;
  };
  std::vector<Side> sides = {{"input", input, vkfft_.input_bytes()},
                             {"output", output, vkfft_.output_bytes()}};
  if (uses_scratch) {
    sides.push_back({"scratch buffer", FftTensor{scratch_.view(), scratch_.memory()},
                     vkfft_.complex_elements() * vkfft_.complex_bytes()});
  }
  std::vector<SplitSide> split_sides;
  bool any_windowed = false;
  for (Side& side : sides) {
    std::optional<uint64_t> block = device.allocator().VkBufferBytes(side.tensor.view.buffer);
    if (!block) {
      return InvalidArgumentError(fmt::format(
          "{}: the {} is not a buffer of this device's allocator", descriptor_.ToString(),
          side.what));
    }
    side.block = *block;
    side.windowed = side.tensor.view.offset + side.bytes > std::min(*block, range);
    if (side.windowed && side.tensor.memory == VK_NULL_HANDLE) {
      return InvalidArgumentError(fmt::format(
          "{}: the {} ends at byte {} of its VkBuffer, beyond maxStorageBufferRange = {}, and "
          "its memory was not given (record it as an FftTensor)",
          descriptor_.ToString(), side.what, side.tensor.view.offset + side.bytes, range));
    }
    any_windowed |= side.windowed;
    split_sides.push_back({side.bytes / batch, side.windowed});
  }

  const uint64_t alignment = cache_.windows_.Alignment();
  const uint64_t window_bytes = WindowBytes(range, alignment);
  BatchSplit split{batch, 1};
  if (any_windowed) {
    VKHLO_ASSIGN_OR_RETURN(split, PlanBatchSplit(vkfft_, split_sides, window_bytes, alignment));
  }

  for (uint64_t launch = 0; launch < split.launches; ++launch) {
    // Out of place, the last launch moves back to end at the batch's end, redoing a few (fewer
    // than `launches`) transforms with the same inputs, kernels and results: every launch then
    // has the same count and the same kernels (one glslang compile, not two). In place, the
    // inputs of redone transforms would be gone.
    uint64_t first = launch * split.per_launch;
    if (!in_place) first = std::min(first, batch - split.per_launch);
    const uint64_t count = std::min(split.per_launch, batch - first);
    VkfftBinding bound[3];
    uint64_t offsets[3] = {0, 0, 0};
    std::vector<Binding> accesses;
    for (size_t i = 0; i < sides.size(); ++i) {
      const Side& side = sides[i];
      const uint64_t per_transform = split_sides[i].bytes_per_transform;
      const uint64_t start = side.tensor.view.offset + first * per_transform;
      const BufferView run{side.tensor.view.buffer, start, count * per_transform};
      if (side.windowed) {
        // Aligned just below the run; the window ends at the block's end at the latest, and
        // the run (at most window_bytes - alignment bytes) fits in it.
        uint64_t window_start = start / alignment * alignment;
        uint64_t window_size = window_bytes;
        if (window_start + window_bytes > side.block) {
          // Near the block's end: a window of the usual size ending there if it still holds the
          // run (the same bound size, so the same kernels), else a shorter one.
          const uint64_t shifted = (side.block - window_bytes) / alignment * alignment;
          if (side.block >= window_bytes && shifted + window_bytes >= run.offset + run.size) {
            window_start = shifted;
          } else {
            window_size = side.block - window_start;
          }
        }
        VKHLO_ASSIGN_OR_RETURN(
            VkBuffer window, cache_.windows_.Get(side.tensor.view.buffer, side.tensor.memory,
                                                 window_start, window_size));
        bound[i] = {window, window_size};
        offsets[i] = start - window_start;
      } else {
        bound[i] = {side.tensor.view.buffer, std::min(side.block, range)};
        offsets[i] = start;
      }
      // Hazards are tracked on the tensors' own VkBuffers, whatever binds them.
      if (i == 0 && in_place) {
        accesses.push_back({run, Access::kReadWrite});
      } else if (i == 1 && in_place) {
        continue;
      } else {
        accesses.push_back({run, i == 0 ? Access::kRead : i == 1 ? Access::kWrite
                                                                  : Access::kReadWrite});
      }
    }
    VkfftBindings bindings;
    bindings.input = bound[0];
    bindings.output = bound[1];
    if (uses_scratch) bindings.scratch = bound[2];
    VKHLO_ASSIGN_OR_RETURN(Application * application,
                           GetApplication(bindings, count, in_place));
    for (const BufferView& v : application->internal_writes) {
      accesses.push_back({v, Access::kReadWrite});
    }
    VKHLO_RETURN_IF_ERROR(list.RecordExternal(
        "fft " + vkfft_.ToString(), accesses, [&](VkCommandBuffer command_buffer) -> Status {
          // The command list's barriers name the tensors' VkBuffers; accesses through a window
          // (another VkBuffer over the same memory) need global ones, before and after.
          if (any_windowed) GlobalBarrier(command_buffer);
          VKHLO_RETURN_IF_ERROR(
              application->app->Append(command_buffer, offsets[0], offsets[1], offsets[2]));
          if (any_windowed) GlobalBarrier(command_buffer);
          return OkStatus();
        }));
  }
  if (split.launches > 1 || any_windowed) {
    cache_.stats_.split_records++;
    cache_.stats_.split_launches += split.launches;
    if (split_launches != nullptr) *split_launches += split.launches;
  }
  return OkStatus();
}

Status FftPlan::RecordConversion(CommandList& list, const BufferView& from, const BufferView& to,
                                 bool to_complex) {
  const FftDescriptor& d = descriptor_;
  const uint64_t elements = d.real_elements();  // = complex_elements() for [..., 1]
  const uint32_t local = kConversionWorkgroup;
  const uint64_t groups = (elements + local - 1) / local;
  if (elements > UINT32_MAX || groups > UINT32_MAX) {
    return InvalidArgumentError(fmt::format("{}: more than 2^32 elements", d.ToString()));
  }
  struct Push {
    uint32_t base[4];
    uint32_t groups[4];
    uint32_t count;
    uint32_t words;
    uint32_t to_complex;
  } push{{0, 0, 0, 0},
         {static_cast<uint32_t>(groups), 1, 1, 0},
         static_cast<uint32_t>(elements),
         static_cast<uint32_t>(d.real_bytes() / 4),
         to_complex ? 1u : 0u};
  const uint64_t real_bytes = elements * d.real_bytes(), complex_bytes = 2 * real_bytes;
  const Binding bindings[] = {
      {BufferView{from.buffer, from.offset, to_complex ? real_bytes : complex_bytes}, Access::kRead},
      {BufferView{to.buffer, to.offset, to_complex ? complex_bytes : real_bytes}, Access::kWrite}};
  return list.Dispatch(*conversion_, bindings, AsBytes(push),
                       GridSize{static_cast<uint32_t>(groups), 1, 1});
}

Status FftPlan::Record(CommandList& list, const BufferView& input, const BufferView& output) {
  return Record(list, FftTensor{input}, FftTensor{output});
}

Status FftPlan::Record(CommandList& list, const FftTensor& input_tensor,
                       const FftTensor& output_tensor, uint64_t* split_launches) {
  const BufferView& input = input_tensor.view;
  const BufferView& output = output_tensor.view;
  std::lock_guard<std::mutex> lock(cache_.mutex_);
  cache_.ForgetDestroyedBuffersLocked();
  const FftDescriptor& d = descriptor_;
  if (d.empty()) return OkStatus();
  const uint64_t in_bytes = d.input_bytes(), out_bytes = d.output_bytes();
  if (input.size < in_bytes || output.size < out_bytes) {
    return InvalidArgumentError(fmt::format(
        "{}: needs {} input and {} output bytes, the views have {} and {}", d.ToString(),
        in_bytes, out_bytes, input.size, output.size));
  }
  const uint64_t in_align = d.kind == FftKind::kRfft ? d.real_bytes() : d.complex_bytes();
  const uint64_t out_align = d.kind == FftKind::kIrfft ? d.real_bytes() : d.complex_bytes();
  if (input.offset % in_align != 0 || output.offset % out_align != 0) {
    return InvalidArgumentError(fmt::format(
        "{}: buffer offsets {} and {} must be multiples of the element sizes {} and {}",
        d.ToString(), input.offset, output.offset, in_align, out_align));
  }
  const bool in_place = input.buffer == output.buffer && input.offset == output.offset;
  if (in_place && d.real()) {
    return InvalidArgumentError(fmt::format(
        "{}: RFFT and IRFFT run out of place (input and output have different sizes)",
        d.ToString()));
  }
  if (!in_place && Overlap(input, in_bytes, output, out_bytes)) {
    return InvalidArgumentError(
        fmt::format("{}: input and output overlap without being the same range", d.ToString()));
  }

  if ((mode_ == Mode::kWidenThenFft || mode_ == Mode::kIfftThenNarrow) &&
      std::max(d.complex_elements() * d.complex_bytes(), d.real_elements() * d.real_bytes()) >
          cache_.device().capabilities().limits.max_storage_buffer_range) {
    return FailedPreconditionError(fmt::format(
        "{}: a real innermost length of 1 beyond maxStorageBufferRange = {} is not supported (its "
        "real <-> complex conversion binds whole tensors)",
        d.ToString(), cache_.device().capabilities().limits.max_storage_buffer_range));
  }
  const FftTensor scratch{scratch_ ? scratch_.view() : BufferView{}, scratch_.memory()};
  switch (mode_) {
    case Mode::kVkfft:
      VKHLO_RETURN_IF_ERROR(RecordVkfft(list, input_tensor, output_tensor, split_launches));
      break;
    case Mode::kCopy:
      if (!in_place) {
        VKHLO_RETURN_IF_ERROR(
            list.CopyBuffer(BufferView{input.buffer, input.offset, in_bytes}, output));
      }
      break;
    case Mode::kWidenThenFft:
      VKHLO_RETURN_IF_ERROR(RecordConversion(list, input, output, /*to_complex=*/true));
      if (has_vkfft_) {
        VKHLO_RETURN_IF_ERROR(RecordVkfft(list, output_tensor, output_tensor, split_launches));
      }
      break;
    case Mode::kIfftThenNarrow:
      if (has_vkfft_) {
        VKHLO_RETURN_IF_ERROR(RecordVkfft(list, input_tensor, scratch, split_launches));
        VKHLO_RETURN_IF_ERROR(RecordConversion(list, scratch_.view(), output, false));
      } else {
        VKHLO_RETURN_IF_ERROR(RecordConversion(list, input, output, /*to_complex=*/false));
      }
      break;
  }
  cache_.stats_.records++;
  return OkStatus();
}

StatusOr<std::unique_ptr<FftPlanCache>> FftPlanCache::Create(Device& device) {
  VKHLO_RETURN_IF_ERROR(device.CheckAlive());
  std::unique_ptr<FftPlanCache> cache(new FftPlanCache(device));
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = device.queue().family_index();
  VKHLO_DEVICE_RETURN_IF_ERROR(
      device, vkCreateCommandPool(device.handle(), &pool_info, nullptr, &cache->command_pool_));
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VKHLO_DEVICE_RETURN_IF_ERROR(
      device, vkCreateFence(device.handle(), &fence_info, nullptr, &cache->fence_));
  VKHLO_RETURN_IF_ERROR(
      cache->windows_.Init(device.handle(), device.capabilities().limits.max_storage_buffer_range));
  FftPlanCache* raw = cache.get();
  cache->listener_id_ = device.allocator().AddBlockDestroyedListener([raw](VkBuffer buffer) {
    std::lock_guard<std::mutex> lock(raw->destroyed_mutex_);
    raw->destroyed_buffers_.push_back(buffer);
  });
  return cache;
}

FftPlanCache::~FftPlanCache() {
  // VkFFT's pipelines and buffers may still be in use by submitted work.
  device_.Drain();  // also when lost: transforms recorded before the loss may still run
  if (listener_id_ != 0) device_.allocator().RemoveBlockDestroyedListener(listener_id_);
  plans_.clear();
  staged_.clear();
  if (fence_ != VK_NULL_HANDLE) vkDestroyFence(device_.handle(), fence_, nullptr);
  if (command_pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_.handle(), command_pool_, nullptr);
}

void FftPlanCache::ForgetDestroyedBuffersLocked() {
  std::vector<VkBuffer> destroyed;
  {
    std::lock_guard<std::mutex> lock(destroyed_mutex_);
    destroyed.swap(destroyed_buffers_);
  }
  for (VkBuffer buffer : destroyed) {
    // Applications bound to the block or to windows over it go first, then the windows.
    const std::vector<VkBuffer> windows = windows_.Take(buffer);
    for (auto& [key, plan] : plans_) {
      plan->Forget(buffer);
      for (VkBuffer window : windows) plan->Forget(window);
    }
    windows_.Destroy(windows);
  }
}

VkfftContext FftPlanCache::ContextFor(const VkfftTarget* target) const {
  VkfftContext context;
  context.physical_device = device_.physical_device();
  context.device = device_.handle();
  context.command_pool = command_pool_;
  context.fence = fence_;
  context.limits = &device_.capabilities().limits;
  context.target = target;
  return context;
}

Status FftPlanCache::CheckPrecision(const FftDescriptor& descriptor) const {
  VKHLO_RETURN_IF_ERROR(descriptor.Validate());
  if (descriptor.precision == FftPrecision::kF64 &&
      !device_.capabilities().features.shader_float64) {
    const DeviceCapabilities& caps = device_.capabilities();
    return FailedPreconditionError(fmt::format(
        "{}: complex<f64> needs shaderFloat64, which device '{}' (profile {}) does not have",
        descriptor.ToString(), caps.name, caps.profile));
  }
  return OkStatus();
}

StatusOr<FftPlan*> FftPlanCache::GetOrCreate(const FftDescriptor& descriptor) {
  VKHLO_RETURN_IF_ERROR(CheckPrecision(descriptor));
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = std::make_tuple(descriptor.kind, descriptor.precision, descriptor.lengths,
                             descriptor.batch);
  if (auto it = plans_.find(key); it != plans_.end()) return it->second.get();
  std::unique_ptr<FftPlan> plan(new FftPlan(*this, descriptor));
  VKHLO_RETURN_IF_ERROR(plan->Init());
  stats_.plans++;
  FftPlan* raw = plan.get();
  plans_[key] = std::move(plan);
  return raw;
}

Status FftPlanCache::Record(CommandList& list, const FftDescriptor& descriptor,
                            const BufferView& input, const BufferView& output) {
  VKHLO_ASSIGN_OR_RETURN(FftPlan * plan, GetOrCreate(descriptor));
  return plan->Record(list, input, output);
}

Status FftPlanCache::Record(CommandList& list, const FftDescriptor& descriptor,
                            const FftTensor& input, const FftTensor& output,
                            uint64_t* split_launches) {
  VKHLO_ASSIGN_OR_RETURN(FftPlan * plan, GetOrCreate(descriptor));
  return plan->Record(list, input, output, split_launches);
}

FftCacheStats FftPlanCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  FftCacheStats stats = stats_;
  stats.live_windows = windows_.live();
  return stats;
}

}  // namespace vkhlo::device::fft
