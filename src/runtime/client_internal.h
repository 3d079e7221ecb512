// Entry points of the runtime alone for vkhlo's own tools and tests: opening a client on a
// device with given options, and the bounds of a client's caches. The compiler's entry points
// (compiling a parsed module, IR literals in and out of buffers) are runtime_internal.h's.
#pragma once

#include <cstdint>

#include "device/device.h"
#include "runtime/state.h"
#include "vkhlo/runtime.h"

namespace vkhlo::runtime {

// Bounds of a client's own in-memory caches (the pipeline cache's is in DeviceOptions).
struct ClientCacheLimits {
  uint64_t spirv_cache_bytes = 64ull << 20;  // GlslCompiler's memory cache
  uint64_t executable_cache_entries = 64;    // ExecuteAndTransfer's executables
  uint64_t specialization_cache_entries = 16;  // each polymorphic executable's specialisations
  // The defaults, overridden by VKHLO_SPIRV_CACHE_BYTES, VKHLO_EXECUTABLE_CACHE_ENTRIES and
  // VKHLO_SPECIALIZATION_CACHE_ENTRIES.
  static StatusOr<ClientCacheLimits> FromEnvironment();
};

// A client on a device opened with `options` (tests install their validation handler), its
// caches bounded by `limits` (by default: from the environment).
StatusOr<Client> CreateClient(device::DeviceOptions options, ClientCacheLimits limits);
StatusOr<Client> CreateClient(device::DeviceOptions options);

// Whether `buffer` lives on `client` (and so on its device).
bool SameClient(const Buffer& buffer, const Client& client);

}  // namespace vkhlo::runtime
