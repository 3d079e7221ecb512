#!/usr/bin/env bash
# The host code under AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer, in one
# command: configures BUILD_DIR (default build-asan) as RelWithDebInfo with
# -fsanitize=address,undefined, builds only the programs it runs, and runs
#   - the frontend, verify, interp, passes, builder and api test programs (each once, with the
#     environment ctest gives them: validation layers on),
#   - 50 conformance files (every other file of ../shared/conformance/interpret, sorted) through
#     `vkhlo-run --check --split-input-file`, on the reference interpreter and on the Vulkan device.
# Any failed test or check, and any sanitizer report (UBSan halts on its first), fails it; the
# exit code is 0 only when everything passed. Logs go to BUILD_DIR/sanitize-logs.
#
#   tools/sanitize.sh [BUILD_DIR]
#   VKHLO_SANITIZE_JOBS=4 tools/sanitize.sh     # build parallelism (default 2)
#
# Run by hand, not in CI: on this project's 2-core machine a build from nothing takes about 75
# minutes, a rebuild after a small change a few minutes, and the runs about 15 minutes (docs/tools.md,
# "The host code under sanitizers"). The flags match the documented build-asan configure line, so ccache serves other
# checkouts' objects.
#
# Reports from inside lavapipe, LLVM and the Vulkan loader/layers (not instrumented, but their
# leaks reach LeakSanitizer) are suppressed by library in tools/sanitizers/lsan.supp, each with
# its reason; nothing of vkhlo's own is suppressed.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(realpath -m "${1:-$root/build-asan}")"
jobs="${VKHLO_SANITIZE_JOBS:-2}"
conformance="$root/../shared/conformance"
logs="$build/sanitize-logs"

sanitize="-fsanitize=address,undefined"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$sanitize -fno-omit-frame-pointer" -DCMAKE_C_FLAGS="$sanitize" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitize" -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" >/dev/null

tests=(
  host_numerics_test
  frontend_conformance_test frontend_pretty_generic_test frontend_type_test frontend_attribute_test
  frontend_diagnostics_test frontend_module_test
  verifier_test verify_programs_test
  interp_registry_test interp_sort_fast_path_test interp_data_movement_test interp_reduction_control_flow_test
  interp_data_movement_conformance_test interp_elementwise_test interp_elementwise_conformance_test
  interp_library_test interp_random_test interp_collective_test interp_library_conformance_test
  pass_file_test chlo_decompose_test algebra_rules_test convert_chain_test batch_norm_decompose_test
  pass_semantics_test
  builder_literal_test builder_ops_test builder_data_movement_test builder_regions_test builder_library_test
  builder_other_ops_test builder_errors_test
  api_test custom_call_test device_loss_test
)
nice cmake --build "$build" -j"$jobs" --target "${tests[@]}" vkhlo-run

# halt_on_error: UBSan otherwise prints and goes on, and the test may still pass.
# detect_leaks is ASan's default on x86-64 Linux; spelled out because the suppressions need it.
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$root/tools/sanitizers/lsan.supp:print_suppressions=0"
# As ctest runs the tests (tests/CMakeLists.txt, VKHLO_TEST_ENVIRONMENT).
export VKHLO_VALIDATION=1 XDG_CACHE_HOME="$build/test-cache"

# The Vulkan loader dlopens lavapipe and dlcloses it in vkDestroyInstance, before LeakSanitizer
# looks: what lavapipe's and LLVM's globals still held then (their one-time initialization)
# shows up as leaked, from "<unknown module>" frames that no suppression can name. Preloaded,
# lavapipe stays mapped, its globals keep those blocks reachable, and anything it really leaks
# has named frames. It exports only its ICD entry points (the validation layer, which exports
# vkGetInstanceProcAddr, must not be preloaded). ASan's runtime has to come first in the list.
lavapipe="$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' /usr/share/vulkan/icd.d/lvp_icd.*.json 2>/dev/null | head -n 1)"
preload="$("$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")" -print-file-name=libasan.so)"
if [[ -n "$lavapipe" ]]; then preload+=" $lavapipe"; fi

rm -rf "$logs"
mkdir -p "$logs"
failures=()
start=$SECONDS

# Runs "$@" with its output in $logs/$name.log; a failure, or a sanitizer report that did not
# change the exit code (a child process, a report printed on a path that exits 0), is recorded.
run() {
  local name="$1"
  shift
  local log="$logs/$name.log" t0=$SECONDS status=0
  LD_PRELOAD="$preload" "$@" >"$log" 2>&1 || status=$?
  if [[ $status -eq 0 ]] && grep -qE "^(==[0-9]+==ERROR: |SUMMARY: (Address|Undefined|Leak)Sanitizer)|runtime error: " "$log"; then
    status=99
  fi
  if [[ $status -ne 0 ]]; then
    failures+=("$name (exit $status, $log)")
    echo "FAIL $name ($((SECONDS - t0)) s, exit $status)"
    tail -n 30 "$log" | sed 's/^/    /'
  else
    echo "ok   $name ($((SECONDS - t0)) s)"
  fi
}

cd "$build"
for test in "${tests[@]}"; do
  run "$test" "$build/bin/$test" --gtest_brief=1
done

mapfile -t all_files < <(cd "$conformance" && find interpret -name '*.mlir' | LC_ALL=C sort)
files=()
for ((i = 0; i < ${#all_files[@]} && ${#files[@]} < 50; i += 2)); do files+=("${all_files[i]}"); done
for device in reference vulkan; do
  for file in "${files[@]}"; do
    run "$device.$(echo "$file" | tr / .)" "$build/bin/vkhlo-run" --device="$device" --check --split-input-file \
      "$conformance/$file"
  done
done

echo "$((SECONDS - start)) s of runs: ${#tests[@]} test programs, ${#files[@]} conformance files on 2 devices"
if [[ ${#failures[@]} -gt 0 ]]; then
  printf 'failed: %s\n' "${failures[@]}"
  exit 1
fi
echo "no failures, no sanitizer reports"
