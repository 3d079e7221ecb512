#include "codegen/glsl_compiler.h"

#include <fmt/format.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <glslang/build_info.h>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "codegen/glsl/glsl_library.h"
#include "codegen/spirv_float_controls.h"

namespace vkhlo::codegen {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Bump when the cache file layout or the meaning of a key changes.
constexpr uint32_t kCacheFormat = 1;
constexpr char kMagic[8] = {'V', 'K', 'H', 'L', 'O', 'S', 'P', 'V'};

uint64_t Fnv1a(std::string_view data, uint64_t hash) {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

// A 128-bit content key from two differently seeded 64-bit hashes (hex, 32 characters).
std::string ContentKey(std::string_view source, const GlslCompileOptions& options) {
  const FloatControls& fc = options.float_controls;
  const std::string header =
      fmt::format("{}|vk1.{}|opt{}|fc{}{}{}{}{}{}{}{}{}|", GlslCompiler::VersionString(), options.vulkan_api_minor,
                  options.optimize ? 1 : 0, int(fc.signed_zero_inf_nan_preserve_16), int(fc.signed_zero_inf_nan_preserve_32),
                  int(fc.signed_zero_inf_nan_preserve_64), int(fc.rounding_mode_rte_16), int(fc.rounding_mode_rte_32),
                  int(fc.rounding_mode_rte_64), int(fc.denorm_preserve_16), int(fc.denorm_preserve_32),
                  int(fc.denorm_preserve_64));
  uint64_t a = Fnv1a(source, Fnv1a(header, 1469598103934665603ull));
  uint64_t b = Fnv1a(source, Fnv1a(header, 0x9e3779b97f4a7c15ull));
  return fmt::format("{:016x}{:016x}", a, b);
}

uint64_t WordsChecksum(const SpirvWords& words) {
  return Fnv1a(std::string_view(reinterpret_cast<const char*>(words.data()), words.size() * 4),
               1469598103934665603ull);
}

spv_target_env TargetEnv(uint32_t vulkan_api_minor) {
  return vulkan_api_minor >= 1 ? SPV_ENV_VULKAN_1_1 : SPV_ENV_VULKAN_1_0;
}

void InitializeGlslangOnce() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

// Resolves `#include "name"` from the GLSL library compiled into vkhlo.
class LibraryIncluder : public glslang::TShader::Includer {
 public:
  IncludeResult* includeLocal(const char* header_name, const char*, size_t) override {
    return Find(header_name);
  }
  IncludeResult* includeSystem(const char* header_name, const char*, size_t) override {
    return Find(header_name);
  }
  void releaseInclude(IncludeResult* result) override { delete result; }

 private:
  IncludeResult* Find(const char* name) {
    if (std::optional<std::string_view> text = FindGlslLibraryFile(name)) {
      return new IncludeResult(name, text->data(), text->size(), nullptr);
    }
    return nullptr;  // glslang reports the missing file
  }
};

std::string Disassemble(std::span<const uint32_t> words, spv_target_env env) {
  spvtools::SpirvTools tools(env);
  std::string text;
  if (!tools.Disassemble(words.data(), words.size(), &text,
                         SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES)) {
    return "; (the module could not be disassembled)\n";
  }
  return text;
}

}  // namespace

std::string NumberLines(std::string_view source) {
  std::string out;
  int line = 1;
  size_t start = 0;
  while (start < source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    out += fmt::format("{:4}  {}\n", line++, source.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

Status ValidateSpirv(std::span<const uint32_t> words, uint32_t vulkan_api_minor) {
  spvtools::SpirvTools tools(TargetEnv(vulkan_api_minor));
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& position,
                               const char* message) {
    messages += fmt::format("word {}: {}\n", position.index, message);
  });
  spvtools::ValidatorOptions options;
  if (!tools.Validate(words.data(), words.size(), options)) {
    return InternalError("spirv-val: " + (messages.empty() ? std::string("invalid module") : messages));
  }
  return OkStatus();
}

std::string DisassembleSpirv(std::span<const uint32_t> words) {
  return Disassemble(words, SPV_ENV_VULKAN_1_1);
}

namespace {

// A hash of every file of the GLSL library: a kernel's SPIR-V depends on the files it includes,
// so a library change (or a build with more files) must not reuse SPIR-V cached before it.
uint64_t LibraryHash() {
  static const uint64_t hash = [] {
    uint64_t h = 1469598103934665603ull;
    for (std::string_view name : GlslLibraryFileNames()) {
      h = Fnv1a(name, h);
      h = Fnv1a(FindGlslLibraryFile(name).value_or(""), h);
    }
    return h;
  }();
  return hash;
}

}  // namespace

std::string GlslCompiler::VersionString() {
  return fmt::format("glslang {}.{}.{} / {} / glsl library {:016x} / vkhlo-spirv-cache {}", GLSLANG_VERSION_MAJOR,
                     GLSLANG_VERSION_MINOR, GLSLANG_VERSION_PATCH, spvSoftwareVersionString(), LibraryHash(),
                     kCacheFormat);
}

GlslCompiler::GlslCompiler(std::string cache_directory, uint64_t memory_cache_bytes) : memory_(memory_cache_bytes) {
  if (!cache_directory.empty()) disk_directory_ = cache_directory + "/spirv";
}

GlslCompiler::~GlslCompiler() = default;

GlslCompilerStats GlslCompiler::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  GlslCompilerStats stats = stats_;
  stats.memory_bytes = memory_.cost();
  stats.memory_entries = memory_.size();
  stats.memory_evictions = memory_.evictions();
  return stats;
}

void GlslCompiler::ClearMemoryCache() {
  std::lock_guard<std::mutex> lock(mutex_);
  memory_.Clear();
}

StatusOr<std::shared_ptr<const SpirvWords>> GlslCompiler::Compile(std::string_view source,
                                                                  const GlslCompileOptions& options) {
  const std::string key = ContentKey(source, options);
  // One compile at a time: glslang keeps per-process state, and a second caller asking for the
  // same kernel should wait for the first rather than compile it twice.
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::shared_ptr<const SpirvWords>* cached = memory_.Find(key)) {
    stats_.memory_hits++;
    return *cached;
  }
  const auto remember = [&](const std::shared_ptr<const SpirvWords>& words) {
    memory_.Insert(key, words, key.size() + words->size() * sizeof(uint32_t));
  };
  if (std::shared_ptr<const SpirvWords> cached = ReadDisk(key)) {
    stats_.disk_hits++;
    remember(cached);
    return cached;
  }
  VKHLO_ASSIGN_OR_RETURN(SpirvWords words, CompileUncached(source, options, stats_));
  auto shared = std::make_shared<const SpirvWords>(std::move(words));
  WriteDisk(key, *shared);
  remember(shared);
  return shared;
}

