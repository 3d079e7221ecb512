#include "pjrt/compile_cache.h"

#include <fmt/format.h>

#include <functional>

namespace vkhlo::pjrt {
namespace {

uint64_t Fnv1a64(std::string_view bytes, uint64_t hash = 0xcbf29ce484222325ull) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

}  // namespace

std::string ProgramDigest(std::string_view code, std::string_view options) {
  // A separator that cannot be confused with a shift of bytes between the two parts.
  const uint64_t fnv = Fnv1a64(options, Fnv1a64(fmt::format("|{}|", code.size()), Fnv1a64(code)));
  const uint64_t other = std::hash<std::string_view>{}(code) * 31 + std::hash<std::string_view>{}(options);
  return fmt::format("{:016x}{:016x}{:08x}", fnv, other, static_cast<uint32_t>(code.size() + options.size()));
}

void CompileCache::set_capacity(uint64_t entries) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.set_capacity(entries);
}

std::shared_ptr<const CompiledProgram> CompileCache::Find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const CompiledProgram>* program = entries_.Find(key);
  if (program == nullptr) return nullptr;
  ++hits_;
  return *program;
}

void CompileCache::Insert(const std::string& key, std::shared_ptr<const CompiledProgram> program) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.Insert(key, std::move(program));
}

uint64_t CompileCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

}  // namespace vkhlo::pjrt
