#include "device/fft/fft_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "device/allocator.h"
#include "device/device.h"
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

// VkFFT's description of `d`: lengths innermost first.
VkfftLayout LayoutOf(const FftDescriptor& d, bool in_place) {
  VkfftLayout layout;
  layout.dims = static_cast<uint32_t>(d.lengths.size());
  for (size_t i = 0; i < d.lengths.size(); ++i) layout.size[i] = d.lengths[d.lengths.size() - 1 - i];
  layout.batch = d.batch;
  layout.double_precision = d.precision == FftPrecision::kF64;
  layout.r2c = d.real();
  layout.inverse = d.inverse();
  layout.in_place = in_place;
  return layout;
}

// Invocations per workgroup of fft/real_complex (within every device's limits, mobile's too).
constexpr uint32_t kConversionWorkgroup = 64;

bool Overlap(const BufferView& a, uint64_t a_bytes, const BufferView& b, uint64_t b_bytes) {
  return a.buffer == b.buffer && a.offset < b.offset + b_bytes && b.offset < a.offset + a_bytes;
}

}  // namespace

FftPlan::FftPlan(FftPlanCache& cache, FftDescriptor descriptor)
    : cache_(cache), descriptor_(std::move(descriptor)) {}

FftPlan::~FftPlan() = default;

Status FftPlan::Init() {
  const FftDescriptor& d = descriptor_;
  if (d.empty()) return OkStatus();
  vkfft_ = d;
  vkfft_.lengths.clear();
  for (size_t i = 0; i < d.lengths.size(); ++i) {
    const bool innermost_real = d.real() && i + 1 == d.lengths.size();
    if (d.lengths[i] != 1 || innermost_real) vkfft_.lengths.push_back(d.lengths[i]);
  }
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
    const auto& [in, in_bytes, out, out_bytes, in_place] = it->first;
    if (in == buffer || out == buffer) {
      it = applications_.erase(it);
      cache_.stats_.live_applications--;
    } else {
      ++it;
    }
  }
}

StatusOr<FftPlan::Application*> FftPlan::GetApplication(const BufferView& input,
                                                        const BufferView& output, bool in_place) {
  Device& device = cache_.device();
  const DeviceLimits& limits = device.capabilities().limits;
  // VkFFT binds each VkBuffer from its start; the bound range is the whole block, capped at
  // maxStorageBufferRange, and must reach past the tensor.
  auto bound_bytes = [&](const BufferView& view, uint64_t bytes,
                         std::string_view what) -> StatusOr<uint64_t> {
    std::optional<uint64_t> block = device.allocator().VkBufferBytes(view.buffer);
    if (!block) {
      return InvalidArgumentError(fmt::format(
          "{}: the {} is not a buffer of this device's allocator", descriptor_.ToString(), what));
    }
    uint64_t range = std::min(*block, limits.max_storage_buffer_range);
    if (view.offset + bytes > range) {
      return InvalidArgumentError(fmt::format(
          "{}: the {} ends at byte {} of its VkBuffer, beyond maxStorageBufferRange = {}",
          descriptor_.ToString(), what, view.offset + bytes, limits.max_storage_buffer_range));
    }
    return range;
  };
  VKHLO_ASSIGN_OR_RETURN(uint64_t in_range, bound_bytes(input, vkfft_.input_bytes(), "input"));
  VKHLO_ASSIGN_OR_RETURN(uint64_t out_range, bound_bytes(output, vkfft_.output_bytes(), "output"));
  ApplicationKey key{input.buffer, in_range, output.buffer, out_range, in_place};
  if (auto it = applications_.find(key); it != applications_.end()) return it->second.get();

  VkfftBindings bindings;
  bindings.input = {input.buffer, in_range};
  bindings.output = {output.buffer, out_range};
  if (scratch_ && vkfft_.kind == FftKind::kIrfft) {
    const BufferView s = scratch_.view();
    VKHLO_ASSIGN_OR_RETURN(uint64_t s_range, bound_bytes(s, scratch_.size(), "scratch buffer"));
    bindings.scratch = {s.buffer, s_range};
  }
  auto binary_key = std::make_tuple(in_range, out_range, in_place);
  auto binary_it = binaries_.find(binary_key);
  const std::vector<uint32_t>* binary = binary_it == binaries_.end() ? nullptr : &binary_it->second;

  VkfftContext context;
  context.physical_device = device.physical_device();
  context.device = device.handle();
  context.command_pool = cache_.command_pool_;
  context.fence = cache_.fence_;
  context.limits = &limits;
  const VkfftLayout layout = LayoutOf(vkfft_, in_place);
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

Status FftPlan::RecordVkfft(CommandList& list, const BufferView& input,
                            const BufferView& output) {
  const bool in_place = input.buffer == output.buffer && input.offset == output.offset;
  VKHLO_ASSIGN_OR_RETURN(Application * application, GetApplication(input, output, in_place));
  const uint64_t in_bytes = vkfft_.input_bytes(), out_bytes = vkfft_.output_bytes();
  std::vector<Binding> accesses;
  if (in_place) {
    accesses.push_back({BufferView{input.buffer, input.offset, in_bytes}, Access::kReadWrite});
  } else {
    accesses.push_back({BufferView{input.buffer, input.offset, in_bytes}, Access::kRead});
    accesses.push_back({BufferView{output.buffer, output.offset, out_bytes}, Access::kWrite});
  }
  for (const BufferView& v : application->internal_writes) accesses.push_back({v, Access::kReadWrite});
  const bool uses_scratch = vkfft_.kind == FftKind::kIrfft;
  if (uses_scratch) accesses.push_back({scratch_.view(), Access::kReadWrite});
  const uint64_t scratch_offset = uses_scratch ? scratch_.view().offset : 0;
  return list.RecordExternal(
      "fft " + vkfft_.ToString(), accesses, [&](VkCommandBuffer command_buffer) {
        return application->app->Append(command_buffer, input.offset, output.offset,
                                        scratch_offset);
      });
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

  switch (mode_) {
    case Mode::kVkfft:
      VKHLO_RETURN_IF_ERROR(RecordVkfft(list, input, output));
      break;
    case Mode::kCopy:
      if (!in_place) {
        VKHLO_RETURN_IF_ERROR(
            list.CopyBuffer(BufferView{input.buffer, input.offset, in_bytes}, output));
      }
      break;
    case Mode::kWidenThenFft:
      VKHLO_RETURN_IF_ERROR(RecordConversion(list, input, output, /*to_complex=*/true));
      if (has_vkfft_) VKHLO_RETURN_IF_ERROR(RecordVkfft(list, output, output));
      break;
    case Mode::kIfftThenNarrow:
      if (has_vkfft_) {
        VKHLO_RETURN_IF_ERROR(RecordVkfft(list, input, scratch_.view()));
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
    for (auto& [key, plan] : plans_) plan->Forget(buffer);
  }
}

StatusOr<FftPlan*> FftPlanCache::GetOrCreate(const FftDescriptor& descriptor) {
  VKHLO_RETURN_IF_ERROR(descriptor.Validate());
  if (descriptor.precision == FftPrecision::kF64 &&
      !device_.capabilities().features.shader_float64) {
    const DeviceCapabilities& caps = device_.capabilities();
    return FailedPreconditionError(fmt::format(
        "{}: complex<f64> needs shaderFloat64, which device '{}' (profile {}) does not have",
        descriptor.ToString(), caps.name, caps.profile));
  }
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

FftCacheStats FftPlanCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace vkhlo::device::fft
