// Reading vkhlo's environment variables (VKHLO_DEVICE, VKHLO_PROFILE, VKHLO_VALIDATION, ...)
// in one place, so their parsing is uniform and documented.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "vkhlo/status.h"

namespace vkhlo {

// The variable's value, or nullopt when it is unset or empty.
std::optional<std::string> GetEnv(const char* name);

// True for "1", "true", "yes", "on" (any case); false when unset or anything else.
bool GetEnvFlag(const char* name);

// A size: a non-negative integer with an optional K, M, G or T suffix (powers of 1024), as
// "1000", "64M", "2G". Limits and cache capacities are read with it. nullopt when unset or
// empty; INVALID_ARGUMENT naming the variable when it is not such a number or overflows.
StatusOr<std::optional<uint64_t>> GetEnvSize(const char* name);

// The directory for vkhlo's persistent caches: $XDG_CACHE_HOME/vkhlo, else ~/.cache/vkhlo.
// Empty when neither variable is set (caching to disk is then off).
std::string CacheDirectory();

}  // namespace vkhlo
