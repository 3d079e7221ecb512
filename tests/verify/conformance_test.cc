// Every conformance program (../shared/conformance) parses and verifies: the interpreter's spec
// tests chunk by chunk (split at `// -----`), and the JAX exports whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "tests/support/test_files.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

fs::path ConformanceDir() { return fs::path(VKHLO_CONFORMANCE_DIR); }

std::vector<fs::path> MlirFiles(const fs::path& dir, bool recursive) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  auto add = [&](const fs::directory_entry& entry) {
    if (entry.is_regular_file() && entry.path().extension() == ".mlir") files.push_back(entry.path());
  };
  if (recursive) {
    for (const auto& entry : fs::recursive_directory_iterator(dir)) add(entry);
  } else {
    for (const auto& entry : fs::directory_iterator(dir)) add(entry);
  }
  std::sort(files.begin(), files.end());
  return files;
}

using ::vkhlo::testing::ReadFile;

// Conformance programs vkhlo rejects on purpose, each with its exact diagnostic and why. A
// program missing from here that fails, or an entry that no longer fails, fails the test.
struct KnownFailure {
  const char* message;
  const char* reason;
};
// Empty: every conformance program verifies.
const std::vector<KnownFailure> kKnownFailures = {};

struct Tally {
  int programs = 0;
  std::vector<std::string> parse_failures;
  std::vector<std::string> verify_failures;
};

void Check(std::string_view text, const frontend::ParseOptions& options, Tally& tally) {
  ++tally.programs;
  auto module = frontend::ParseModule(text, options);
  if (!module.ok()) {
    tally.parse_failures.push_back(module.status().message());
    return;
  }
  Status status = verify::VerifyModule(**module);
  if (!status.ok()) tally.verify_failures.push_back(status.message());
}

void Report(const Tally& tally, std::string_view what) {
  std::set<std::string> known;
  for (const KnownFailure& k : kKnownFailures) known.insert(k.message);
  for (const std::string& failure : tally.parse_failures) {
    if (known.count(failure) == 0) ADD_FAILURE() << "parse: " << failure;
  }
  for (const std::string& failure : tally.verify_failures) {
    if (known.count(failure) == 0) ADD_FAILURE() << "verify: " << failure;
  }
  std::printf("%.*s: %d programs, %zu failed to parse, %zu failed to verify\n", static_cast<int>(what.size()),
              what.data(), tally.programs, tally.parse_failures.size(), tally.verify_failures.size());
}

TEST(ConformanceTest, InterpretChunksVerify) {
  const auto files = MlirFiles(ConformanceDir() / "interpret", /*recursive=*/true);
  if (files.empty()) FAIL() << "no conformance programs at " << ConformanceDir();
  Tally tally;
  for (const fs::path& file : files) {
    const std::string text = ReadFile(file);
    for (const frontend::SourceChunk& chunk : frontend::SplitInputFile(text)) {
      frontend::ParseOptions options;
      options.source_name = file.filename().string();
      options.first_line = chunk.first_line;
      Check(chunk.text, options, tally);
    }
  }
  Report(tally, "interpret");
  // Every known failure still happens (an entry that stopped failing should leave the table).
  std::set<std::string> seen(tally.parse_failures.begin(), tally.parse_failures.end());
  seen.insert(tally.verify_failures.begin(), tally.verify_failures.end());
  for (const KnownFailure& k : kKnownFailures) {
    EXPECT_TRUE(seen.count(k.message)) << "no longer fails, remove from kKnownFailures: " << k.message;
  }
}

TEST(ConformanceTest, JaxProgramsVerify) {
  const auto files = MlirFiles(ConformanceDir() / "jax", /*recursive=*/false);
  if (files.empty()) FAIL() << "no conformance programs at " << ConformanceDir();
  Tally tally;
  for (const fs::path& file : files) {
    frontend::ParseOptions options;
    options.source_name = file.filename().string();
    Check(ReadFile(file), options, tally);
  }
  Report(tally, "jax");
}

}  // namespace
}  // namespace vkhlo
