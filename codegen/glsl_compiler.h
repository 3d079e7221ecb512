// GLSL -> SPIR-V in process: glslang's C++ API, then spirv-val, then spirv-opt's performance
// passes, then spirv-val again. Results are cached by content in memory and on disk.
//
//   GlslCompiler compiler(CacheDirectory());
//   auto spirv = compiler.Compile(source, {.name = "fusion_3"});
//
// Every module that comes out has passed the validator; a module that does not is an INTERNAL
// error carrying the validator's message and the numbered GLSL (codegen produced it, so it is
// a bug of vkhlo, never of the user's program).
//
// `#include "name"` is resolved through the GLSL library (codegen/glsl/glsl_library.h) when it
// is built in; otherwise an include is an error naming the file.
//
// Caching: the key is a 128-bit hash of the source, the options, the compiler versions
// (glslang, SPIRV-Tools, this file's format) and the contents of the GLSL library (which the
// source may include). The disk cache lives in
// <cache_directory>/spirv/<key>.spv; files are written atomically (temporary file + rename) and a
// damaged or foreign file is ignored and rewritten. The memory cache keeps at most
// `memory_cache_bytes` of SPIR-V (least recently used out first); the disk cache is not
// bounded here. Thread-safe; CompileAll compiles independent kernels on several threads
// (glslang's process state is initialised once; each compile has its own shader, program and
// optimizer; the caches are touched under the lock only).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "codegen/target.h"
#include "support/lru_cache.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen {

struct GlslCompileOptions {
  std::string name = "kernel";  // for messages
  // Vulkan 1.1 targets SPIR-V 1.3; 0 targets Vulkan 1.0 / SPIR-V 1.0.
  uint32_t vulkan_api_minor = 1;
  bool optimize = true;  // spirv-opt performance passes
  // Float-control execution modes to declare (codegen/spirv_float_controls.h); only those of
  // widths the module uses are added.
  FloatControls float_controls;

  // The options every kernel for `target` compiles with.
  static GlslCompileOptions ForTarget(const TargetInfo& target, std::string name);
};

using SpirvWords = std::vector<uint32_t>;

struct GlslCompilerStats {
  uint64_t memory_hits = 0;
  uint64_t disk_hits = 0;
  uint64_t compiles = 0;        // glslang runs
  uint64_t disk_writes = 0;
  uint64_t damaged_files = 0;   // cache files that failed their checks and were ignored
  uint64_t memory_bytes = 0;    // SPIR-V (and keys) held in memory now
  uint64_t memory_entries = 0;
  uint64_t memory_evictions = 0;  // modules dropped from memory to stay within its limit
  double compile_ms = 0;        // glslang (parse, link, SPIR-V generation)
  double validate_ms = 0;       // spirv-val, both runs
  double optimize_ms = 0;       // spirv-opt
};

class GlslCompiler {
 public:
  static constexpr uint64_t kDefaultMemoryCacheBytes = 64ull << 20;

  // `cache_directory`: where the disk cache goes (its spirv/ subfolder); empty disables it.
  explicit GlslCompiler(std::string cache_directory, uint64_t memory_cache_bytes = kDefaultMemoryCacheBytes);
  ~GlslCompiler();
  GlslCompiler(const GlslCompiler&) = delete;
  GlslCompiler& operator=(const GlslCompiler&) = delete;

  StatusOr<std::shared_ptr<const SpirvWords>> Compile(std::string_view source,
                                                      const GlslCompileOptions& options = {});

  // Independent kernels at once: the same modules as Compile on each, in the same order, with
  // the cache misses compiled on up to `threads` threads (1: one after the other on the
  // caller's). A source given twice is compiled once. `timings`, when given, gets each job's
  // own time (a cache hit's lookup, or its compile, which overlaps others') and whether glslang
  // ran for it.
  struct Job {
    std::string_view source;
    GlslCompileOptions options;
  };
  struct JobTiming {
    double ms = 0;
    bool compiled = false;
  };
  std::vector<StatusOr<std::shared_ptr<const SpirvWords>>> CompileAll(std::span<const Job> jobs, unsigned threads,
                                                                      std::vector<JobTiming>* timings = nullptr);

  GlslCompilerStats stats() const;
  // Forgets the in-memory cache (tests of the disk cache).
  void ClearMemoryCache();
  const std::string& disk_directory() const { return disk_directory_; }

  // The versions that go into every cache key.
  static std::string VersionString();

 private:
  // Adds its times and counts to `stats` (which the caller guards).
  static StatusOr<SpirvWords> CompileUncached(std::string_view source, const GlslCompileOptions& options,
                                              GlslCompilerStats& stats);
  std::shared_ptr<const SpirvWords> ReadDisk(const std::string& key);
  void WriteDisk(const std::string& key, const SpirvWords& words);

  std::string disk_directory_;  // "<cache_directory>/spirv" or empty
  mutable std::mutex mutex_;
  LruCache<std::string, std::shared_ptr<const SpirvWords>> memory_;
  GlslCompilerStats stats_;
};

// spirv-val under the Vulkan environment of `vulkan_api_minor`. OK or the validator's message.
Status ValidateSpirv(std::span<const uint32_t> words, uint32_t vulkan_api_minor = 1);

// The SPIR-V assembly text (for --dump-kernels and messages).
std::string DisassembleSpirv(std::span<const uint32_t> words);

// `source` with line numbers, for error messages about generated GLSL.
std::string NumberLines(std::string_view source);

}  // namespace vkhlo::codegen
