#!/usr/bin/env bash
# Builds the parser fuzzer (fuzz/build_fuzzer.sh: clang, libFuzzer + ASan + UBSan) in its own build directory and
# runs it for the given number of seconds (default 60), starting from the hand-written seed
# corpus in fuzz/corpus. New inputs go to the build directory, crashes to its artifacts/.
#
#   fuzz/run_parser_fuzzer.sh [seconds] [extra libFuzzer flags...]
#   VKHLO_FUZZ_BUILD_DIR=/tmp/fz fuzz/run_parser_fuzzer.sh 300 -jobs=2
set -euo pipefail

seconds="${1:-60}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${VKHLO_FUZZ_BUILD_DIR:-$root/build-fuzz}"

source "$root/fuzz/build_fuzzer.sh"

build_fuzzer "$root" "$build" "$build/parser_fuzzer" "$root"/src/frontend/*.cc "$root"/src/ir/attribute.cc \
  "$root"/src/ir/element_type.cc "$root"/src/ir/literal.cc "$root"/src/ir/location.cc "$root"/src/ir/module.cc "$root"/src/ir/op_table.cc \
  "$root"/src/ir/printer.cc "$root"/src/ir/type.cc "$root"/src/support/status.cc "$root"/src/support/env.cc \
  "$root"/src/support/host_memory.cc "$root"/fuzz/parser_fuzzer.cc
mkdir -p "$build/corpus" "$build/artifacts"

# The repository corpus stays small and hand-written; what the fuzzer finds stays in $build.
"$build/parser_fuzzer" "$build/corpus" "$root/fuzz/corpus" \
  -dict="$root/fuzz/mlir.dict" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$build/artifacts/" -max_total_time="$seconds" -print_final_stats=1 "$@"
