#!/usr/bin/env bash
# Builds the bytecode reader's fuzzer with clang (libFuzzer + ASan + UBSan) in its own build
# directory and runs it for the given number of seconds (default 60), starting from the seed
# corpus in fuzz/bytecode_corpus (tools/bytecode/make_fuzz_seeds.py) and the test models. New
# inputs go to the build directory's bytecode_corpus/, crashes to its bytecode_artifacts/.
#
#   fuzz/run_bytecode_fuzzer.sh [seconds] [extra libFuzzer flags...]
#   VKHLO_FUZZ_BUILD_DIR=/tmp/fz fuzz/run_bytecode_fuzzer.sh 900 -jobs=2
set -euo pipefail

seconds="${1:-60}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
# Objects are shared with the parser's fuzzer (same sources, same flags): ctest runs the two
# one after the other (RESOURCE_LOCK fuzz_objects).
build="${VKHLO_FUZZ_BUILD_DIR:-$root/build-fuzz}"

have_fuzzer_runtime() {
  command -v clang++ >/dev/null 2>&1 &&
    ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1
}
if ! have_fuzzer_runtime; then
  echo "installing clang and libclang-rt-14-dev (Debian packages) for libFuzzer" >&2
  apt-get update -qq && apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
fi

mkdir -p "$build/obj" "$build/bytecode_corpus" "$build/bytecode_artifacts"
flags=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
       -fno-sanitize-recover=undefined -I"$root/src" -I"$root/include")
sources=("$root"/src/frontend/*.cc "$root"/src/frontend/bytecode/*.cc "$root"/src/ir/*.cc "$root"/src/verify/*.cc
         "$root"/src/support/status.cc "$root"/src/support/env.cc "$root"/fuzz/bytecode_fuzzer.cc)

# Compile what changed (two at a time: the machine is shared).
objects=()
to_build=()
for src in "${sources[@]}"; do
  obj="$build/obj/$(echo "${src#"$root"/}" | tr '/' '_').o"
  objects+=("$obj")
  if [[ ! -f "$obj" || "$src" -nt "$obj" || -n "$(find "$root/src/frontend" "$root/src/ir" "$root/src/verify" "$root/include" -name '*.h' -newer "$obj" -print -quit)" ]]; then
    to_build+=("$src|$obj")
  fi
done
if ((${#to_build[@]})); then
  printf '%s\n' "${to_build[@]}" | xargs -P 2 -I{} bash -c \
    'src="${1%%|*}"; obj="${1##*|}"; clang++ "${@:2}" -c "$src" -o "$obj"' _ {} "${flags[@]}"
fi
clang++ -fsanitize=fuzzer,address,undefined "${objects[@]}" -lfmt -o "$build/bytecode_fuzzer"

# The repository corpus stays small (and the test models join it); what the fuzzer finds stays
# in $build.
"$build/bytecode_fuzzer" "$build/bytecode_corpus" "$root/fuzz/bytecode_corpus" "$root/tests/bytecode/models" \
  -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$build/bytecode_artifacts/" -max_total_time="$seconds" -print_final_stats=1 "$@"
