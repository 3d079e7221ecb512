// Compiled programs of a client, and the cache that keeps them by their bytes. JAX compiles
// every distinct program once per process itself, but eager op-by-op code and freshly traced
// functions send identical programs again (the same `jnp.add` on the same shapes from another
// jit, a retraced lambda): the cache answers those without parsing or compiling anything. Keyed
// by a digest of the program and compile-option bytes (two independent 64-bit hashes and the
// length: the bytes themselves, megabytes with constants, are not kept); least recently used
// out first beyond its capacity (create option "compile_cache_entries", default 256).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "pjrt/program_signature.h"
#include "support/lru_cache.h"
#include "vkhlo/runtime.h"

namespace vkhlo::pjrt {

struct CompiledProgram {
  std::unique_ptr<Executable> executable;
  ProgramSignature signature;
  std::string fingerprint;  // hex digest of the program and options bytes
  // PJRT_Executable_OutputDimensions / OutputMemoryKinds: flattened storage for the C arrays.
  std::vector<int64_t> output_dims;
  std::vector<size_t> output_dim_sizes;
  std::vector<const char*> output_memory_kinds;
  std::vector<size_t> output_memory_kind_sizes;
};

// The digest of a compile call's bytes: 40 hex digits, also the executables' fingerprint.
std::string ProgramDigest(std::string_view code, std::string_view options);

class CompileCache {
 public:
  static constexpr uint64_t kDefaultEntries = 256;

  void set_capacity(uint64_t entries);
  std::shared_ptr<const CompiledProgram> Find(const std::string& key);
  void Insert(const std::string& key, std::shared_ptr<const CompiledProgram> program);
  uint64_t hits() const;

 private:
  mutable std::mutex mutex_;
  LruCache<std::string, std::shared_ptr<const CompiledProgram>> entries_{kDefaultEntries};
  uint64_t hits_ = 0;
};

}  // namespace vkhlo::pjrt
