#include "device/command_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "device/address_table.h"
#include "device/descriptor_cache.h"
#include "device/device.h"
#include "device/queue.h"
#include "device/split_layout.h"
#include "device/vk_status.h"

namespace vkhlo::device {

// Query pools for one command list's timestamps: two queries (start, end) per dispatch.
struct Submission::TimestampQueries {
  static constexpr uint32_t kQueriesPerPool = 256;
  VkDevice device = VK_NULL_HANDLE;
  std::vector<VkQueryPool> pools;
  uint32_t used_in_last_pool = kQueriesPerPool;
  std::vector<std::string> labels;
  double period_ns = 1;
  uint32_t valid_bits = 64;

  ~TimestampQueries() {
    for (VkQueryPool pool : pools) vkDestroyQueryPool(device, pool, nullptr);
  }
};

namespace {

constexpr VkPipelineStageFlags kWorkStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kWriteAccess = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkAccessFlags kAnyAccess = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

bool Overlaps(const BufferView& a, const BufferView& b) {
  return a.buffer == b.buffer && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

bool OverlapsAny(const BufferView& view, const std::vector<BufferView>& set) {
  return std::any_of(set.begin(), set.end(), [&](const BufferView& v) { return Overlaps(view, v); });
}

}  // namespace

Submission::Submission(Submission&&) noexcept = default;
Submission& Submission::operator=(Submission&&) noexcept = default;

Submission::~Submission() {
  // Query pools may only be destroyed once the GPU is done writing them.
  if (timestamps_ && device_ != nullptr && !device_->lost()) Wait().IgnoreError();
}

Status Submission::Wait() const {
  if (device_ == nullptr) return FailedPreconditionError("waiting on an empty Submission");
  return device_->queue().Wait(value_);
}

StatusOr<bool> Submission::IsComplete() const {
  if (device_ == nullptr) return FailedPreconditionError("querying an empty Submission");
  return device_->queue().IsComplete(value_);
}

StatusOr<std::vector<DispatchTiming>> Submission::Timings() const {
  std::vector<DispatchTiming> timings;
  if (!timestamps_) return timings;
  VKHLO_RETURN_IF_ERROR(Wait());
  const TimestampQueries& t = *timestamps_;
  const uint64_t mask = t.valid_bits >= 64 ? ~0ull : ((1ull << t.valid_bits) - 1);
  uint64_t first = 0;
  for (size_t i = 0; i < t.labels.size(); ++i) {
    uint32_t query = static_cast<uint32_t>(2 * i);
    VkQueryPool pool = t.pools[query / TimestampQueries::kQueriesPerPool];
    uint64_t ticks[2] = {0, 0};
    VKHLO_DEVICE_RETURN_IF_ERROR(
        *device_, vkGetQueryPoolResults(device_->handle(), pool,
                                        query % TimestampQueries::kQueriesPerPool, 2, sizeof(ticks),
                                        ticks, sizeof(uint64_t),
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    uint64_t elapsed = (ticks[1] - ticks[0]) & mask;
    if (i == 0) first = ticks[0];
    const uint64_t since_first = (ticks[0] - first) & mask;
    timings.push_back(DispatchTiming{t.labels[i], elapsed * t.period_ns * 1e-6, since_first * t.period_ns * 1e-6});
  }
  return timings;
}

CommandList::CommandList(Device& device, VkCommandBuffer command_buffer, CommandListOptions options)
    : device_(&device), command_buffer_(command_buffer), options_(options) {}

CommandList::CommandList(CommandList&& other) noexcept
    : device_(other.device_),
      command_buffer_(other.command_buffer_),
      options_(other.options_),
      written_(std::move(other.written_)),
      read_(std::move(other.read_)),
      held_sets_(std::move(other.held_sets_)),
      timestamps_(std::move(other.timestamps_)),
      dispatches_(other.dispatches_),
      address_bindings_(other.address_bindings_),
      windowed_bindings_(other.windowed_bindings_),
      barriers_(other.barriers_),
      wrote_anything_(other.wrote_anything_) {
  other.command_buffer_ = VK_NULL_HANDLE;
}

CommandList::~CommandList() { Abandon(); }

void CommandList::Abandon() {
  if (command_buffer_ == VK_NULL_HANDLE) return;
  for (VkDescriptorSet set : held_sets_) device_->descriptors().Release(set, 0);
  held_sets_.clear();
  device_->queue().Discard(command_buffer_);
  command_buffer_ = VK_NULL_HANDLE;
}

StatusOr<CommandList> CommandList::Begin(Device& device, CommandListOptions options) {
  VKHLO_ASSIGN_OR_RETURN(VkCommandBuffer cb, device.queue().BeginCommandBuffer());
  CommandList list(device, cb, options);
  const DeviceLimits& limits = device.capabilities().limits;
  if (options.timestamps && limits.timestamp_valid_bits > 0) {
    list.timestamps_ = std::make_unique<Submission::TimestampQueries>();
    list.timestamps_->device = device.handle();
    list.timestamps_->period_ns = limits.timestamp_period_ns;
    list.timestamps_->valid_bits = limits.timestamp_valid_bits;
  }
  // Work of earlier submissions (writes by kernels and copies) becomes visible to this list.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = kWriteAccess;
  barrier.dstAccessMask = kAnyAccess;
  vkCmdPipelineBarrier(cb, kWorkStages, kWorkStages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  return list;
}

Status CommandList::CheckOpen() const {
  if (command_buffer_ == VK_NULL_HANDLE) {
    return FailedPreconditionError("command list was already submitted or abandoned");
  }
  return device_->CheckAlive();
}

Status CommandList::CheckView(const BufferView& view, std::string_view what) const {
  if (view.buffer == VK_NULL_HANDLE) return InvalidArgumentError(fmt::format("{}: null buffer", what));
  if (view.size == 0) return InvalidArgumentError(fmt::format("{}: empty buffer range", what));
  return OkStatus();
}

void CommandList::Hazard(std::span<const PendingAccess> accesses) {
  bool memory_dependency = false, execution_dependency = false;
  for (const PendingAccess& a : accesses) {
    if ((a.reads || a.writes) && OverlapsAny(a.view, written_)) memory_dependency = true;
    if (a.writes && OverlapsAny(a.view, read_)) execution_dependency = true;
  }
  if (memory_dependency) {
    // Make every pending write available and visible; afterwards nothing is pending.
    std::vector<VkBufferMemoryBarrier> barriers;
    barriers.reserve(written_.size());
    for (const BufferView& v : written_) {
      VkBufferMemoryBarrier b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
      b.srcAccessMask = kWriteAccess;
      b.dstAccessMask = kAnyAccess;
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.buffer = v.buffer;
      b.offset = v.offset;
      b.size = v.size;
      barriers.push_back(b);
    }
    vkCmdPipelineBarrier(command_buffer_, kWorkStages, kWorkStages, 0, 0, nullptr,
                         static_cast<uint32_t>(barriers.size()), barriers.data(), 0, nullptr);
    written_.clear();
    read_.clear();
    barriers_++;
  } else if (execution_dependency) {
    // Write-after-read: the reads must finish first; no memory needs to move.
    vkCmdPipelineBarrier(command_buffer_, kWorkStages, kWorkStages, 0, 0, nullptr, 0, nullptr, 0,
                         nullptr);
    read_.clear();
    barriers_++;
  }
  for (const PendingAccess& a : accesses) {
    if (a.reads) read_.push_back(a.view);
    if (a.writes) {
      written_.push_back(a.view);
      wrote_anything_ = true;
    }
  }
}

Status CommandList::WriteTimestamp(const std::string& label, bool start) {
  if (!timestamps_) return OkStatus();
  using Q = Submission::TimestampQueries;
  Q& t = *timestamps_;
  if (start && t.used_in_last_pool + 2 > Q::kQueriesPerPool) {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = Q::kQueriesPerPool;
    VkQueryPool pool = VK_NULL_HANDLE;
    VKHLO_DEVICE_RETURN_IF_ERROR(*device_, vkCreateQueryPool(device_->handle(), &info, nullptr, &pool));
    t.pools.push_back(pool);
    t.used_in_last_pool = 0;
    vkCmdResetQueryPool(command_buffer_, pool, 0, Q::kQueriesPerPool);
  }
  if (start) t.labels.push_back(label);
  vkCmdWriteTimestamp(command_buffer_,
                      start ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                      t.pools.back(), t.used_in_last_pool++);
  return OkStatus();
}

Status CommandList::Dispatch(const Pipeline& pipeline, std::span<const Binding> bindings,
                             std::span<const std::byte> push_constants, GridSize grid) {
  VKHLO_RETURN_IF_ERROR(CheckOpen());
  const std::string& name = pipeline.name();
  if (bindings.size() != pipeline.binding_count()) {
    return InvalidArgumentError(fmt::format("dispatch of '{}': {} buffers bound, the shader has {}",
                                            name, bindings.size(), pipeline.binding_count()));
  }
  if (push_constants.size() > pipeline.push_constant_bytes()) {
    return InvalidArgumentError(fmt::format(
        "dispatch of '{}': {} bytes of push constants, the shader declares {}", name,
        push_constants.size(), pipeline.push_constant_bytes()));
  }
  const DeviceLimits& limits = device_->capabilities().limits;
  std::vector<BufferView> views;
  std::vector<PendingAccess> accesses;
  // Windows beyond the first of windowed bindings, bound after the caller's bindings.
  std::vector<std::pair<uint32_t, BufferView>> extra_windows;
  for (size_t i = 0; i < bindings.size(); ++i) {
    const BufferView& v = bindings[i].view;
    VKHLO_RETURN_IF_ERROR(CheckView(v, fmt::format("dispatch of '{}', binding {}", name, i)));
    Access a = bindings[i].access;
    if (v.pieces == nullptr) {
      accesses.push_back({v, a != Access::kWrite, a != Access::kRead});
    } else {
      for (const BufferView& range : PieceRanges(v)) accesses.push_back({range, a != Access::kWrite, a != Access::kRead});
    }
    // A windowed binding (codegen/big_bindings.h BindThroughWindows): window k is the view's
    // bytes [k*S, min((k+1)*S, size)); windows past the end (a smaller view) get its first bytes.
    const WindowedBinding* windowed = nullptr;
    for (const WindowedBinding& w : pipeline.windowed()) {
      if (w.binding == i) windowed = &w;
    }
    if (windowed != nullptr) {
      const uint64_t s = windowed->window_bytes;
      if (v.offset % limits.min_storage_buffer_offset_alignment != 0 || s % limits.min_storage_buffer_offset_alignment != 0 ||
          s > limits.max_storage_buffer_range) {
        return InvalidArgumentError(fmt::format(
            "dispatch of '{}', binding {}: windows of {} bytes from offset {} do not fit maxStorageBufferRange = {} "
            "and minStorageBufferOffsetAlignment = {}", name, i, s, v.offset, limits.max_storage_buffer_range,
            limits.min_storage_buffer_offset_alignment));
      }
      const size_t k_count = windowed->window_bindings.size();
      if ((v.size + s - 1) / s > k_count) {
        return InvalidArgumentError(fmt::format(
            "dispatch of '{}', binding {}: a view of {} bytes needs more than the shader's {} windows of {} bytes", name,
            i, v.size, k_count, s));
      }
      for (size_t k = 0; k < k_count; ++k) {
        BufferView w = v;
        if (k * s < v.size) {
          w.offset = v.offset + k * s;
          w.size = std::min<uint64_t>(s, v.size - k * s);
        } else {
          w.size = std::min<uint64_t>(v.size, 16);
        }
        // Windows of a split buffer lie each in one piece (split_layout.h), unless the view
        // starts off a window boundary of it: then an error, never a window across two.
        if (w.pieces != nullptr) {
          VKHLO_ASSIGN_OR_RETURN(w, WithinOnePiece(w, fmt::format("dispatch of '{}', binding {}, window {}", name, i, k)));
        }
        if (k == 0) {
          views.push_back(w);
        } else {
          extra_windows.emplace_back(windowed->window_bindings[k], w);
        }
      }
      windowed_bindings_++;
      continue;
    }
    // Other bindings of a split buffer need the view inside one piece.
    BufferView one = v;
    if (one.pieces != nullptr) {
      VKHLO_ASSIGN_OR_RETURN(one, WithinOnePiece(v, fmt::format("dispatch of '{}', binding {}", name, i)));
    }
    // A binding the shader reaches by address is bound as a slot holding the view's address
    // (any size); barriers still cover the view itself.
    if (pipeline.bindings()[i].device_address) {
      // Shaders may promise up to 16-byte alignment of the reference (codegen/big_bindings.h).
      if (one.offset % 16 != 0) {
        return InvalidArgumentError(fmt::format(
            "dispatch of '{}', binding {}: a view reached by device address must start at a multiple of 16 bytes, "
            "not at offset {}", name, i, one.offset));
      }
      VKHLO_ASSIGN_OR_RETURN(BufferView slot, device_->addresses().Slot(one));
      views.push_back(slot);
      address_bindings_++;
      continue;
    }
    // Texel buffers have their own limits, checked where their views are made.
    const bool texel = pipeline.bindings()[i].kind == BindingKind::kStorageTexelBuffer;
    if (!texel && one.size > limits.max_storage_buffer_range) {
      return InvalidArgumentError(fmt::format(
          "dispatch of '{}', binding {}: range of {} bytes exceeds maxStorageBufferRange = {}{}", name,
          i, one.size, limits.max_storage_buffer_range,
          device_->capabilities().features.buffer_device_address
              ? " (the shader does not reach it through a device address)"
              : ", and the device lacks bufferDeviceAddress"));
    }
    if (!texel && one.offset % limits.min_storage_buffer_offset_alignment != 0) {
      return InvalidArgumentError(fmt::format(
          "dispatch of '{}', binding {}: offset {} is not a multiple of "
          "minStorageBufferOffsetAlignment = {}", name, i, one.offset,
          limits.min_storage_buffer_offset_alignment));
    }
    views.push_back(one);
  }
  if (!extra_windows.empty()) {
    views.resize(pipeline.bindings().size());
    for (const auto& [b, w] : extra_windows) {
      if (b >= views.size()) return InternalError(fmt::format("dispatch of '{}': window at binding {}", name, b));
      views[b] = w;
    }
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return OkStatus();  // nothing to run

  const auto& max = limits.max_workgroup_count;
  bool split = grid.x > max[0] || grid.y > max[1] || grid.z > max[2];
  if (split && !pipeline.workgroup_base_offset()) {
    return InvalidArgumentError(fmt::format(
        "dispatch of '{}': grid {}x{}x{} exceeds maxComputeWorkGroupCount = {}x{}x{} and the "
        "shader declares no workgroup base to split it with", name, grid.x, grid.y, grid.z,
        max[0], max[1], max[2]));
  }

  VkDescriptorSet set = VK_NULL_HANDLE;
  if (!views.empty()) {
    VKHLO_ASSIGN_OR_RETURN(set, device_->descriptors().Acquire(pipeline, views));
    held_sets_.push_back(set);
  }
  Hazard(accesses);

  vkCmdBindPipeline(command_buffer_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
  if (set != VK_NULL_HANDLE) {
    vkCmdBindDescriptorSets(command_buffer_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0,
                            1, &set, 0, nullptr);
  }
  std::vector<std::byte> push(pipeline.push_constant_bytes(), std::byte{0});
  if (!push_constants.empty()) std::memcpy(push.data(), push_constants.data(), push_constants.size());

  VKHLO_RETURN_IF_ERROR(WriteTimestamp(name, true));
  for (uint32_t z0 = 0; z0 < grid.z; z0 += std::min(grid.z - z0, max[2])) {
    for (uint32_t y0 = 0; y0 < grid.y; y0 += std::min(grid.y - y0, max[1])) {
      for (uint32_t x0 = 0; x0 < grid.x; x0 += std::min(grid.x - x0, max[0])) {
        if (auto offset = pipeline.workgroup_base_offset()) {
          const uint32_t base[3] = {x0, y0, z0};
          std::memcpy(push.data() + *offset, base, sizeof(base));
        }
        if (!push.empty()) {
          vkCmdPushConstants(command_buffer_, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                             static_cast<uint32_t>(push.size()), push.data());
        }
        vkCmdDispatch(command_buffer_, std::min(grid.x - x0, max[0]),
                      std::min(grid.y - y0, max[1]), std::min(grid.z - z0, max[2]));
        dispatches_++;
      }
    }
  }
  return WriteTimestamp(name, false);
}

namespace {

// Bytes from `at` within `view` to the end of its piece (or of the view).
uint64_t BytesInPiece(const BufferView& view, uint64_t at) {
  const uint64_t rest = view.size - at;
  if (view.pieces == nullptr) return rest;
  const uint64_t p = view.pieces->piece_bytes;
  const uint64_t logical = view.offset + at;
  if (logical / p + 1 >= view.pieces->views.size()) return rest;  // the last piece
  return std::min(rest, (logical / p + 1) * p - logical);
}

BufferView Sub(const BufferView& view, uint64_t at, uint64_t size) {
  return BufferView{view.buffer, view.offset + at, size, view.pieces};
}

}  // namespace

Status CommandList::CopyBuffer(const BufferView& src, const BufferView& dst) {
  VKHLO_RETURN_IF_ERROR(CheckOpen());
  if (src.size == 0) return OkStatus();
  VKHLO_RETURN_IF_ERROR(CheckView(src, "copy source"));
  VKHLO_RETURN_IF_ERROR(CheckView(dst, "copy destination"));
  if (dst.size < src.size) {
    return InvalidArgumentError(fmt::format("copy of {} bytes into a range of {} bytes", src.size, dst.size));
  }
  if (src.pieces != nullptr || dst.pieces != nullptr) {
    // Split buffers: one copy per stretch that lies in one piece of each side.
    for (uint64_t at = 0; at < src.size;) {
      const uint64_t bytes = std::min(BytesInPiece(src, at), BytesInPiece(Sub(dst, 0, src.size), at));
      VKHLO_ASSIGN_OR_RETURN(BufferView from, WithinOnePiece(Sub(src, at, bytes), "copy source"));
      VKHLO_ASSIGN_OR_RETURN(BufferView to, WithinOnePiece(Sub(dst, at, bytes), "copy destination"));
      VKHLO_RETURN_IF_ERROR(CopyBuffer(from, to));
      at += bytes;
    }
    return OkStatus();
  }
  if (src.buffer == dst.buffer && Overlaps(src, BufferView{dst.buffer, dst.offset, src.size})) {
    return InvalidArgumentError("copy source and destination overlap");
  }
  BufferView written{dst.buffer, dst.offset, src.size};
  const PendingAccess accesses[] = {{src, true, false}, {written, false, true}};
  Hazard(accesses);
  VkBufferCopy region{src.offset, dst.offset, src.size};
  vkCmdCopyBuffer(command_buffer_, src.buffer, dst.buffer, 1, &region);
  return OkStatus();
}

Status CommandList::FillBuffer(const BufferView& dst, uint32_t value) {
  VKHLO_RETURN_IF_ERROR(CheckOpen());
  VKHLO_RETURN_IF_ERROR(CheckView(dst, "fill destination"));
  if (dst.offset % 4 != 0 || dst.size % 4 != 0) {
    return InvalidArgumentError(fmt::format("fill of range [{}, +{}): offset and size must be "
                                            "multiples of 4", dst.offset, dst.size));
  }
  for (const BufferView& range : PieceRanges(dst)) {  // one fill per piece of a split buffer
    const PendingAccess access[] = {{range, false, true}};
    Hazard(access);
    vkCmdFillBuffer(command_buffer_, range.buffer, range.offset, range.size, value);
  }
  return OkStatus();
}

Status CommandList::RecordExternal(std::string_view label, std::span<const Binding> accesses,
                                   const std::function<Status(VkCommandBuffer)>& record) {
  VKHLO_RETURN_IF_ERROR(CheckOpen());
  std::vector<PendingAccess> pending;
  for (size_t i = 0; i < accesses.size(); ++i) {
    const BufferView& v = accesses[i].view;
    VKHLO_RETURN_IF_ERROR(CheckView(v, fmt::format("'{}', buffer {}", label, i)));
    if (v.pieces != nullptr) {
      // The recording addresses its VkBuffers itself, by the caller's offsets.
      return InvalidArgumentError(fmt::format(
          "'{}', buffer {}: a buffer split across {} allocations (beyond maxMemoryAllocationSize) cannot be used by "
          "an external recording", label, i, v.pieces->views.size()));
    }
    Access a = accesses[i].access;
    pending.push_back({v, a != Access::kWrite, a != Access::kRead});
  }
  Hazard(pending);
  const std::string name(label);
  VKHLO_RETURN_IF_ERROR(WriteTimestamp(name, true));
  VKHLO_RETURN_IF_ERROR(record(command_buffer_).WithContext(name));
  return WriteTimestamp(name, false);
}

StatusOr<Submission> CommandList::Submit() {
  VKHLO_RETURN_IF_ERROR(CheckOpen());
  if (wrote_anything_) {
    // The host may read what this list wrote once the submission completes.
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = kWriteAccess;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(command_buffer_, kWorkStages, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                         0, nullptr, 0, nullptr);
  }
  VkCommandBuffer cb = command_buffer_;
  command_buffer_ = VK_NULL_HANDLE;  // the queue owns it from here, success or not
  StatusOr<uint64_t> value = device_->queue().Submit(cb);
  for (VkDescriptorSet set : held_sets_) device_->descriptors().Release(set, value.ok() ? *value : 0);
  held_sets_.clear();
  if (!value.ok()) return value.status();
  Submission submission;
  submission.device_ = device_;
  submission.value_ = *value;
  submission.timestamps_ = std::move(timestamps_);
  return submission;
}

}  // namespace vkhlo::device
