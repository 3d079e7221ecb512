// VkFFT (Debian's header-only vkFFT.h 1.2.26) for the Vulkan backend, compiled through the
// glslang 12 compatibility shim (vkfft_glslang_compat.h) and with its own warnings silenced: the
// one way every translation unit that uses VkFFT includes it. A unit may #define Vulkan entry
// points to wrappers before including this (device/fft/vkfft_app.cc does, for masked limits).
#pragma once

#define VKFFT_BACKEND 0
#include "device/fft/vkfft_glslang_compat.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wformat-truncation"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <vkFFT.h>
#pragma GCC diagnostic pop
#include "device/fft/vkfft_glslang_compat_end.h"
