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

std::string CacheDirectory() {
  if (auto xdg = GetEnv("XDG_CACHE_HOME")) return *xdg + "/vkhlo";
  if (auto home = GetEnv("HOME")) return *home + "/.cache/vkhlo";
  return "";
}

}  // namespace vkhlo
