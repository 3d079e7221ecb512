// Client::ExecuteAndTransfer's executables (client_compile.cc); the Client holds the cache
// (client_api.cc makes it empty, which needs nothing of the compiler).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

#include "support/lru_cache.h"
#include "vkhlo/runtime.h"

namespace vkhlo::runtime {

// ExecuteAndTransfer's executables, one per computation, the least recently used dropped
// beyond ClientState::executable_cache_entries. A computation is known by its shared module
// (copies of an XlaComputation share it); the entry holds it weakly, so a computation that is
// gone frees its executable at the next miss, and an entry whose module address was reused by
// a newer computation is recognized as stale (its weak pointer no longer leads there).
struct ExecutableCache {
  struct Entry {
    std::weak_ptr<const void> module;  // the computation's module (held as void: the runtime knows no IR)
    std::shared_ptr<Executable> executable;
  };
  std::mutex mutex;  // held while compiling too: a computation compiles once
  LruCache<const void*, Entry> entries{0};
  uint64_t compiled = 0;
};

}  // namespace vkhlo::runtime
