#include "tests/conformance/conformance_chunks.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "frontend/parser.h"
#include "tests/support/test_files.h"
#include "verify/verifier.h"

namespace vkhlo::testing {

namespace fs = std::filesystem;

std::vector<std::string> ConformanceFiles(const fs::path& root,
                                          const std::function<bool(const std::string&)>& in_scope) {
  std::vector<std::string> files;
  if (!fs::exists(root)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".mlir") continue;
    std::string relative = fs::relative(entry.path(), root).string();
    if (in_scope(relative)) files.push_back(std::move(relative));
  }
  std::sort(files.begin(), files.end());
  return files;
}

tools::CheckOptions VulkanCheckOptions(const Client* client, ExecutionStats* totals) {
  tools::CheckOptions options;
  options.device = tools::CheckOptions::Device::kVulkan;
  options.client = client;
  options.totals = totals;
  // Every test function also runs through its plan (serialized, loaded back): the same results,
  // byte for byte (issue 22).
  options.through_plan = true;
  return options;
}

std::string CheckModule(StatusOr<std::unique_ptr<ir::Module>> module, const tools::CheckOptions& options) {
  Status status = module.status();
  if (status.ok()) status = verify::VerifyModule(**module);
  if (!status.ok()) return status.message();
  for (const tools::TestOutcome& test : tools::RunTestFunctions(**module, options)) {
    if (!test.passed) return "@" + test.name + ": " + test.message;
  }
  return "";
}

std::map<std::string, std::string> ReadExpectations(const fs::path& path, const std::string& profile) {
  std::map<std::string, std::string> expectations;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string which, key, reason;
    if (!profile.empty()) fields >> which;
    fields >> key;
    std::getline(fields, reason);
    if (profile.empty() || which == "all" || which == profile) expectations[key] = reason;
  }
  return expectations;
}

std::vector<ChunkOutcome> RunConformanceFile(const fs::path& root, const std::string& relative,
                                             const tools::CheckOptions& options) {
  const std::string text = ReadFile(root / relative);
  const bool split = relative.rfind("interpret/", 0) == 0;
  std::vector<frontend::SourceChunk> chunks =
      split ? frontend::SplitInputFile(text) : std::vector<frontend::SourceChunk>{{text, 1}};
  std::vector<ChunkOutcome> outcomes;
  for (const frontend::SourceChunk& chunk : chunks) {
    ChunkOutcome outcome;
    outcome.key = split ? relative + ":" + std::to_string(chunk.first_line) : relative;
    frontend::ParseOptions parse;
    parse.source_name = relative;
    parse.first_line = chunk.first_line;
    outcome.failure = CheckModule(frontend::ParseModule(chunk.text, parse), options);
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

}  // namespace vkhlo::testing
