#include "env.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace vkhlo {

std::optional<std::string> GetEnv(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

bool GetEnvFlag(const char* name) {
  std::optional<std::string> value = GetEnv(name);
  if (!value) return false;
  std::string lower = *value;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "1" || lower == "true" || lower == "yes" || lower == "on";
}

StatusOr<std::optional<uint64_t>> GetEnvSize(const char* name) {
  std::optional<std::string> value = GetEnv(name);
  if (!value) return std::optional<uint64_t>();
  const std::string& text = *value;
  uint64_t number = 0;
  size_t i = 0;
  bool overflow = false;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    overflow |= __builtin_mul_overflow(number, 10, &number) ||
                __builtin_add_overflow(number, static_cast<uint64_t>(text[i] - '0'), &number);
  }
  int shift = 0;
  if (i + 1 == text.size()) {
    const char suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    shift = suffix == 'K' ? 10 : suffix == 'M' ? 20 : suffix == 'G' ? 30 : suffix == 'T' ? 40 : -1;
    ++i;
  }
  if (i == 0 || i != text.size() || shift < 0) {
    return InvalidArgumentError(std::string(name) + "='" + text +
                                "' is not a size (an integer with an optional K, M, G or T suffix)");
  }
  if (overflow || (shift > 0 && number > (UINT64_MAX >> shift))) {
    return InvalidArgumentError(std::string(name) + "='" + text + "' is too large");
  }
  return std::optional<uint64_t>(number << shift);
}

std::string CacheDirectory() {
  if (auto xdg = GetEnv("XDG_CACHE_HOME")) return *xdg + "/vkhlo";
  if (auto home = GetEnv("HOME")) return *home + "/.cache/vkhlo";
  return "";
}

}  // namespace vkhlo
