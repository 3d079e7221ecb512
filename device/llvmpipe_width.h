// The SIMD width of Mesa's llvmpipe (lavapipe, the Vulkan CPU driver), chosen before it starts.
//
// llvmpipe runs a subgroup as one SIMD vector of LP_NATIVE_VECTOR_WIDTH bits. Mesa 22.3
// defaults to 256 (8 lanes) even where the CPU has AVX-512; at 512 (16 lanes) vkhlo's kernels do
// the same instructions on twice the data. Measured on this project's 2-vCPU AVX-512 machine
// (docs/device.md, "llvmpipe width"): SGEMM 1.3-1.4x faster at 1024^3 and 2048^3, full
// and column sums faster, element-wise chains, sort and small products about the same, FFT
// (VkFFT's kernels) 15-25% slower.
//
// Mesa reads the variable once per process, when the first llvmpipe device is created, so vkhlo
// sets it before creating its Vulkan instance, process-wide (any other llvmpipe user in the
// process, OpenGL included, gets the same width). It never overrides a value the user set, and
// VKHLO_LLVMPIPE_WIDE=0 leaves Mesa's default. Other drivers ignore the variable.
#pragma once

#include <string>

namespace vkhlo::device {

// Sets LP_NATIVE_VECTOR_WIDTH=512 when the host CPU has AVX-512 (F, BW, DQ, VL), the variable is
// unset and VKHLO_LLVMPIPE_WIDE is not off. Idempotent and thread-safe; returns what it did, for
// the device summary ("LP_NATIVE_VECTOR_WIDTH=512 (AVX-512 host)", "left as set: 256", ...).
std::string PreferWideLlvmpipeVectors();

}  // namespace vkhlo::device
