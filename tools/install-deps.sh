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
  # MPI: the process grid across processes and machines (vkhlo-run --grid=mpi, the mpi.* tests)
  libopenmpi-dev openmpi-bin
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

# Building the JAX plugin's Python package (python/, a wheel carrying libvkhlo_pjrt.so) without
# build isolation, as its test does: the wheel builder beside the venv's setuptools.
wheel_version=0.45.1
if "$venv/bin/python" -c "import wheel, sys; sys.exit(wheel.__version__ != '$wheel_version')" >/dev/null 2>&1; then
  echo "install-deps: wheel $wheel_version present in $venv"
else
  "$venv/bin/pip" install -q --disable-pip-version-check "wheel==$wheel_version"
fi

# The PJRT C API header the JAX plugin (pjrt/, libvkhlo_pjrt.so) is built against. No Debian
# package has it; the tensorflow-cpu wheel ships it (include/xla/pjrt/c/pjrt_c_api.h, PJRT C API
# 0.72, Apache-2.0). The wheel is pinned by version and checksum (259 MB, any Python: only the
# header is used), downloaded once into a cache outside the sources ($VKHLO_DEPS_CACHE, default
# ~/.cache/vkhlo-deps) so fresh clones and CI runs on this machine reuse it; only the checked
# header is kept. CMake looks there (VKHLO_PJRT_C_API_INCLUDE_DIR); without it the plugin is
# not built.
pjrt_wheel_version=2.20.0
pjrt_wheel_sha256=cf756bbe2d256e942ab5d0ad2c858fb40017581494febdb4387c149b1afde780
pjrt_header_sha256=892be1b24f0fa2ef97a6e9ae659192a311f9bc93eb9d07c4ddb0f151f51fe532
deps_cache="${VKHLO_DEPS_CACHE:-${XDG_CACHE_HOME:-${HOME:-}/.cache}/vkhlo-deps}"  # as pjrt/CMakeLists.txt finds it
pjrt_include="$deps_cache/pjrt-c-api-0.72/include"
pjrt_header="$pjrt_include/xla/pjrt/c/pjrt_c_api.h"
if [[ -f "$pjrt_header" ]] && echo "$pjrt_header_sha256  $pjrt_header" | sha256sum --check --status; then
  echo "install-deps: PJRT C API header present in $pjrt_include"
else
  echo "install-deps: fetching the PJRT C API header (tensorflow-cpu $pjrt_wheel_version wheel, PyPI)"
  download="$(mktemp -d)"
  echo "tensorflow-cpu==$pjrt_wheel_version --hash=sha256:$pjrt_wheel_sha256" > "$download/requirements.txt"
  "$venv/bin/pip" download -q --disable-pip-version-check --no-deps --no-cache-dir --require-hashes \
    --only-binary :all: --implementation cp --python-version 3.11 --abi cp311 --platform manylinux_2_17_x86_64 \
    -r "$download/requirements.txt" -d "$download"
  mkdir -p "$(dirname "$pjrt_header")"
  "$venv/bin/python" - "$download" "$pjrt_header.tmp" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/tensorflow_cpu-*.whl")[0]
with zipfile.ZipFile(wheel) as z, open(sys.argv[2], "wb") as out:
    out.write(z.read("tensorflow/include/xla/pjrt/c/pjrt_c_api.h"))
PY
  echo "$pjrt_header_sha256  $pjrt_header.tmp" | sha256sum --check --status
  mv "$pjrt_header.tmp" "$pjrt_header"
  rm -rf "$download"
  echo "install-deps: PJRT C API header in $pjrt_include"
fi
