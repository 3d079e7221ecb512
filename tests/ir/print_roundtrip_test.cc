// print -> parse -> print is a fixpoint on every conformance program: the printer writes
// everything the IR holds in a form the parser reads back to the same IR.
//
// interpret/ files hold many cases separated by `// -----` (each case its own module); jax/ files
// are one module each. Every failing case is reported with the first line where the two
// printings differ (or the parse error), so one run shows all of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "tests/support/test_files.h"
#include "ir/printer.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> MlirFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());  // a stable report order
  return files;
}

using ::vkhlo::testing::ReadFile;

// "line N:\n  first:  ...\n  second: ..." for the first differing line (lines cut to 300 chars:
// the hex constants are long).
std::string FirstDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    bool more_a = static_cast<bool>(std::getline(sa, la));
    bool more_b = static_cast<bool>(std::getline(sb, lb));
    if (!more_a && !more_b) return "identical";
    if (!more_a) la = "<end>";
    if (!more_b) lb = "<end>";
    if (la != lb) {
      return "line " + std::to_string(line) + ":\n  first:  " + la.substr(0, 300) +
             "\n  second: " + lb.substr(0, 300);
    }
  }
}

// Parses `text`, prints, parses the printing, prints again; "" when both printings agree,
// else what went wrong.
std::string CheckFixpoint(std::string_view text, const frontend::ParseOptions& options) {
  auto original = frontend::ParseModule(text, options);
  if (!original.ok()) return "source does not parse: " + original.status().ToString();
  const std::string first = ir::PrintModule(**original);

  frontend::ParseOptions reprint_options;
  reprint_options.source_name = options.source_name + " (printed)";
  auto reparsed = frontend::ParseModule(first, reprint_options);
  if (!reparsed.ok()) {
    return "printed text does not parse: " + reparsed.status().ToString() + "\n" + first.substr(0, 2000);
  }
  const std::string second = ir::PrintModule(**reparsed);
  if (first == second) return "";
  return "not a fixpoint, " + FirstDifference(first, second);
}

const fs::path kConformance = VKHLO_CONFORMANCE_DIR;

TEST(PrintRoundTrip, InterpretCases) {
  auto files = MlirFiles(kConformance / "interpret");
  if (files.empty()) FAIL() << "no conformance files under " << kConformance;
  int cases = 0;
  for (const fs::path& path : files) {
    const std::string text = ReadFile(path);
    for (const frontend::SourceChunk& chunk : frontend::SplitInputFile(text)) {
      frontend::ParseOptions options;
      options.source_name = path.string();
      options.first_line = chunk.first_line;
      ++cases;
      std::string problem = CheckFixpoint(chunk.text, options);
      if (!problem.empty()) ADD_FAILURE() << path.string() << ":" << chunk.first_line << ": " << problem;
    }
  }
  RecordProperty("cases", cases);
}

TEST(PrintRoundTrip, JaxPrograms) {
  auto files = MlirFiles(kConformance / "jax");
  if (files.empty()) FAIL() << "no conformance files under " << kConformance;
  for (const fs::path& path : files) {
    frontend::ParseOptions options;
    options.source_name = path.string();
    std::string problem = CheckFixpoint(ReadFile(path), options);
    if (!problem.empty()) ADD_FAILURE() << path.string() << ": " << problem;
  }
}

}  // namespace
}  // namespace vkhlo
