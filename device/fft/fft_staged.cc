#include "device/fft/fft_staged.h"

#include <fmt/format.h>

#include <algorithm>

#include "device/device.h"
#include "device/fft/fft_plan.h"
#include "device/queue.h"
#include "device/vk_status.h"
#include "embedded_shaders.h"

namespace vkhlo::device::fft {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
// Inert modules after a plan's kernels (see the header): more than VkFFT ever asks for in one
// application (three axes, each with its R2C and Bluestein kernels, both directions).
constexpr int kSentinels = 64;

// `kernels` as VkFFT saves them: modules one after another, each its byte count then its words.
Status CheckKernels(std::span<const uint32_t> kernels, const std::string& what) {
  size_t at = 0;
  int modules = 0;
  while (at < kernels.size()) {
    const uint32_t bytes = kernels[at];
    const size_t words = bytes / 4;
    if (bytes < 20 || bytes % 4 != 0 || words > kernels.size() - at - 1) {
      return InvalidArgumentError(fmt::format("{}: VkFFT kernel {} at word {} claims {} bytes, which {}", what,
                                              modules, at, bytes,
                                              bytes < 20 || bytes % 4 != 0 ? "is no SPIR-V module's size"
                                                                            : "runs past the kernels' end"));
    }
    if (kernels[at + 1] != kSpirvMagic) {
      return InvalidArgumentError(fmt::format("{}: VkFFT kernel {} at word {} is not SPIR-V (magic {:#x})", what,
                                              modules, at, kernels[at + 1]));
    }
    at += 1 + words;
    ++modules;
  }
  return OkStatus();
}

}  // namespace

VkfftTarget GenericTargetOf(const Device& device) {
  const DeviceLimits& l = device.capabilities().limits;
  VkfftTarget t;
  t.vendor_id = 0;
  t.max_workgroup_invocations = l.max_workgroup_invocations;
  t.max_shared_memory_bytes = l.max_shared_memory_bytes;
  for (int i = 0; i < 3; ++i) {
    t.max_workgroup_size[i] = l.max_workgroup_size[i];
    t.max_workgroup_count[i] = l.max_workgroup_count[i];
  }
  return t;
}

VkfftLayout VkfftLayoutOf(const FftDescriptor& d, bool in_place) {
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

uint64_t KernelsId(std::span<const uint32_t> kernels) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over the words, then their count
  for (uint32_t w : kernels) hash = (hash ^ w) * 1099511628211ull;
  return (hash ^ kernels.size()) * 1099511628211ull;
}

FftDescriptor WithoutUnitAxes(const FftDescriptor& d) {
  FftDescriptor out = d;
  out.lengths.clear();
  for (size_t i = 0; i < d.lengths.size(); ++i) {
    const bool innermost_real = d.real() && i + 1 == d.lengths.size();
    if (d.lengths[i] != 1 || innermost_real) out.lengths.push_back(d.lengths[i]);
  }
  return out;
}

StatusOr<StagedFft::OwnBuffer> StagedFft::MakeBuffer(uint64_t bytes) {
  OwnBuffer b;
  b.bytes = bytes;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<uint64_t>(bytes, 4);
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VKHLO_VK_RETURN_IF_ERROR(vkCreateBuffer(device_.handle(), &info, nullptr, &b.buffer));
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device_.handle(), b.buffer, &requirements);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(device_.physical_device(), &memory);
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < memory.memoryTypeCount && type == UINT32_MAX; ++i) {
    if ((requirements.memoryTypeBits & (1u << i)) &&
        (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
      type = i;
    }
  }
  for (uint32_t i = 0; i < memory.memoryTypeCount && type == UINT32_MAX; ++i) {
    if (requirements.memoryTypeBits & (1u << i)) type = i;
  }
  Status status = OkStatus();
  if (type == UINT32_MAX) status = InternalError("no memory type for an FFT staging buffer");
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  if (status.ok()) {
    const VkResult r = vkAllocateMemory(device_.handle(), &allocate, nullptr, &b.memory);
    if (r != VK_SUCCESS) status = VkResultToStatus(r, "vkAllocateMemory");
  }
  if (status.ok()) {
    const VkResult r = vkBindBufferMemory(device_.handle(), b.buffer, b.memory, 0);
    if (r != VK_SUCCESS) status = VkResultToStatus(r, "vkBindBufferMemory");
  }
  if (!status.ok()) {
    if (b.memory != VK_NULL_HANDLE) vkFreeMemory(device_.handle(), b.memory, nullptr);
    vkDestroyBuffer(device_.handle(), b.buffer, nullptr);
    return status.WithContext(fmt::format("an FFT staging buffer of {} bytes", bytes));
  }
  return b;
}

