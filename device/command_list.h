// Recording and submitting GPU work: dispatches, copies and fills, with barriers only where one
// command depends on another.
//
//   auto list = CommandList::Begin(device);
//   list->Dispatch(*pipeline, {{in.view(), Access::kRead}, {out.view(), Access::kWrite}},
//                  AsBytes(push), {groups, 1, 1});
//   auto done = list->Submit();   // a Submission: Wait(), IsComplete(), Timings()
//
// Barriers: the list tracks the buffer ranges read and written since the last barrier. A
// command that reads or writes a range an earlier command wrote gets a buffer memory barrier;
// one that only overwrites a range an earlier command read gets an execution barrier; commands
// on disjoint ranges get none. Each list starts with one barrier against earlier submissions and
// ends with one making its writes visible to the host.
//
// Grids: a dispatch over more workgroups than maxComputeWorkGroupCount in any dimension is split
// into several, each told its workgroup base through push constants (the pipeline must declare
// workgroup_base_offset; see shaders/include/vkhlo_dispatch.glsl).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "device/buffer.h"
#include "device/pipeline.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

class Device;

enum class Access { kRead, kWrite, kReadWrite };

struct Binding {
  BufferView view;
  Access access = Access::kReadWrite;
};

struct GridSize {
  uint32_t x = 1, y = 1, z = 1;
};

struct DispatchTiming {
  std::string label;  // the pipeline's name
  double milliseconds = 0;
  // When it started, from the start of the submission's first timed command (the device's
  // timestamp clock has an origin of its own; profiles place it on the host's timeline).
  double start_milliseconds = 0;
};

struct CommandListOptions {
  // Record GPU timestamps around each dispatch (ignored when the queue has no timestamps).
  bool timestamps = false;
};

template <typename T>
std::span<const std::byte> AsBytes(const T& value) {
  return std::as_bytes(std::span<const T>(&value, 1));
}

// Completion handle of a submitted command list.
class Submission {
 public:
  Submission() = default;
  ~Submission();
  Submission(Submission&&) noexcept;
  Submission& operator=(Submission&&) noexcept;

  uint64_t value() const { return value_; }
  Status Wait() const;
  StatusOr<bool> IsComplete() const;
  // GPU time of each dispatch, in recording order. Waits for completion first. Empty when
  // timestamps were not requested or the device cannot take them.
  StatusOr<std::vector<DispatchTiming>> Timings() const;

 private:
  friend class CommandList;
  struct TimestampQueries;
  Device* device_ = nullptr;
  uint64_t value_ = 0;
  std::unique_ptr<TimestampQueries> timestamps_;
};

class CommandList {
 public:
  static StatusOr<CommandList> Begin(Device& device, CommandListOptions options = {});
  ~CommandList();  // an unsubmitted list is discarded
  CommandList(CommandList&& other) noexcept;
  CommandList& operator=(CommandList&&) = delete;
  CommandList(const CommandList&) = delete;

  // `bindings[i]` is bound at binding i; there must be exactly pipeline.binding_count(). Push
  // constants are zero-padded to the pipeline's push-constant size.
  Status Dispatch(const Pipeline& pipeline, std::span<const Binding> bindings,
                  std::span<const std::byte> push_constants, GridSize grid);
  Status Dispatch(const Pipeline& pipeline, std::initializer_list<Binding> bindings,
                  std::span<const std::byte> push_constants, GridSize grid) {
    return Dispatch(pipeline, std::span<const Binding>(bindings.begin(), bindings.size()),
                    push_constants, grid);
  }
  // Copies src.size bytes. Offsets and sizes need no particular alignment.
  Status CopyBuffer(const BufferView& src, const BufferView& dst);
  // Fills `dst` with a 32-bit pattern (offset and size multiples of 4).
  Status FillBuffer(const BufferView& dst, uint32_t value);

  // Lets a library that records its own dispatches (VkFFT) put them in this list: the barriers
  // `accesses` need against earlier commands are recorded as for a Dispatch, then `record` writes
  // into the command buffer. It may bind pipelines, descriptor sets and push constants and
  // record barriers between its own commands (nothing this list records relies on bound state),
  // and must touch no buffer ranges besides `accesses`. Later commands get barriers against
  // the ranges `accesses` write. With timestamps, the whole recording is timed as `label`.
  Status RecordExternal(std::string_view label, std::span<const Binding> accesses,
                        const std::function<Status(VkCommandBuffer)>& record);

  StatusOr<Submission> Submit();

  uint32_t dispatch_count() const { return dispatches_; }  // vkCmdDispatch calls recorded
  // Bindings recorded through device addresses (ShaderBinding::device_address), all dispatches.
  uint64_t address_binding_count() const { return address_bindings_; }
  // Bindings recorded through several descriptors (WindowedBinding), all dispatches.
  uint64_t windowed_binding_count() const { return windowed_bindings_; }
  uint32_t barrier_count() const { return barriers_; }     // dependency barriers recorded

 private:
  struct PendingAccess {
    BufferView view;
    bool reads;
    bool writes;
  };
  CommandList(Device& device, VkCommandBuffer command_buffer, CommandListOptions options);
  Status CheckOpen() const;
  Status CheckView(const BufferView& view, std::string_view what) const;
  // Records the barrier `accesses` need against earlier commands, then notes them.
  void Hazard(std::span<const PendingAccess> accesses);
  Status WriteTimestamp(const std::string& label, bool start);
  void Abandon();

  Device* device_;
  VkCommandBuffer command_buffer_;
  CommandListOptions options_;
  std::vector<BufferView> written_, read_;
  std::vector<VkDescriptorSet> held_sets_;
  std::unique_ptr<Submission::TimestampQueries> timestamps_;
  uint32_t dispatches_ = 0;
  uint64_t address_bindings_ = 0;
  uint64_t windowed_bindings_ = 0;
  uint32_t barriers_ = 0;
  bool wrote_anything_ = false;
};

}  // namespace vkhlo::device
