#!/bin/bash
# Rewrites vulkan_expectations.txt from what the Vulkan conformance test sees now, under the
# native and the mobile profile: a chunk failing under both for the same kind of reason is
# listed once as "all"; a mobile "needs shader..." failure is listed as "mobile".
#   tests/conformance/update_vulkan_expectations.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
test_binary=$(find "$build" -name vulkan_conformance_test -type f -perm -u+x | head -1)
[ -n "$test_binary" ] || { echo "no vulkan_conformance_test under $build" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
VKHLO_EXPECTATIONS_OUT=$tmp/native.txt "$test_binary" > /dev/null 2>&1 || true
# As ctest runs the mobile suites: at Mesa's default llvmpipe width (tests/CMakeLists.txt).
VKHLO_PROFILE=mobile VKHLO_LLVMPIPE_WIDE=0 VKHLO_EXPECTATIONS_OUT=$tmp/mobile.txt "$test_binary" > /dev/null 2>&1 || true
touch "$tmp/native.txt" "$tmp/mobile.txt"
out=$here/vulkan_expectations.txt
{
  sed -n '/^#/p' "$out"
  awk '
    FILENAME == ARGV[1] { key = $2; $1 = ""; $2 = ""; native[key] = substr($0, 3); next }
    { key = $2; $1 = ""; $2 = ""; mobile[key] = substr($0, 3) }
    END {
      for (k in native) {
        if ((k in mobile) && mobile[k] !~ /needs shader/) print "all " k " " native[k];
        else print "native " k " " native[k];
      }
      for (k in mobile) {
        if ((k in native) && mobile[k] !~ /needs shader/) continue;
        print "mobile " k " " mobile[k];
      }
    }' "$tmp/native.txt" "$tmp/mobile.txt" | sort -k2,2 -k1,1
} > "$out.new"
mv "$out.new" "$out"
echo "$(grep -vc '^#' "$out") entries in $out"