StagedFft::~StagedFft() {
  app_.reset();
  for (OwnBuffer* b : {&input_, &output_, &scratch_}) {
    if (b->buffer != VK_NULL_HANDLE) vkDestroyBuffer(device_.handle(), b->buffer, nullptr);
    if (b->memory != VK_NULL_HANDLE) vkFreeMemory(device_.handle(), b->memory, nullptr);
  }
}

StatusOr<std::unique_ptr<StagedFft>> StagedFft::Create(Device& device, const VkfftContext& context,
                                                       const FftDescriptor& descriptor,
                                                       std::span<const uint32_t> kernels, bool compile) {
  VKHLO_RETURN_IF_ERROR(descriptor.Validate());
  const std::string what = "the staged FFT " + descriptor.ToString();
  std::unique_ptr<StagedFft> staged(new StagedFft(device, descriptor));
  staged->vkfft_ = WithoutUnitAxes(descriptor);
  if (descriptor.empty() || staged->vkfft_.lengths.empty()) {
    if (!compile && !kernels.empty()) return InvalidArgumentError(what + " needs no VkFFT kernels, but some are given");
    return staged;
  }
  if (descriptor.real() && descriptor.lengths.back() == 1) {
    return UnimplementedError(what + ": a real innermost length of 1 has no staged form (use the full library)");
  }
  FftDescriptor& d = staged->vkfft_;
  // Runs of P transforms where a whole side exceeds kStagedRunBytes.
  {
    const uint64_t batch = std::max<uint64_t>(d.batch, 1);
    const uint64_t scratch_whole = d.kind == FftKind::kIrfft ? d.complex_elements() * d.complex_bytes() : 0;
    const uint64_t whole = std::max({d.input_bytes(), d.output_bytes(), scratch_whole});
    if (whole > kStagedRunBytes) {
      const uint64_t per_transform = (whole + batch - 1) / batch;
      if (per_transform > kStagedRunBytes) {
        return FailedPreconditionError(fmt::format(
            "{}: one transform takes {} bytes, more than the staged form's runs bind ({} bytes)", what, per_transform,
            kStagedRunBytes));
      }
      const uint64_t most = kStagedRunBytes / per_transform;
      staged->runs_ = (batch + most - 1) / most;
      d.batch = (batch + staged->runs_ - 1) / staged->runs_;
    }
  }
  const uint64_t range = device.capabilities().limits.max_storage_buffer_range;
  const uint64_t scratch_bytes = d.kind == FftKind::kIrfft ? d.complex_elements() * d.complex_bytes() : 0;
  if (std::max({d.input_bytes(), d.output_bytes(), scratch_bytes}) > range) {
    return FailedPreconditionError(fmt::format(
        "{}: a side of the transform is larger than maxStorageBufferRange = {}, which the staged form binds whole",
        what, range));
  }
  if (!compile) {
    if (kernels.empty()) return InvalidArgumentError(what + ": the plan carries no VkFFT kernels for it");
    VKHLO_RETURN_IF_ERROR(CheckKernels(kernels, what));
  }
  VKHLO_ASSIGN_OR_RETURN(staged->input_, staged->MakeBuffer(d.input_bytes()));
  VKHLO_ASSIGN_OR_RETURN(staged->output_, staged->MakeBuffer(d.output_bytes()));
  VkfftBindings bindings;
  bindings.input = {staged->input_.buffer, staged->input_.bytes};
  bindings.output = {staged->output_.buffer, staged->output_.bytes};
  if (scratch_bytes > 0) {
    VKHLO_ASSIGN_OR_RETURN(staged->scratch_, staged->MakeBuffer(scratch_bytes));
    bindings.scratch = {staged->scratch_.buffer, staged->scratch_.bytes};
  }

  // What VkFFT loads: the kernels, then inert modules it would read were it to want more.
  std::vector<uint32_t> loaded;
  if (!compile) {
    const shaders::EmbeddedShader* sentinel = shaders::FindShader("fft/vkfft_sentinel");
    if (sentinel == nullptr) return InternalError("the shader fft/vkfft_sentinel is not embedded");
    loaded.assign(kernels.begin(), kernels.end());
    for (int i = 0; i < kSentinels; ++i) {
      loaded.push_back(static_cast<uint32_t>(sentinel->spirv.size() * 4));
      loaded.insert(loaded.end(), sentinel->spirv.begin(), sentinel->spirv.end());
    }
  }
  Status created = device.queue().WithExclusiveQueue([&](VkQueue queue) -> Status {
    VkfftContext c = context;
    c.queue = queue;
    VKHLO_ASSIGN_OR_RETURN(staged->app_, VkfftApp::Create(c, VkfftLayoutOf(d, false), bindings, compile ? nullptr : &loaded));
    return OkStatus();
  });
  VKHLO_RETURN_IF_ERROR(created.WithContext(what));
  if (compile) {
    staged->kernels_ = staged->app_->Binary();
  } else if (staged->app_->WordsLoaded() != kernels.size()) {
    return InvalidArgumentError(fmt::format("{}: VkFFT read {} words of kernels where the plan carries {}: they were "
                                            "not made for this transform and target", what,
                                            staged->app_->WordsLoaded(), kernels.size()));
  }
  for (const VkfftBinding& b : staged->app_->InternalWrittenBuffers()) {
    staged->internal_writes_.push_back(BufferView{b.buffer, 0, b.bytes});
  }
  return staged;
}