std::vector<StatusOr<std::shared_ptr<const SpirvWords>>> GlslCompiler::CompileAll(std::span<const Job> jobs,
                                                                                  unsigned threads,
                                                                                  std::vector<JobTiming>* timings) {
  std::vector<StatusOr<std::shared_ptr<const SpirvWords>>> results(jobs.size(), InternalError("not compiled"));
  std::vector<JobTiming> times(jobs.size());
  std::vector<std::string> keys(jobs.size());
  std::vector<size_t> misses;                       // first job of each key not cached
  std::unordered_map<std::string, size_t> pending;  // key -> its first job
  std::vector<size_t> same_as(jobs.size(), SIZE_MAX);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < jobs.size(); ++i) {
      const auto start = Clock::now();
      keys[i] = ContentKey(jobs[i].source, jobs[i].options);
      if (auto it = pending.find(keys[i]); it != pending.end()) {
        same_as[i] = it->second;
        stats_.memory_hits++;
      } else if (std::shared_ptr<const SpirvWords>* cached = memory_.Find(keys[i])) {
        stats_.memory_hits++;
        results[i] = *cached;
      } else if (std::shared_ptr<const SpirvWords> read = ReadDisk(keys[i])) {
        stats_.disk_hits++;
        memory_.Insert(keys[i], read, keys[i].size() + read->size() * sizeof(uint32_t));
        results[i] = read;
      } else {
        pending.emplace(keys[i], i);
        misses.push_back(i);
      }
      times[i].ms = MillisecondsSince(start);
    }
  }
  // The misses, each on whichever thread takes it next; results land in their job's slot, so
  // the order of the threads never shows.
  std::vector<GlslCompilerStats> thread_stats(std::max(1u, std::min<unsigned>(threads, misses.size())));
  std::atomic<size_t> next{0};
  auto work = [&](GlslCompilerStats& stats) {
    for (size_t m = next++; m < misses.size(); m = next++) {
      const size_t i = misses[m];
      const auto start = Clock::now();
      StatusOr<SpirvWords> words = CompileUncached(jobs[i].source, jobs[i].options, stats);
      results[i] = words.ok() ? StatusOr<std::shared_ptr<const SpirvWords>>(
                                    std::make_shared<const SpirvWords>(std::move(*words)))
                              : StatusOr<std::shared_ptr<const SpirvWords>>(words.status());
      times[i].ms += MillisecondsSince(start);
      times[i].compiled = true;
    }
  };
  if (thread_stats.size() == 1) {
    work(thread_stats[0]);
  } else {
    std::vector<std::thread> pool;
    for (size_t t = 1; t < thread_stats.size(); ++t) pool.emplace_back(work, std::ref(thread_stats[t]));
    work(thread_stats[0]);
    for (std::thread& thread : pool) thread.join();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const GlslCompilerStats& t : thread_stats) {
      stats_.compiles += t.compiles;
      stats_.compile_ms += t.compile_ms;
      stats_.validate_ms += t.validate_ms;
      stats_.optimize_ms += t.optimize_ms;
    }
    for (size_t i : misses) {
      if (!results[i].ok()) continue;
      WriteDisk(keys[i], **results[i]);
      memory_.Insert(keys[i], *results[i], keys[i].size() + (*results[i])->size() * sizeof(uint32_t));
    }
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (same_as[i] != SIZE_MAX) results[i] = results[same_as[i]];
  }
  if (timings != nullptr) *timings = std::move(times);
  return results;
}

