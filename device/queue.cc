#include "device/queue.h"

#include "device/device.h"
#include "device/vk_status.h"

namespace vkhlo::device {

StatusOr<std::unique_ptr<Queue>> Queue::Create(Device& device, uint32_t family_index) {
  std::unique_ptr<Queue> queue(new Queue(device));
  queue->family_index_ = family_index;
  vkGetDeviceQueue(device.handle(), family_index, 0, &queue->queue_);

  if (device.capabilities().features.timeline_semaphore) {
    VkSemaphoreTypeCreateInfo type_info{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type_info.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    type_info.initialValue = 0;
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    info.pNext = &type_info;
    VKHLO_VK_RETURN_IF_ERROR(vkCreateSemaphore(device.handle(), &info, nullptr, &queue->timeline_));
  }
  return queue;
}

Queue::~Queue() {
  VkDevice dev = device_.handle();
  vkQueueWaitIdle(queue_);  // also when lost: see Drain
  for (const InFlight& f : in_flight_) {
    if (f.fence != VK_NULL_HANDLE) vkDestroyFence(dev, f.fence, nullptr);
  }
  for (VkFence fence : free_fences_) vkDestroyFence(dev, fence, nullptr);
  if (timeline_ != VK_NULL_HANDLE) vkDestroySemaphore(dev, timeline_, nullptr);
  // Destroying a pool frees the command buffer allocated from it.
  for (VkCommandPool pool : pools_) vkDestroyCommandPool(dev, pool, nullptr);
}

StatusOr<VkCommandBuffer> Queue::BeginCommandBuffer() {
  VKHLO_RETURN_IF_ERROR(device_.CheckAlive());
  VkCommandBuffer cb = VK_NULL_HANDLE;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    VKHLO_RETURN_IF_ERROR(PollLocked());
    if (!free_command_buffers_.empty()) {
      cb = free_command_buffers_.back();
      free_command_buffers_.pop_back();
    } else {
      // A pool of its own (see the header): concurrent recording needs no lock.
      VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
      pool_info.queueFamilyIndex = family_index_;
      VkCommandPool pool = VK_NULL_HANDLE;
      VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkCreateCommandPool(device_.handle(), &pool_info, nullptr, &pool));
      pools_.push_back(pool);
      VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      info.commandPool = pool;
      info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      info.commandBufferCount = 1;
      VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkAllocateCommandBuffers(device_.handle(), &info, &cb));
    }
  }
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkResult result = VKHLO_DEVICE_CALL(device_, vkBeginCommandBuffer(cb, &begin));
  if (result != VK_SUCCESS) {
    Discard(cb);
    return device_.Check(result, "vkBeginCommandBuffer");
  }
  return cb;
}

void Queue::Discard(VkCommandBuffer command_buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  vkResetCommandBuffer(command_buffer, 0);
  free_command_buffers_.push_back(command_buffer);
}

