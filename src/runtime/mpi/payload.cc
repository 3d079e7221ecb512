#include "runtime/mpi/payload.h"

namespace vkhlo::runtime::mpi {

PayloadPool::PayloadPool(size_t max_idle_bytes) : state_(std::make_shared<State>()) {
  state_->max_idle_bytes = max_idle_bytes;
}

std::shared_ptr<Payload> PayloadPool::Take(size_t size) {
  std::unique_ptr<Payload> payload;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto it = state_->idle.lower_bound(size);
    if (it != state_->idle.end() && it->first / 2 <= size) {
      payload = std::move(it->second);
      state_->idle_bytes -= it->first;
      state_->idle.erase(it);
    }
  }
  if (!payload) payload = std::make_unique<Payload>(size);
  payload->size_ = size;
  std::weak_ptr<State> pool = state_;
  return std::shared_ptr<Payload>(payload.release(), [pool](Payload* p) {
    std::unique_ptr<Payload> owned(p);
    auto state = pool.lock();
    if (!state || owned->capacity_ == 0) return;
    std::lock_guard<std::mutex> lock(state->mutex);
    if (state->idle_bytes + owned->capacity_ > state->max_idle_bytes) return;
    state->idle_bytes += owned->capacity_;
    const size_t capacity = owned->capacity_;
    state->idle.emplace(capacity, std::move(owned));
  });
}

}  // namespace vkhlo::runtime::mpi
