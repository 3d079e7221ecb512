// The StableHLO text frontend: MLIR's generic form (as the spec writes it) and the pretty forms
// JAX, TensorFlow and the StableHLO project print, into an ir::Module.
//
// Errors name the place and what was expected:
//   "add.mlir:12:7: error: expected ',' or ')' in operand list, found 'tensor'"
// Never a crash, an abort or an endless loop on any input.
//
// What the IR gets:
//   - an op's attributes under the names of its generic form (the pretty
//     `stablehlo.transpose %x, dims = [1, 0]` sets `permutation = array<i64: 1, 0>`), properties
//     (`<{...}>`) merged with the attribute dictionary, sorted by name (as MLIR keeps them), so
//     both spellings of an op give equal IR;
//   - op locations (line/column of the op's first token, lines counted from
//     ParseOptions::first_line); `loc(...)` annotations and `#loc` aliases are read and dropped;
//   - value name hints from the source ("0", "arg0", "0#1" for result 1 of `%0:2`).
// Only syntax, SSA names and literal/type validity are checked here; op constraints are
// verify::VerifyModule's job.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attribute.h"
#include "ir/module.h"
#include "ir/type.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend {

struct ParseOptions {
  std::string source_name = "<input>";  // for messages: "<source_name>:line:col"
  uint32_t first_line = 1;              // line number of the text's first line (split files)
};

// Parses a whole module. Text without a `module { ... }` wrapper (functions at top level) is
// accepted as an unnamed module, as MLIR does.
StatusOr<std::unique_ptr<ir::Module>> ParseModule(std::string_view text,
                                                  const ParseOptions& options = {});

// A piece of a file split at lines that are exactly "// -----" (mlir's --split-input-file).
struct SourceChunk {
  std::string_view text;
  uint32_t first_line = 1;
};
std::vector<SourceChunk> SplitInputFile(std::string_view text);

// Standalone pieces, for command lines (`--input='dense<[1, 2]> : tensor<2xi32>'`) and tests.
StatusOr<ir::Type> ParseType(std::string_view text);
StatusOr<ir::Attribute> ParseAttribute(std::string_view text);

}  // namespace vkhlo::frontend