GlslCompileOptions GlslCompileOptions::ForTarget(const TargetInfo& target, std::string name) {
  GlslCompileOptions options;
  options.name = std::move(name);
  options.vulkan_api_minor = target.vulkan_api_minor;
  options.float_controls = target.float_controls;
  return options;
}

StatusOr<SpirvWords> GlslCompiler::CompileUncached(std::string_view source, const GlslCompileOptions& options,
                                                   GlslCompilerStats& stats) {
  InitializeGlslangOnce();
  auto internal = [&](std::string_view what, std::string_view log) {
    return InternalError(fmt::format("kernel '{}': {}:\n{}\n--- generated GLSL ---\n{}", options.name,
                                     what, log, NumberLines(source)));
  };
  auto start = Clock::now();
  const bool vulkan_1_1 = options.vulkan_api_minor >= 1;
  glslang::TShader shader(EShLangCompute);
  const char* text = source.data();
  const int length = static_cast<int>(source.size());
  const char* name = options.name.c_str();
  shader.setStringsWithLengthsAndNames(&text, &length, &name, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan,
                      vulkan_1_1 ? glslang::EShTargetVulkan_1_1 : glslang::EShTargetVulkan_1_0);
  shader.setEnvTarget(glslang::EShTargetSpv, vulkan_1_1 ? glslang::EShTargetSpv_1_3 : glslang::EShTargetSpv_1_0);
  shader.setEntryPoint("main");
  LibraryIncluder includer;
  const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (!shader.parse(GetDefaultResources(), 450, ECoreProfile, false, false, messages, includer)) {
    return internal("glslang could not compile the generated GLSL", shader.getInfoLog());
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) return internal("glslang could not link the generated GLSL", program.getInfoLog());
  SpirvWords words;
  spv::SpvBuildLogger logger;
  glslang::SpvOptions spv_options;
  spv_options.disableOptimizer = true;  // spirv-opt runs below, with validation around it
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), words, &logger, &spv_options);
  if (options.float_controls.any()) {
    StatusOr<SpirvWords> declared = AddFloatControls(words, options.float_controls);
    if (!declared.ok()) return internal("declaring float controls failed", declared.status().message());
    words = std::move(*declared);
  }
  stats.compiles++;
  stats.compile_ms += MillisecondsSince(start);

  start = Clock::now();
  Status valid = ValidateSpirv(words, options.vulkan_api_minor);
  stats.validate_ms += MillisecondsSince(start);
  if (!valid.ok()) return internal("glslang produced an invalid module", valid.message());

  if (options.optimize) {
    start = Clock::now();
    spvtools::Optimizer optimizer(TargetEnv(options.vulkan_api_minor));
    std::string opt_messages;
    optimizer.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t&,
                                     const char* message) {
      if (level <= SPV_MSG_ERROR) opt_messages += std::string(message) + "\n";
    });
    optimizer.RegisterPerformancePasses();
    SpirvWords optimized;
    if (!optimizer.Run(words.data(), words.size(), &optimized)) {
      return internal("spirv-opt failed", opt_messages);
    }
    stats.optimize_ms += MillisecondsSince(start);
    start = Clock::now();
    valid = ValidateSpirv(optimized, options.vulkan_api_minor);
    stats.validate_ms += MillisecondsSince(start);
    if (!valid.ok()) return internal("spirv-opt produced an invalid module", valid.message());
    words = std::move(optimized);
  }
  return words;
}

