// Host buffers for the tensors an MPI grid moves: left uninitialized (a download or MPI writes
// every byte) and reused. A 256 MiB std::vector would be zeroed, and its pages faulted in and
// given back, on every collective — costing more than moving the bytes between ranks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace vkhlo::runtime::mpi {

class Payload {
 public:
  explicit Payload(size_t size) : bytes_(new uint8_t[size]), size_(size), capacity_(size) {}
  uint8_t* data() { return bytes_.get(); }
  const uint8_t* data() const { return bytes_.get(); }
  size_t size() const { return size_; }

 private:
  friend class PayloadPool;
  std::unique_ptr<uint8_t[]> bytes_;
  size_t size_;
  size_t capacity_;
};

// Idle payloads, reused for requests of up to their size and at least half of it; at most
// `max_idle_bytes` are kept. Buffers go back when their last reference does (from any thread).
class PayloadPool {
 public:
  explicit PayloadPool(size_t max_idle_bytes = size_t{1} << 30);
  std::shared_ptr<Payload> Take(size_t size);

 private:
  struct State {
    std::mutex mutex;
    std::multimap<size_t, std::unique_ptr<Payload>> idle;  // by capacity
    size_t idle_bytes = 0;
    size_t max_idle_bytes = 0;
  };
  std::shared_ptr<State> state_;
};

}  // namespace vkhlo::runtime::mpi