Status StagedFft::Record(CommandList& list, const BufferView& input, const BufferView& output, uint64_t* launches) {
  const FftDescriptor& d = descriptor_;
  if (d.empty()) return OkStatus();
  if (vkfft_.lengths.empty()) {  // every length 1: the identity
    return list.CopyBuffer(BufferView{input.buffer, input.offset, d.input_bytes(), input.pieces},
                           BufferView{output.buffer, output.offset, d.output_bytes(), output.pieces});
  }
  // The last run redoes transforms of the run before it: their input must still be there.
  if (runs_ > 1 && input.buffer == output.buffer && input.offset < output.offset + d.output_bytes() &&
      output.offset < input.offset + d.input_bytes()) {
    return UnimplementedError("the staged FFT " + d.ToString() + " in runs: in place");
  }
  const BufferView in{input_.buffer, 0, input_.bytes}, out{output_.buffer, 0, output_.bytes};
  std::vector<Binding> accesses = {{in, Access::kRead}, {out, Access::kWrite}};
  if (scratch_.buffer != VK_NULL_HANDLE) accesses.push_back({BufferView{scratch_.buffer, 0, scratch_.bytes}, Access::kReadWrite});
  for (const BufferView& v : internal_writes_) accesses.push_back({v, Access::kReadWrite});
  // Run r transforms entries [first, first + P) of the batch; the last one ends at the batch's end.
  const uint64_t per = vkfft_.batch, in_bytes = vkfft_.input_bytes(), out_bytes = vkfft_.output_bytes();
  const uint64_t in_per = in_bytes / per, out_per = out_bytes / per;
  for (uint64_t r = 0; r < runs_; ++r) {
    const uint64_t first = std::min(r * per, d.batch - per);
    VKHLO_RETURN_IF_ERROR(
        list.CopyBuffer(BufferView{input.buffer, input.offset + first * in_per, in_bytes, input.pieces}, in));
    VKHLO_RETURN_IF_ERROR(list.RecordExternal("fft " + d.ToString() + " (staged)", accesses,
                                              [&](VkCommandBuffer command_buffer) { return app_->Append(command_buffer, 0, 0, 0); }));
    VKHLO_RETURN_IF_ERROR(
        list.CopyBuffer(out, BufferView{output.buffer, output.offset + first * out_per, out_bytes, output.pieces}));
  }
  if (launches != nullptr && runs_ > 1) *launches += runs_;
  return OkStatus();
}

