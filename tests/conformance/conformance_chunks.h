// Running ../shared/conformance programs chunk by chunk, as
// `vkhlo-run --check --split-input-file` would, for the conformance tests of each device.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tools/vkhlo-run/check_runner.h"

namespace vkhlo::testing {

// The .mlir files under `root` (relative paths, sorted) that `in_scope` accepts.
std::vector<std::string> ConformanceFiles(const std::filesystem::path& root,
                                          const std::function<bool(const std::string&)>& in_scope =
                                              [](const std::string&) { return true; });

struct ChunkOutcome {
  // "interpret/add.mlir:15" for the spec tests (split at `// -----`), "jax/x.mlir" otherwise.
  std::string key;
  // Empty when the chunk parsed, verified and passed every check; else the first failure.
  std::string failure;
};

// Parses, verifies and runs every test function of each chunk of `relative` (split when it is
// under interpret/, as those files are written for --split-input-file).
std::vector<ChunkOutcome> RunConformanceFile(const std::filesystem::path& root, const std::string& relative,
                                             const tools::CheckOptions& options = {});

}  // namespace vkhlo::testing
