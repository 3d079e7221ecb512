// How much host memory one program's tensors may take, so that a program whose tensors could
// never fit fails at once with a clear error instead of swapping, being killed, or running
// for hours over a huge splat (the reference interpreter, ir::Literal allocations).
#pragma once

#include <cstdint>

#include "vkhlo/status.h"

namespace vkhlo {

// The host's physical memory, or the cgroup's memory.max when that is lower (containers).
uint64_t PhysicalMemoryBytes();

// VKHLO_HOST_MEMORY_LIMIT (a size: "8G", env.h) when set, else PhysicalMemoryBytes(). The
// variable is read on every call (cheap), so a service can change it between programs.
StatusOr<uint64_t> HostMemoryLimitBytes();

}  // namespace vkhlo
