#!/bin/bash
# The runtime-only library's sources know nothing of the compiler (issue 22): no `ir::` in them
# or in the runtime headers they include, and no header of the IR, the parser, the passes, the
# interpreter, the verifier or codegen (but codegen/target.h, plain data about the device)
# among what they include, directly or not.
#   check_runtime_sources.sh CXX SOURCE_DIR SOURCE...   (sources relative to src/runtime or absolute)
set -u
cxx="$1"
root="$2"
shift 2
cd "$root" || exit 2
# CMake hands a target's sources as one ;-separated argument.
IFS=';' read -r -a sources <<< "$(IFS=';'; echo "$*")"
failed=0
for source in "${sources[@]}"; do
  source="${source#"$root"/}"
  [[ "$source" == src/* ]] || source="src/runtime/$source"
  deps=$("$cxx" -std=c++20 -MM -Iinclude -Isrc -I. "$source" 2>&1) || {
    echo "FAIL $source: the compiler could not list its includes:"; echo "$deps"; failed=1; continue; }
  files=$(echo "$deps" | tr ' \\' '\n\n' | grep -v ':$' | grep -v '^$' | sed "s|^$root/||")
  forbidden=$(echo "$files" | grep -E '^(src/(ir|frontend|passes|interp|verify)/|codegen/)' | grep -v '^codegen/target\.h$')
  if [ -n "$forbidden" ]; then
    echo "FAIL $source includes compiler headers:"; echo "$forbidden" | sed 's/^/  /'; failed=1
  fi
  for file in $(echo "$files" | grep -E '^src/runtime/'); do
    if grep -nE '(^|[^A-Za-z0-9_:])ir::' "$file" > /tmp/ir_uses.$$; then
      echo "FAIL $file (included by $source) names the IR:"; sed 's/^/  /' /tmp/ir_uses.$$; failed=1
    fi
  done
done
rm -f /tmp/ir_uses.$$
[ "$failed" = 0 ] && echo "PASS: ${#sources[@]} runtime-only sources name no IR type and include no compiler header"
exit "$failed"
