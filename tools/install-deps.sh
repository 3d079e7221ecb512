#!/usr/bin/env bash
# Installs everything vkhlo needs to build, run and test, from Debian 12 packages only.
# Idempotent and non-interactive: safe to run on every build (apt skips what is present).
# Run as root (the README's set-up commands do).
set -euo pipefail

packages=(
  # toolchain (clang and its runtime: the libFuzzer/sanitizer build of the parser)
  build-essential cmake ccache pkg-config git clang libclang-rt-14-dev
  # Vulkan: loader + headers, Mesa's drivers (lavapipe for headless CPU runs), tools, validation
  libvulkan-dev mesa-vulkan-drivers vulkan-tools vulkan-validationlayers
  # shader compilation: GLSL -> SPIR-V at build time and in-process, SPIR-V validation/optimization
  glslang-dev glslang-tools spirv-tools spirv-headers
  # FFT on Vulkan, and host baselines for benchmarks
  libvkfft-dev libfftw3-dev libopenblas-dev
  # tests, benchmarks, command lines, formatting, JSON
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev libfmt-dev nlohmann-json3-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "install-deps: all ${#packages[@]} packages present"
fi
