// CheckLoadedKernel (kernel_check.h) in the runtime-only library, which links no SPIRV-Tools:
// the module's header (magic number, a SPIR-V version up to 1.6, a bound) and the instruction
// stream's structure (every instruction's word count at least one and within the module).
#include <fmt/format.h>

#include "runtime/kernel_check.h"

namespace vkhlo::runtime {

Status CheckLoadedKernel(const plan::Kernel& kernel, uint32_t) {
  const std::vector<uint32_t>& w = kernel.spirv;
  auto fail = [&](const std::string& what) {
    return InvalidArgumentError(fmt::format("plan kernel '{}': its SPIR-V is not a valid module: {}", kernel.name, what));
  };
  constexpr size_t kHeaderWords = 5;
  if (w.size() < kHeaderWords || w[0] != 0x07230203u) return fail("no SPIR-V header");
  const uint32_t major = (w[1] >> 16) & 0xff, minor = (w[1] >> 8) & 0xff;
  if (major != 1 || minor > 6) return fail(fmt::format("SPIR-V version {}.{}", major, minor));
  if (w[3] == 0 || w[4] != 0) return fail("a bound of zero or a reserved word set");
  for (size_t i = kHeaderWords; i < w.size();) {
    const uint32_t count = w[i] >> 16;
    if (count == 0 || count > w.size() - i) {
      return fail(fmt::format("the instruction at word {} claims {} words, {} remain", i, count, w.size() - i));
    }
    i += count;
  }
  return OkStatus();
}

}  // namespace vkhlo::runtime
