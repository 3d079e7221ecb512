#include "support/host_memory.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "support/env.h"

namespace vkhlo {
namespace {

uint64_t QueryPhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  uint64_t bytes = pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size)
                                              : UINT64_MAX;
  // cgroup v2: "max" or a number of bytes.
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  std::string limit;
  if (cgroup >> limit && !limit.empty() && limit != "max" &&
      limit.find_first_not_of("0123456789") == std::string::npos && limit.size() < 20) {
    bytes = std::min<uint64_t>(bytes, std::stoull(limit));
  }
  return bytes;
}

}  // namespace

uint64_t PhysicalMemoryBytes() {
  static const uint64_t bytes = QueryPhysicalMemory();
  return bytes;
}

StatusOr<uint64_t> HostMemoryLimitBytes() {
  VKHLO_ASSIGN_OR_RETURN(std::optional<uint64_t> limit, GetEnvSize("VKHLO_HOST_MEMORY_LIMIT"));
  return limit ? *limit : PhysicalMemoryBytes();
}

}  // namespace vkhlo