StatusOr<std::vector<uint32_t>> FftPlanCache::StagedKernels(const FftDescriptor& descriptor,
                                                             const VkfftTarget& target) {
  VKHLO_RETURN_IF_ERROR(CheckPrecision(descriptor));
  std::lock_guard<std::mutex> lock(mutex_);
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<StagedFft> staged,
                         StagedFft::Create(device_, ContextFor(&target), descriptor, {}, true));
  stats_.compiles++;
  return staged->Kernels();
}

Status FftPlanCache::RecordStaged(CommandList& list, const FftDescriptor& descriptor, const VkfftTarget& target,
                                  std::span<const uint32_t> kernels, uint64_t kernels_id, const BufferView& input,
                                  const BufferView& output, uint64_t* launches) {
  return RecordStagedWith(list, descriptor, target, kernels, kernels_id, false, input, output, launches);
}

Status FftPlanCache::RecordStagedCompiled(CommandList& list, const FftDescriptor& descriptor, const BufferView& input,
                                          const BufferView& output, uint64_t* launches) {
  return RecordStagedWith(list, descriptor, GenericTargetOf(device_), {}, 0, true, input, output, launches);
}

Status FftPlanCache::RecordStagedWith(CommandList& list, const FftDescriptor& descriptor, const VkfftTarget& target,
                                      std::span<const uint32_t> kernels, uint64_t kernels_id, bool compile,
                                      const BufferView& input, const BufferView& output, uint64_t* launches) {
  VKHLO_RETURN_IF_ERROR(CheckPrecision(descriptor));
  // The target must fit the device: VkFFT's kernels may use all it names.
  const VkfftTarget offered = GenericTargetOf(device_);
  bool fits = target.max_workgroup_invocations <= offered.max_workgroup_invocations &&
              target.max_shared_memory_bytes <= offered.max_shared_memory_bytes;
  for (int i = 0; i < 3; ++i) {
    fits &= target.max_workgroup_size[i] <= offered.max_workgroup_size[i] &&
            target.max_workgroup_count[i] <= offered.max_workgroup_count[i];
  }
  if (!fits) {
    const DeviceCapabilities& caps = device_.capabilities();
    return FailedPreconditionError(fmt::format(
        "{}: the plan's VkFFT kernels were made for {} invocations and {} bytes of shared memory per workgroup; "
        "device '{}' (profile {}) offers {} and {}", descriptor.ToString(), target.max_workgroup_invocations,
        target.max_shared_memory_bytes, caps.name, caps.profile, offered.max_workgroup_invocations,
        offered.max_shared_memory_bytes));
  }
  auto key = std::make_tuple(descriptor.kind, descriptor.precision, descriptor.lengths, descriptor.batch,
                             std::vector<uint32_t>{target.vendor_id, target.max_workgroup_invocations,
                                                   target.max_shared_memory_bytes, target.max_workgroup_size[0],
                                                   target.max_workgroup_size[1], target.max_workgroup_size[2],
                                                   target.max_workgroup_count[0], target.max_workgroup_count[1],
                                                   target.max_workgroup_count[2]},
                             kernels_id, compile ? kCompiledHere : static_cast<uint64_t>(kernels.size()));
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = staged_.find(key);
  if (it == staged_.end()) {
    VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<StagedFft> staged,
                           StagedFft::Create(device_, ContextFor(&target), descriptor, kernels, compile));
    stats_.applications++;
    if (compile) stats_.compiles++;
    it = staged_.emplace(key, std::move(staged)).first;
  }
  stats_.records++;
  return it->second->Record(list, input, output, launches);
}

}  // namespace vkhlo::device::fft
