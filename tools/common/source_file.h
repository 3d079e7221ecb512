// Reading a program file for the command-line tools, and parsing it whole or split at
// "// -----" lines (or reading it as a portable artifact), with messages that name the file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::tools {

// The whole file ("-" reads standard input).
StatusOr<std::string> ReadSourceFile(const std::string& path);

// One parsed piece of a file: its module, or the error that stopped it.
struct ParsedChunk {
  uint32_t first_line = 1;
  StatusOr<std::unique_ptr<ir::Module>> module;
};

// Parses `text` as one module, or as one module per "// -----" chunk when `split` is true.
// MLIR bytecode (a StableHLO portable artifact, recognized by its magic bytes) is read as one
// module whatever `split` says.
std::vector<ParsedChunk> ParseSource(const std::string& text, const std::string& source_name, bool split);

}  // namespace vkhlo::tools
