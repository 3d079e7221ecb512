#!/usr/bin/env bash
# tests/packaging: install vkhlo into a prefix and use it from outside, as an embedder would.
# Usage: run_packaging_test.sh BUILD_DIR SOURCE_DIR WORK_DIR LIBDIR CXX [CCACHE] [PKG_CONFIG]
set -euo pipefail
build=$1 source=$2 work=$3 libdir=$4 cxx=$5 ccache=${6:-} pkg_config=${7:-}
prefix=$work/prefix
launcher=()
[[ -n $ccache ]] && launcher=("$ccache")

step() { echo "== $*"; }

step "install into $prefix"
rm -rf "$prefix"
mkdir -p "$work"
cmake --install "$build" --prefix "$prefix" > "$work.install.log" 2>&1 || { cat "$work.install.log"; exit 1; }
for f in "$prefix/include/vkhlo/vkhlo.h" "$prefix/$libdir/libvkhlo.a" "$prefix/$libdir/cmake/vkhlo/vkhloConfig.cmake" \
         "$prefix/$libdir/pkgconfig/vkhlo.pc" "$prefix/$libdir/libvkhlo_runtime.a" "$prefix/$libdir/pkgconfig/vkhlo-runtime.pc"; do
  [[ -f $f ]] || { echo "missing after install: $f"; exit 1; }
done

step "the runtime-only archive defines nothing of the compiler"
# Functions and data (not the inline destructors of types a header declares) of glslang,
# SPIRV-Tools, the parser, the passes, the interpreter or codegen.
if nm -C --defined-only "$prefix/$libdir/libvkhlo_runtime.a" 2> /dev/null |
     grep -E ' [TDBR] (glslang::|spvtools::|TShader|TProgram|vkhlo::(frontend|passes|interp|codegen)::)' | head -5 | grep .; then
  echo "  ^ libvkhlo_runtime.a holds the compiler's code"
  exit 1
fi

step "public headers: standard library and vkhlo/ only, each compiles alone"
status=0
for header in "$prefix"/include/vkhlo/*.h; do
  # Includes other than <standard> and "vkhlo/...": a Vulkan, glslang or internal header.
  if grep -E '^\s*#\s*include' "$header" | grep -vE '^\s*#\s*include\s+(<[a-z_]+>|"vkhlo/[a-z_]+\.h")' ; then
    echo "  ^ in $header: public headers include only the standard library and vkhlo/"
    status=1
  fi
  echo "#include \"vkhlo/$(basename "$header")\"" > "$work/header_check.cc"
  if ! "$cxx" -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I"$prefix/include" "$work/header_check.cc" \
       2> "$work/header_check.log"; then
    echo "vkhlo/$(basename "$header") does not compile on its own:"; cat "$work/header_check.log"; status=1
  fi
done
[[ $status == 0 ]] || exit 1

step "examples/ as a separate project: find_package(vkhlo CONFIG)"
cmake -S "$source/examples" -B "$work/examples" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" ${ccache:+-DCMAKE_CXX_COMPILER_LAUNCHER="$ccache"} > "$work.configure.log" 2>&1 \
  || { cat "$work.configure.log"; exit 1; }
cmake --build "$work/examples" -j2 > "$work.build.log" 2>&1 || { cat "$work.build.log"; exit 1; }
bin=$work/examples/bin

step "run them on the device"
"$bin/vkhlo-example-axpy" > "$work.axpy.log" || { cat "$work.axpy.log"; exit 1; }
grep -q "result on the device: f32\[4\] {13, 26, 39, 52}" "$work.axpy.log"
out=$("$bin/vkhlo-example-run-file" "$source/examples/axpy.mlir" 3 1,2,3,4 10,20,30,40)
[[ $out == "f32[4] {13, 26, 39, 52}" ]] || { echo "run_file printed: $out"; exit 1; }
out=$("$bin/vkhlo-example-run-file" "$source/examples/axpy.mlirbc" 3 1,2,3,4 10,20,30,40)
[[ $out == "f32[4] {13, 26, 39, 52}" ]] || { echo "run_file printed for the portable artifact: $out"; exit 1; }
"$build/bin/vkhlo-compile" "$source/examples/axpy.mlir" -o "$work/axpy.vkx" > "$work.compile.log" 2>&1 ||
  { cat "$work.compile.log"; exit 1; }
out=$("$bin/vkhlo-example-run-plan" "$work/axpy.vkx" 3 1,2,3,4 10,20,30,40)
[[ $out == "f32[4] {13, 26, 39, 52}" ]] || { echo "run_plan (vkhlo::runtime) printed: $out"; exit 1; }
set +e
"$bin/vkhlo-example-mlp" > "$work.mlp.log" 2>&1
mlp=$?
set -e
case $mlp in
  0) grep -q "matches the host loop" "$work.mlp.log" ;;
  *) cat "$work.mlp.log"; exit 1 ;;
esac

if [[ -n $pkg_config ]]; then
  step "pkg-config --cflags --libs vkhlo"
  flags=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" "$pkg_config" --cflags --libs vkhlo)
  # shellcheck disable=SC2086  # the flags are words
  "${launcher[@]}" "$cxx" -std=c++20 -O1 -c "$source/examples/axpy.cc" -o "$work/axpy_pc.o" $flags
  "$cxx" "$work/axpy_pc.o" -o "$work/axpy_pc" $flags
  "$work/axpy_pc" > "$work.axpy_pc.log" || { cat "$work.axpy_pc.log"; exit 1; }
  step "pkg-config --cflags --libs vkhlo-runtime"
  flags=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" "$pkg_config" --cflags --libs vkhlo-runtime)
  # shellcheck disable=SC2086  # the flags are words
  "${launcher[@]}" "$cxx" -std=c++20 -O1 -c "$source/examples/run_plan.cc" -o "$work/run_plan_pc.o" $flags
  "$cxx" "$work/run_plan_pc.o" -o "$work/run_plan_pc" $flags
  out=$("$work/run_plan_pc" "$work/axpy.vkx" 3 1,2,3,4 10,20,30,40)
  [[ $out == "f32[4] {13, 26, 39, 52}" ]] || { echo "run_plan (pkg-config vkhlo-runtime) printed: $out"; exit 1; }
fi
echo "packaging: OK"
