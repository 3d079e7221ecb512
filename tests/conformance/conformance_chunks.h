// Running ../shared/conformance programs chunk by chunk, as
// `vkhlo-run --check --split-input-file` would, for the conformance tests of each device.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
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

// Check options for the Vulkan device on `client`, adding every run's stats to `totals`.
tools::CheckOptions VulkanCheckOptions(const Client* client, ExecutionStats* totals);

// Verifies `module` (or reports why it could not be read) and runs its test functions: empty
// when everything passed, else the first failure.
std::string CheckModule(StatusOr<std::unique_ptr<ir::Module>> module, const tools::CheckOptions& options = {});

// Expected failures, one per line: "<key> <reason>", or "<profile> <key> <reason>" when
// `profile` is given (then only lines of that profile or "all" count). '#' starts a comment.
std::map<std::string, std::string> ReadExpectations(const std::filesystem::path& path,
                                                    const std::string& profile = "");

// Parses, verifies and runs every test function of each chunk of `relative` (split when it is
// under interpret/, as those files are written for --split-input-file).
std::vector<ChunkOutcome> RunConformanceFile(const std::filesystem::path& root, const std::string& relative,
                                             const tools::CheckOptions& options = {});

}  // namespace vkhlo::testing