// Cache file: magic, format, key (32 hex characters), word count, checksum, words.
std::shared_ptr<const SpirvWords> GlslCompiler::ReadDisk(const std::string& key) {
  if (disk_directory_.empty()) return nullptr;
  std::ifstream in(disk_directory_ + "/" + key + ".spv", std::ios::binary);
  if (!in) return nullptr;
  char magic[8];
  uint32_t format = 0;
  char stored_key[32];
  uint64_t count = 0, checksum = 0;
  in.read(magic, 8);
  in.read(reinterpret_cast<char*>(&format), 4);
  in.read(stored_key, 32);
  in.read(reinterpret_cast<char*>(&count), 8);
  in.read(reinterpret_cast<char*>(&checksum), 8);
  auto damaged = [&]() -> std::shared_ptr<const SpirvWords> {
    stats_.damaged_files++;
    return nullptr;
  };
  if (!in || std::memcmp(magic, kMagic, 8) != 0 || format != kCacheFormat ||
      std::string_view(stored_key, 32) != key || count == 0 || count > (64u << 20)) {
    return damaged();
  }
  SpirvWords words(count);
  in.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(count * 4));
  if (!in || in.peek() != std::char_traits<char>::eof() || WordsChecksum(words) != checksum ||
      words[0] != 0x07230203u) {
    return damaged();
  }
  return std::make_shared<const SpirvWords>(std::move(words));
}

void GlslCompiler::WriteDisk(const std::string& key, const SpirvWords& words) {
  if (disk_directory_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(disk_directory_, ec);
  if (ec) return;  // a cache that cannot be written only makes the next run slower
  const std::string path = disk_directory_ + "/" + key + ".spv";
  const std::string temporary = fmt::format("{}.tmp{}", path, getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    const uint64_t count = words.size(), checksum = WordsChecksum(words);
    out.write(kMagic, 8);
    out.write(reinterpret_cast<const char*>(&kCacheFormat), 4);
    out.write(key.data(), 32);
    out.write(reinterpret_cast<const char*>(&count), 8);
    out.write(reinterpret_cast<const char*>(&checksum), 8);
    out.write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(count * 4));
    if (!out) {
      std::filesystem::remove(temporary, ec);
      return;
    }
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return;
  }
  stats_.disk_writes++;
}

}  // namespace vkhlo::codegen
