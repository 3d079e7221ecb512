# Builds a libFuzzer target with clang (libFuzzer + ASan + UBSan), sourced by the fuzz/run_*.sh
# scripts. Objects go to $build/obj, shared by the targets (same sources, same flags; ctest runs
# the fuzz tests one after the other: RESOURCE_LOCK fuzz_objects), and are rebuilt when their
# source or a header changed.
#
#   build_fuzzer ROOT BUILD_DIR OUTPUT SOURCE...

build_fuzzer() {
  local root="$1" build="$2" output="$3"
  shift 3
  if ! { command -v clang++ >/dev/null 2>&1 &&
         ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; }; then
    echo "installing clang and libclang-rt-14-dev (Debian packages) for libFuzzer" >&2
    apt-get update -qq && apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
  fi
  mkdir -p "$build/obj"
  local flags=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
               -fno-sanitize-recover=undefined -I"$root" -I"$root/src" -I"$root/include")
  local objects=() to_build=() src obj
  for src in "$@"; do
    obj="$build/obj/$(echo "${src#"$root"/}" | tr '/' '_').o"
    objects+=("$obj")
    if [[ ! -f "$obj" || "$src" -nt "$obj" ||
          -n "$(find "$root/src" "$root/include" "$root/fuzz" -name '*.h' -newer "$obj" -print -quit)" ]]; then
      to_build+=("$src|$obj")
    fi
  done
  # Two at a time: the machine is shared.
  if ((${#to_build[@]})); then
    printf '%s\n' "${to_build[@]}" | xargs -P 2 -I{} bash -c \
      'src="${1%%|*}"; obj="${1##*|}"; clang++ "${@:2}" -c "$src" -o "$obj"' _ {} "${flags[@]}"
  fi
  clang++ -fsanitize=fuzzer,address,undefined "${objects[@]}" -lfmt -o "$output"
}
