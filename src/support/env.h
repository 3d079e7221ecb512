// Reading vkhlo's environment variables (VKHLO_DEVICE, VKHLO_PROFILE, VKHLO_VALIDATION, ...)
// in one place, so their parsing is uniform and documented.
#pragma once

#include <optional>
#include <string>

namespace vkhlo {

// The variable's value, or nullopt when it is unset or empty.
std::optional<std::string> GetEnv(const char* name);

// True for "1", "true", "yes", "on" (any case); false when unset or anything else.
bool GetEnvFlag(const char* name);

// The directory for vkhlo's persistent caches: $XDG_CACHE_HOME/vkhlo, else ~/.cache/vkhlo.
// Empty when neither variable is set (caching to disk is then off).
std::string CacheDirectory();

}  // namespace vkhlo
