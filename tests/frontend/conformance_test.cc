// Parses every program of the conformance corpus (../shared/conformance): interpret/ files are
// split at "// -----" lines like mlir's --split-input-file, jax/ files are whole modules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "tests/support/test_files.h"
#include "ir/op_table.h"

namespace vkhlo::frontend {
namespace {

namespace fs = std::filesystem;

using ::vkhlo::testing::ReadFile;

std::vector<fs::path> CorpusFiles() {
  std::vector<fs::path> files;
  const fs::path root = VKHLO_CONFORMANCE_DIR;
  if (!fs::exists(root)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Ops the corpus uses that the op table does not have yet: a chunk failing only because of one
// of these is reported, not failed, until the table gains the row.

TEST(FrontendConformance, EveryProgramParses) {
  const std::vector<fs::path> files = CorpusFiles();
  if (files.empty()) FAIL() << "no conformance corpus at " << VKHLO_CONFORMANCE_DIR;
  size_t programs = 0, parsed_files = 0;
  for (const fs::path& path : files) {
    const std::string text = ReadFile(path);
    const bool split = path.string().find("/interpret/") != std::string::npos;
    std::vector<SourceChunk> chunks = split ? SplitInputFile(text) : std::vector<SourceChunk>{{text, 1}};
    bool file_ok = true;
    for (const SourceChunk& chunk : chunks) {
      ParseOptions options;
      options.source_name = path.filename().string();
      options.first_line = chunk.first_line;
      auto module = ParseModule(chunk.text, options);
      ++programs;
      if (!module.ok()) {
        file_ok = false;
        ADD_FAILURE() << module.status().message();
      }
    }
    parsed_files += file_ok;
  }
  std::printf("conformance: %zu of %zu files parse (%zu programs)\n", parsed_files, files.size(), programs);
}

}  // namespace
}  // namespace vkhlo::frontend
