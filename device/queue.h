// The compute queue: command buffers, submission, and completion tracking.
//
// Every submission gets a increasing 64-bit value. With timeline semaphores (Vulkan 1.2 or
// VK_KHR_timeline_semaphore) the value is signaled on one semaphore; without them each
// submission gets a fence. Either way callers see only values: Submit returns one, Wait and
// IsComplete take one. Command buffers are recycled once their submission has completed, so
// steady-state work allocates nothing.
//
// Threading: every command buffer comes from a command pool of its own. Vulkan requires host
// access to a pool (allocation, reset, and recording any command into its buffers) to be
// externally synchronized; with one buffer per pool, the thread that holds a buffer between
// BeginCommandBuffer and Submit/Discard is the only one touching its pool, so several threads
// record at once without a lock. Recycling (reset) happens only once the buffer is back here.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo::device {

class Device;

class Queue {
 public:
  static StatusOr<std::unique_ptr<Queue>> Create(Device& device, uint32_t family_index);
  ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  uint32_t family_index() const { return family_index_; }
  bool uses_timeline_semaphore() const { return timeline_ != VK_NULL_HANDLE; }

  // A primary command buffer in the recording state (one-time submit).
  StatusOr<VkCommandBuffer> BeginCommandBuffer();
  // Returns a command buffer that will not be submitted (error paths).
  void Discard(VkCommandBuffer command_buffer);
  // Ends and submits `command_buffer`; returns its submission value. The buffer is recycled
  // after completion; the caller must not touch it again.
  StatusOr<uint64_t> Submit(VkCommandBuffer command_buffer);

  // Blocks until submission `value` has completed.
  Status Wait(uint64_t value);
  StatusOr<bool> IsComplete(uint64_t value);
  Status WaitIdle();
  // Waits for the queue to go idle even on a lost device (where the driver returns at once),
  // so that buffers can be freed after a failure: a loss reported by one call (or simulated by
  // a test) does not mean that work submitted earlier has stopped running.
  void Drain();

  uint64_t last_submitted() const;

  // Runs `use` with the VkQueue while no other thread can submit to it or wait on it, for
  // libraries that submit one-off work of their own (VkFFT uploads twiddle tables and Bluestein
  // kernels while a plan is created). `use` must wait for everything it submits before it
  // returns. Submission values are unaffected.
  Status WithExclusiveQueue(const std::function<Status(VkQueue)>& use);

 private:
  struct InFlight {
    uint64_t value;
    VkCommandBuffer command_buffer;
    VkFence fence;  // VK_NULL_HANDLE with timeline semaphores
  };

  explicit Queue(Device& device) : device_(device) {}
  // Reads the completed value and recycles finished command buffers. Caller holds mutex_.
  Status PollLocked();
  Status WaitLocked(uint64_t value, std::unique_lock<std::mutex>& lock);

  Device& device_;
  uint32_t family_index_ = 0;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::vector<VkCommandPool> pools_;  // one per command buffer ever allocated
  VkSemaphore timeline_ = VK_NULL_HANDLE;

  mutable std::mutex mutex_;
  uint64_t last_submitted_ = 0;
  uint64_t completed_ = 0;
  std::deque<InFlight> in_flight_;
  std::vector<VkCommandBuffer> free_command_buffers_;
  std::vector<VkFence> free_fences_;
};

}  // namespace vkhlo::device
