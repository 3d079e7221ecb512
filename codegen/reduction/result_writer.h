// Writing reduction results to output buffers without two invocations ever writing parts of one
// word: a unit (a workgroup or an invocation) computes `pack` consecutive results, collects the
// narrow ones (storage < 32 bits) into whole words in registers, and writes those words once.
#pragma once

#include <string>
#include <vector>

#include "codegen/elemental/emitter.h"
#include "codegen/elemental/types.h"

namespace vkhlo::codegen::reduction {

struct ResultWriter {
  std::vector<std::string> outputs;  // binding arrays, per result
  std::vector<TypeFacts> facts;      // per result
  uint32_t pack = 1;                 // results per unit (a multiple of every narrow type's per-word count)
  int64_t rows = 0;                  // results in all

  // The packing needed by `facts`: 4 with 8-bit results, 2 with 16-bit ones, else 1.
  static uint32_t PackFor(const std::vector<TypeFacts>& facts);

  // Declares the word accumulators of narrow results (before the unit's loop).
  void Declare(ElementalEmitter& em) const;
  // Result `values` (compute form) of row `o`, the `e`-th of its unit (GLSL uint expressions).
  void Store(ElementalEmitter& em, const std::vector<Expr>& values, const std::string& o, const std::string& e) const;
  // Writes the narrow words of the unit whose first row is `first` (after the loop).
  void Flush(ElementalEmitter& em, const std::string& first) const;
};

}  // namespace vkhlo::codegen::reduction
