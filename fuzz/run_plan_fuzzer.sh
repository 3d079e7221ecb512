#!/usr/bin/env bash
# Builds the .vkx plan reader's fuzzer (fuzz/build_fuzzer.sh: clang, libFuzzer + ASan + UBSan)
# and runs it for the given number of seconds (default 60), from a seed corpus that
# fuzz/plan_seeds.cc writes from the test plans (tests/plan/sample_plans.cc). New inputs go to
# the build directory, crashes to its plan_artifacts/.
#
#   fuzz/run_plan_fuzzer.sh [seconds] [extra libFuzzer flags...]
set -euo pipefail

seconds="${1:-60}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${VKHLO_FUZZ_BUILD_DIR:-$root/build-fuzz}"

source "$root/fuzz/build_fuzzer.sh"

plan_sources=("$root"/src/plan/*.cc "$root"/src/support/status.cc "$root"/tests/plan/sample_plans.cc)
build_fuzzer "$root" "$build" "$build/plan_fuzzer" "${plan_sources[@]}" "$root"/fuzz/plan_fuzzer.cc

# The seeds, written by a plain (unsanitized, no libFuzzer main) build of the same sources.
mkdir -p "$build/plan_seeds" "$build/plan_corpus" "$build/plan_artifacts"
clang++ -std=c++20 -O1 -I"$root" -I"$root/src" -I"$root/include" "${plan_sources[@]}" "$root"/fuzz/plan_seeds.cc \
  -o "$build/plan_seeds_writer"
"$build/plan_seeds_writer" "$build/plan_seeds"

"$build/plan_fuzzer" "$build/plan_corpus" "$build/plan_seeds" \
  -max_len=16384 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
  -artifact_prefix="$build/plan_artifacts/" -max_total_time="$seconds" -print_final_stats=1 "$@"
