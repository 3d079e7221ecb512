# Compiler settings that keep vkhlo's host numerics (the reference interpreter, constant folding,
# the host references of the tests) the same in every build: whatever the build type, -march or
# sanitizers, each float operation written in the source is one IEEE operation, rounded once
# (docs/exactness.md, "Host numerics and sanitizers").

# No contraction: GCC's default (-ffp-contract=fast, even in ISO C++ mode) and Clang's fuse
# a * b + c into one fma wherever the target has one, so a build with -march=native (any x86-64
# with FMA3) would round complex products, dot products and polynomials once where the
# interpreter, the oracle of the device's kernels, must round twice.
add_compile_options(-ffp-contract=off)

# GCC 12 (seen with Debian 12's 12.2.0) drops a double -> float -> double rounding when its SLP
# vectorizer packs two of them into one vector: `z[0] = (float)z[0]; z[1] = (float)z[1];`
# becomes a bare `ret` at -O2 and -O3, and so does widening a complex<float> built from a
# complex<double>. Whether a given loop is hit depends on the optimization level (the c64
# inputs of chlo_decompose_test stayed unrounded at -O2, RelWithDebInfo, while the -O3 loop
# vectorizer took the loop first), so results moved with the build type. Without SLP
# vectorization the rounding stays. The probe (cmake/probes/float_round_trip.cc) decides, so a
# fixed compiler builds without the workaround; tests/support/host_numerics_test.cc checks the
# same shapes in the project's own build.
include(CheckCXXSourceRuns)

function(vkhlo_probe_float_round_trip result flags)
  file(READ ${CMAKE_CURRENT_LIST_DIR}/probes/float_round_trip.cc probe)
  set(CMAKE_REQUIRED_FLAGS "${flags}")
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_runs("${probe}" ${result})
endfunction()

if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  if(CMAKE_CROSSCOMPILING)
    # The probe cannot run here: take the workaround (it costs little: host code is not hot).
    add_compile_options(-fno-tree-slp-vectorize)
  else()
    vkhlo_probe_float_round_trip(VKHLO_GCC_KEEPS_FLOAT_ROUNDING "-O2")
    if(NOT VKHLO_GCC_KEEPS_FLOAT_ROUNDING)
      vkhlo_probe_float_round_trip(VKHLO_GCC_KEEPS_FLOAT_ROUNDING_WITHOUT_SLP "-O2 -fno-tree-slp-vectorize")
      if(NOT VKHLO_GCC_KEEPS_FLOAT_ROUNDING_WITHOUT_SLP)
        message(FATAL_ERROR "GCC ${CMAKE_CXX_COMPILER_VERSION} drops double -> float -> double roundings even "
                            "with -fno-tree-slp-vectorize (cmake/probes/float_round_trip.cc); use another compiler")
      endif()
      message(STATUS "GCC ${CMAKE_CXX_COMPILER_VERSION} drops paired double -> float -> double roundings "
                     "(SLP vectorizer): building with -fno-tree-slp-vectorize")
      add_compile_options(-fno-tree-slp-vectorize)
    endif()
  endif()
endif()
