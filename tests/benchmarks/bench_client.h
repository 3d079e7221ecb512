// What the device benchmarks share: one Client for the whole process (opened on first use; a
// benchmark binary without a device exits with the reason) and uploads of host vectors.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "vkhlo/runtime.h"

namespace vkhlo::bench {

inline const Client& SharedClient() {
  static const Client* client = [] {
    auto created = Client::Create();
    if (!created.ok()) {
      std::fprintf(stderr, "cannot open a Vulkan device: %s\n", created.status().ToString().c_str());
      std::exit(1);
    }
    return created->release();  // lives for the process
  }();
  return *client;
}

// `host` as a device tensor of element type `type` (e.g. "f32") and `dims`; aborts on failure
// (a benchmark has nothing sensible to measure then).
template <typename T>
Buffer Upload(const std::vector<T>& host, const char* type, std::vector<int64_t> dims) {
  auto b = SharedClient().BufferFromHost(
      {type, std::move(dims)}, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(host.data()), host.size() * sizeof(T)));
  if (!b.ok()) {
    std::fprintf(stderr, "upload: %s\n", b.status().ToString().c_str());
    std::abort();
  }
  return *b;
}

}  // namespace vkhlo::bench
