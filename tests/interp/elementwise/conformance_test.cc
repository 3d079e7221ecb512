// Runs the conformance programs of the element-wise ops (../shared/conformance): the
// interpret/ files of each element-wise op, and every jax/ program whose ops are all
// element-wise (plus constants, calls and checks). Every function without arguments runs; its
// check ops must all pass. A case that reaches an op another group has not implemented yet
// (UNIMPLEMENTED) is counted as skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "tests/support/test_files.h"
#include "interp/interpreter.h"
#include "interp/op_registry.h"
#include "ir/op_table.h"

namespace vkhlo::interp {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = VKHLO_CONFORMANCE_DIR;

using ::vkhlo::testing::ReadFile;

struct Tally {
  int cases = 0, passed = 0, skipped = 0;
  int64_t checks = 0;
  std::vector<std::string> failures;
  std::vector<std::string> skips;
};

// Parses `text` and runs every public function that takes no arguments.
void RunChunk(const std::string& name, std::string_view text, uint32_t first_line, Tally& tally) {
  frontend::ParseOptions options;
  options.source_name = name;
  options.first_line = first_line;
  auto module = frontend::ParseModule(text, options);
  if (!module.ok()) {
    ++tally.cases;
    tally.failures.push_back(name + ": parse error: " + module.status().message());
    return;
  }
  for (const auto& function : (*module)->functions()) {
    if (!function->is_public() || !function->type().inputs.empty() || function->body().empty()) continue;
    ++tally.cases;
    const std::string where = name + " @" + function->name();
    auto result = RunFunction(**module, function->name(), {});
    if (!result.ok()) {
      tally.failures.push_back(where + ": " + result.status().message());
      continue;
    }
    if (!result->check_failures.empty()) {
      std::string message = where + ": check failed";
      for (const CheckFailure& f : result->check_failures) {
        message += "\n    line " + std::to_string(f.location.line) + ": " + f.message;
      }
      tally.failures.push_back(message);
      continue;
    }
    if (result->checks_passed == 0) {
      tally.failures.push_back(where + ": ran no check");
      continue;
    }
    tally.checks += result->checks_passed;
    ++tally.passed;
  }
}

void Report(const char* what, const Tally& tally) {
  std::printf("%s: %d cases, %d passed (%lld checks), %d skipped (unimplemented elsewhere), %zu failed\n", what,
              tally.cases, tally.passed, static_cast<long long>(tally.checks), tally.skipped, tally.failures.size());
  for (const std::string& s : tally.skips) std::printf("  skipped: %s\n", s.c_str());
  for (const std::string& f : tally.failures) ADD_FAILURE() << f;
}

TEST(ElementwiseConformanceTest, InterpretFilesOfElementwiseOps) {
  static const char* const kFiles[] = {
      "abs", "add", "and", "atan2", "bitcast_convert", "cbrt", "ceil", "clamp", "compare", "complex", "convert",
      "cosine", "count_leading_zeros", "divide", "exponential", "exponential_minus_one", "floor", "imag",
      "is_finite", "log", "log_plus_one", "logistic", "map", "maximum", "minimum", "multiply", "negate", "not",
      "or", "popcnt", "power", "real", "reduce_precision", "remainder", "round_nearest_afz", "round_nearest_even",
      "rsqrt", "select", "shift_left", "shift_right_arithmetic", "shift_right_logical", "sign", "sine", "sqrt",
      "subtract", "tan", "tanh", "xor", "quantized_ops"};
  if (!fs::exists(kRoot / "interpret")) FAIL() << "no conformance corpus at " << kRoot;
  Tally tally;
  for (const char* file : kFiles) {
    const fs::path path = kRoot / "interpret" / (std::string(file) + ".mlir");
    ASSERT_TRUE(fs::exists(path)) << path;
    const std::string text = ReadFile(path);
    for (const frontend::SourceChunk& chunk : frontend::SplitInputFile(text)) {
      RunChunk(std::string(file) + ".mlir", chunk.text, chunk.first_line, tally);
    }
  }
  Report("interpret/", tally);
  EXPECT_GT(tally.passed, 0);
}

// Whether every op of the module is one this group evaluates (or a constant, call, return,
// check or custom_call check).
bool AllOpsElementwise(const ir::Region& region) {
  for (const auto& block : region.blocks()) {
    for (const auto& op : block->operations()) {
      const ir::OpKind kind = op->info().kind;
      const bool ours = kind == ir::OpKind::kElementwise || kind == ir::OpKind::kConstant ||
                        kind == ir::OpKind::kStructural || kind == ir::OpKind::kTest ||
                        op->code() == ir::OpCode::kCustomCall;
      if (!ours) return false;
      for (size_t r = 0; r < op->num_regions(); ++r) {
        if (!AllOpsElementwise(op->region(r))) return false;
      }
    }
  }
  return true;
}

TEST(ElementwiseConformanceTest, JaxProgramsOfElementwiseOps) {
  if (!fs::exists(kRoot / "jax")) FAIL() << "no conformance corpus at " << kRoot;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kRoot / "jax")) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  Tally tally;
  int selected = 0;
  for (const fs::path& path : files) {
    const std::string text = ReadFile(path);
    frontend::ParseOptions options;
    options.source_name = path.filename().string();
    auto module = frontend::ParseModule(text, options);
    if (!module.ok()) continue;  // the frontend's own tests report parse errors
    bool ours = true;
    for (const auto& function : (*module)->functions()) ours = ours && AllOpsElementwise(function->body());
    if (!ours) continue;
    ++selected;
    RunChunk(path.filename().string(), text, 1, tally);
  }
  std::printf("jax/: %d of %zu programs use only element-wise ops\n", selected, files.size());
  Report("jax/", tally);
  EXPECT_GT(tally.passed, 0);
}

}  // namespace
}  // namespace vkhlo::interp
