// Runs the conformance programs of the data-movement, reduction and control-flow ops
// (../shared/conformance): interpret/<op>.mlir split at "// -----" with every public function
// without arguments run, and the jax/ programs of the same ops (their @main). A program passes
// when it runs and none of its check.* ops fails; one that needs an op no group has registered
// yet (UNIMPLEMENTED) is counted as skipped, not failed.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "tests/support/test_files.h"
#include "interp/interpreter.h"

namespace vkhlo::interp {
namespace {

namespace fs = std::filesystem;

using ::vkhlo::testing::ReadFile;

// The ops whose interpret/ files this suite runs.
const char* const kInterpretFiles[] = {"broadcast_in_dim",
                                       "concatenate",
                                       "dynamic_slice",
                                       "dynamic_update_slice",
                                       "gather",
                                       "get_dimension_size",
                                       "iota",
                                       "pad",
                                       "reshape",
                                       "reverse",
                                       "scatter",
                                       "slice",
                                       "sort",
                                       "transpose",
                                       "dynamic_broadcast_in_dim",
                                       "dynamic_gather",
                                       "dynamic_iota",
                                       "dynamic_pad",
                                       "dynamic_reshape",
                                       "reduce",
                                       "reduce_window",
                                       "select_and_scatter",
                                       "while",
                                       "if",
                                       "case"};

// jax/ programs whose op under test is one of ours (by file name prefix).
const char* const kJaxPrefixes[] = {"broadcast_in_dim_",
                                    "concatenate_",
                                    "dynamic_slice_",
                                    "dynamic_update_slice_",
                                    "gather_",
                                    "iota_",
                                    "pad_",
                                    "reshape_",
                                    "rev_",
                                    "scatter_",
                                    "slice_",
                                    "sort_",
                                    "squeeze_",
                                    "transpose_",
                                    "reduce_and_",
                                    "reduce_max_",
                                    "reduce_min_",
                                    "reduce_prod_",
                                    "reduce_sum_",
                                    "reduce_window_",
                                    "reduce_complex",
                                    "reduce_float",
                                    "reduce_uint",
                                    "argmax_",
                                    "argmin_",
                                    "cummax_",
                                    "cummin_",
                                    "cumprod_",
                                    "cumsum_",
                                    "select_and_scatter_",
                                    "select_and_gather_"};

struct Tally {
  int run = 0, passed = 0, skipped = 0;
  int64_t checks = 0;
  std::map<std::string, int> skip_reasons;
};

// Runs one program's functions; failures are reported to gtest.
void RunProgram(const std::string& label, std::string_view text, uint32_t first_line, bool jax, Tally& tally) {
  frontend::ParseOptions options;
  options.source_name = label;
  options.first_line = first_line;
  auto module = frontend::ParseModule(text, options);
  if (!module.ok()) {
    ADD_FAILURE() << "parse: " << module.status().message();
    return;
  }
  for (const auto& function : (*module)->functions()) {
    if (jax ? function->name() != "main" : (!function->is_public() || !function->type().inputs.empty())) continue;
    ++tally.run;
    auto result = RunFunction(**module, function->name(), {});
    if (!result.ok()) {
      ADD_FAILURE() << label << " @" << function->name() << ": " << result.status().ToString();
      continue;
    }
    if (!result->check_failures.empty()) {
      const CheckFailure& f = result->check_failures[0];
      ADD_FAILURE() << label << ":" << f.location.line << " @" << function->name() << ": "
                    << result->check_failures.size() << " check(s) failed, first: " << f.message;
      continue;
    }
    ++tally.passed;
    tally.checks += result->checks_passed;
  }
}

void Report(const char* what, const Tally& tally) {
  std::printf("%s: %d functions run, %d passed (%lld checks), %d skipped (unimplemented ops)\n", what, tally.run,
              tally.passed, static_cast<long long>(tally.checks), tally.skipped);
  for (const auto& [reason, count] : tally.skip_reasons) std::printf("  skipped for %s: %d\n", reason.c_str(), count);
}

TEST(DataMovementConformanceTest, InterpretPrograms) {
  const fs::path dir = fs::path(VKHLO_CONFORMANCE_DIR) / "interpret";
  if (!fs::exists(dir)) FAIL() << "no conformance corpus at " << dir;
  Tally tally;
  for (const char* op : kInterpretFiles) {
    const fs::path path = dir / (std::string(op) + ".mlir");
    if (!fs::exists(path)) continue;
    const std::string text = ReadFile(path);
    for (const frontend::SourceChunk& chunk : frontend::SplitInputFile(text)) {
      RunProgram(path.filename().string(), chunk.text, chunk.first_line, /*jax=*/false, tally);
    }
  }
  Report("interpret", tally);
}

TEST(DataMovementConformanceTest, JaxPrograms) {
  const fs::path dir = fs::path(VKHLO_CONFORMANCE_DIR) / "jax";
  if (!fs::exists(dir)) FAIL() << "no conformance corpus at " << dir;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    for (const char* prefix : kJaxPrefixes) {
      if (name.rfind(prefix, 0) == 0 && entry.path().extension() == ".mlir") {
        files.push_back(entry.path());
        break;
      }
    }
  }
  std::sort(files.begin(), files.end());
  Tally tally;
  for (const fs::path& path : files) RunProgram(path.filename().string(), ReadFile(path), 1, /*jax=*/true, tally);
  Report("jax", tally);
}

}  // namespace
}  // namespace vkhlo::interp
