#!/usr/bin/env bash
# Installs everything vkhlo needs to build, run and test, from Debian 12 packages — and, for the
# tests of vkhlo's JAX front door only, the pinned jax/jaxlib from PyPI in a virtual environment
# (.venv beside the sources, or $VKHLO_VENV).
# Idempotent and non-interactive: safe to run on every build (apt and pip skip what is present).
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
  # the virtual environment of the pinned jax/jaxlib (below)
  python3-venv
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

# The JAX front door's tests (StableHLO portable artifacts made by JAX's own tooling: the
# bytecode reader's conformance round trip) use the pinned jax/jaxlib, in a virtual environment
# made once and reused. CMake finds it as VKHLO_JAX_PYTHON (default .venv/bin/python).
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${VKHLO_VENV:-$root/.venv}"
jax_version=0.10.2
if "$venv/bin/python" -c "import jax, jaxlib, numpy, sys; sys.exit(not (jax.__version__ == jaxlib.__version__ == '$jax_version'))" \
    >/dev/null 2>&1; then
  echo "install-deps: jax/jaxlib $jax_version present in $venv"
else
  echo "install-deps: making $venv with jax/jaxlib $jax_version (PyPI)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "jax==$jax_version" "jaxlib==$jax_version" numpy
fi
