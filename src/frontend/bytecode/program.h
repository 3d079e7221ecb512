// A StableHLO program as the tools and the runtime take it: text, or a portable artifact (MLIR
// bytecode), told apart by the bytecode's magic bytes, never by the file name.
#pragma once

#include <memory>
#include <string_view>

#include "frontend/parser.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend {

// True when `contents` start with MLIR bytecode's magic.
bool IsBytecode(std::string_view contents);

// True when `contents` start with a compiled plan's magic (plan/format.h): a .vkx file.
bool IsCompiledPlan(std::string_view contents);

// Parses text (ParseModule) or reads bytecode (bytecode::ReadPortableArtifact); a compiled plan
// is INVALID_ARGUMENT saying what it is.
StatusOr<std::unique_ptr<ir::Module>> ParseProgram(std::string_view contents, const ParseOptions& options = {});

}  // namespace vkhlo::frontend
