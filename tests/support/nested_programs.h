// Deeply nested control flow, generated for tests and benchmarks: a stage that walks or compiles
// a nested region once per path instead of once takes time exponential in the depth of these
// programs (issue 18 found `case` 36 deep taking more than 40 s on the Vulkan path).
#pragma once

#include <string>

namespace vkhlo::testing {

enum class Nesting {
  kIf,     // each level: if (%sel == 0) { inner + 1 } else { %x }
  kCase,   // each level: case %sel { 0: inner + 1, 1: %x }
  kWhile,  // each level: a while loop running its body (inner + 1) once
  kCall,   // a chain of private functions, each calling the next and adding 1
  kMixed,  // if, case and while in turn
  // A chain of functions each calling the next from both branches of an if: linear to run
  // (one branch is taken), but inlining every call would copy the innermost body 2^depth times.
  kCallFromBothBranches,
};

const char* NestingName(Nesting kind);

// `func.func @main(%x: tensor<f32>, %sel: tensor<i32>) -> tensor<f32>` nesting `depth` levels of
// `kind`. With %sel = 0 every level takes its nested path, so @main returns %x + depth.
std::string NestedProgram(Nesting kind, int depth);

}  // namespace vkhlo::testing
