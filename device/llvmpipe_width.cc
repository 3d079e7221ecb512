#include "device/llvmpipe_width.h"

#include <fmt/format.h>

#include <cstdlib>
#include <mutex>

#include "support/env.h"

namespace vkhlo::device {
namespace {

bool HostHasAvx512() {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

// Unset means yes; otherwise the usual flag values ("1", "true", ...; "0" is no).
bool WideAllowed() { return !GetEnv("VKHLO_LLVMPIPE_WIDE") || GetEnvFlag("VKHLO_LLVMPIPE_WIDE"); }

}  // namespace

std::string PreferWideLlvmpipeVectors() {
  static std::once_flag once;
  static std::string what;
  std::call_once(once, [] {
    if (std::optional<std::string> set = GetEnv("LP_NATIVE_VECTOR_WIDTH")) {
      what = fmt::format("LP_NATIVE_VECTOR_WIDTH left as set: {}", *set);
    } else if (!WideAllowed()) {
      what = "Mesa's default width (VKHLO_LLVMPIPE_WIDE is off)";
    } else if (!HostHasAvx512()) {
      what = "Mesa's default width (no AVX-512)";
    } else {
      // Before any llvmpipe device exists: vkhlo calls this ahead of vkCreateInstance.
      setenv("LP_NATIVE_VECTOR_WIDTH", "512", /*overwrite=*/0);
      what = "LP_NATIVE_VECTOR_WIDTH=512 (AVX-512 host)";
    }
  });
  return what;
}

}  // namespace vkhlo::device
