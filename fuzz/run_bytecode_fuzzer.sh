#!/usr/bin/env bash
# Builds the bytecode reader's fuzzer (fuzz/build_fuzzer.sh: clang, libFuzzer + ASan + UBSan)
# and runs it for the given number of seconds (default 60), starting from the seed corpus in
# fuzz/bytecode_corpus (tools/bytecode/make_fuzz_seeds.py) and the test models. New inputs go to
# the build directory's bytecode_corpus/, crashes to its bytecode_artifacts/.
#
#   fuzz/run_bytecode_fuzzer.sh [seconds] [extra libFuzzer flags...]
#   VKHLO_FUZZ_BUILD_DIR=/tmp/fz fuzz/run_bytecode_fuzzer.sh 900 -jobs=2
set -euo pipefail

seconds="${1:-60}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${VKHLO_FUZZ_BUILD_DIR:-$root/build-fuzz}"
source "$root/fuzz/build_fuzzer.sh"

build_fuzzer "$root" "$build" "$build/bytecode_fuzzer" "$root"/src/frontend/*.cc "$root"/src/frontend/bytecode/*.cc \
  "$root"/src/ir/*.cc "$root"/src/verify/*.cc "$root"/src/support/status.cc "$root"/src/support/env.cc \
  "$root"/src/support/host_memory.cc "$root"/fuzz/bytecode_fuzzer.cc

# The repository corpus stays small (the test models and data join it); what the fuzzer finds stays
# in $build.
mkdir -p "$build/bytecode_corpus" "$build/bytecode_artifacts"
"$build/bytecode_fuzzer" "$build/bytecode_corpus" "$root/fuzz/bytecode_corpus" "$root/tests/frontend/bytecode/models" "$root/tests/frontend/bytecode/data" \
  -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$build/bytecode_artifacts/" -max_total_time="$seconds" -print_final_stats=1 "$@"