StatusOr<uint64_t> Queue::Submit(VkCommandBuffer cb) {
  Status alive = device_.CheckAlive();
  if (!alive.ok()) {
    Discard(cb);
    return alive;
  }
  VkResult result = VKHLO_DEVICE_CALL(device_, vkEndCommandBuffer(cb));
  if (result != VK_SUCCESS) {
    Discard(cb);
    return device_.Check(result, "vkEndCommandBuffer");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t value = last_submitted_ + 1;

  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  VkTimelineSemaphoreSubmitInfo timeline_info{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  VkFence fence = VK_NULL_HANDLE;
  if (timeline_ != VK_NULL_HANDLE) {
    timeline_info.signalSemaphoreValueCount = 1;
    timeline_info.pSignalSemaphoreValues = &value;
    submit.pNext = &timeline_info;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &timeline_;
  } else {
    if (!free_fences_.empty()) {
      fence = free_fences_.back();
      free_fences_.pop_back();
    } else {
      VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      result = vkCreateFence(device_.handle(), &info, nullptr, &fence);
      if (result != VK_SUCCESS) {
        vkResetCommandBuffer(cb, 0);
        free_command_buffers_.push_back(cb);
        return device_.Check(result, "vkCreateFence");
      }
    }
  }
  result = VKHLO_DEVICE_CALL(device_, vkQueueSubmit(queue_, 1, &submit, fence));
  if (result != VK_SUCCESS) {
    if (fence != VK_NULL_HANDLE) free_fences_.push_back(fence);
    if (result != VK_ERROR_DEVICE_LOST) {
      vkResetCommandBuffer(cb, 0);
      free_command_buffers_.push_back(cb);
    }
    return device_.Check(result, "vkQueueSubmit");
  }
  last_submitted_ = value;
  in_flight_.push_back(InFlight{value, cb, fence});
  return value;
}

Status Queue::PollLocked() {
  if (timeline_ != VK_NULL_HANDLE) {
    uint64_t value = 0;
    VKHLO_DEVICE_RETURN_IF_ERROR(
        device_, vkGetSemaphoreCounterValue(device_.handle(), timeline_, &value));
    completed_ = std::max(completed_, value);
  }
  while (!in_flight_.empty()) {
    InFlight& f = in_flight_.front();
    if (f.fence != VK_NULL_HANDLE) {
      VkResult status = VKHLO_DEVICE_CALL(device_, vkGetFenceStatus(device_.handle(), f.fence));
      if (status == VK_NOT_READY) break;
      if (status != VK_SUCCESS) return device_.Check(status, "vkGetFenceStatus");
      completed_ = std::max(completed_, f.value);
      vkResetFences(device_.handle(), 1, &f.fence);
      free_fences_.push_back(f.fence);
    } else if (f.value > completed_) {
      break;
    }
    vkResetCommandBuffer(f.command_buffer, 0);
    free_command_buffers_.push_back(f.command_buffer);
    in_flight_.pop_front();
  }
  return OkStatus();
}

Status Queue::WaitLocked(uint64_t value, std::unique_lock<std::mutex>& lock) {
  if (value > last_submitted_) {
    return InvalidArgumentError("waiting for submission " + std::to_string(value) +
                                ", but only " + std::to_string(last_submitted_) +
                                " have been submitted");
  }
  VKHLO_RETURN_IF_ERROR(PollLocked());
  if (completed_ >= value) return OkStatus();
  if (timeline_ != VK_NULL_HANDLE) {
    VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    info.semaphoreCount = 1;
    info.pSemaphores = &timeline_;
    info.pValues = &value;
    // Waiting does not need the lock; other threads may submit meanwhile.
    lock.unlock();
    VkResult result = VKHLO_DEVICE_CALL(device_, vkWaitSemaphores(device_.handle(), &info, UINT64_MAX));
    lock.lock();
    if (result != VK_SUCCESS) return device_.Check(result, "vkWaitSemaphores");
  } else {
    VkFence fence = VK_NULL_HANDLE;
    for (const InFlight& f : in_flight_) {
      if (f.value >= value) {
        fence = f.fence;
        break;
      }
    }
    if (fence != VK_NULL_HANDLE) {
      // Waited on with the lock held: another thread's PollLocked could otherwise reset and
      // reuse this fence while it is being waited on.
      VkResult result = VKHLO_DEVICE_CALL(device_, vkWaitForFences(device_.handle(), 1, &fence, VK_TRUE, UINT64_MAX));
      if (result != VK_SUCCESS) return device_.Check(result, "vkWaitForFences");
    }
  }
  return PollLocked();
}

Status Queue::Wait(uint64_t value) {
  VKHLO_RETURN_IF_ERROR(device_.CheckAlive());
  std::unique_lock<std::mutex> lock(mutex_);
  return WaitLocked(value, lock);
}

Status Queue::WithExclusiveQueue(const std::function<Status(VkQueue)>& use) {
  VKHLO_RETURN_IF_ERROR(device_.CheckAlive());
  std::lock_guard<std::mutex> lock(mutex_);
  return use(queue_);
}

StatusOr<bool> Queue::IsComplete(uint64_t value) {
  VKHLO_RETURN_IF_ERROR(device_.CheckAlive());
  std::lock_guard<std::mutex> lock(mutex_);
  VKHLO_RETURN_IF_ERROR(PollLocked());
  return completed_ >= value;
}

void Queue::Drain() {
  std::lock_guard<std::mutex> lock(mutex_);
  vkQueueWaitIdle(queue_);  // the result does not matter: afterwards nothing runs
}

Status Queue::WaitIdle() {
  VKHLO_RETURN_IF_ERROR(device_.CheckAlive());
  std::unique_lock<std::mutex> lock(mutex_);
  if (last_submitted_ == 0) return OkStatus();
  return WaitLocked(last_submitted_, lock);
}

uint64_t Queue::last_submitted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_submitted_;
}

}  // namespace vkhlo::device
