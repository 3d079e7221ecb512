// Runs the conformance programs of the library, random and collective ops
// (../shared/conformance/interpret and /jax): every `// -----` piece is parsed and its @main
// (or, without one, every function without arguments) is run; the checks in it must all pass.
// Pieces that need an op the interpreter does not have yet (UNIMPLEMENTED) are skipped and
// counted; so are pieces the frontend cannot read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "frontend/parser.h"
#include "interp/interpreter.h"

namespace vkhlo::interp {
namespace {

namespace fs = std::filesystem;

struct Tally {
  int ran = 0, passed = 0, unimplemented = 0, unparsed = 0;
};

std::vector<fs::path> Files(const std::string& folder, const std::regex& pattern) {
  std::vector<fs::path> out;
  const fs::path dir = fs::path(VKHLO_CONFORMANCE_DIR) / folder;
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && std::regex_match(entry.path().filename().string(), pattern)) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void RunFile(const fs::path& path, Tally& tally) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  for (const auto& chunk : frontend::SplitInputFile(text)) {
    const std::string where = path.filename().string() + ":" + std::to_string(chunk.first_line);
    frontend::ParseOptions options;
    options.source_name = path.filename().string();
    options.first_line = chunk.first_line;
    auto module = frontend::ParseModule(chunk.text, options);
    if (!module.ok()) {
      ++tally.unparsed;
      std::printf("  unparsed %s: %s\n", where.c_str(), module.status().ToString().c_str());
      continue;
    }
    std::vector<const ir::Function*> entries;
    if (const ir::Function* main = (*module)->FindFunction("main"); main && main->type().inputs.empty()) {
      entries.push_back(main);
    } else {
      for (const auto& f : (*module)->functions()) {
        if (f->type().inputs.empty() && !f->body().empty()) entries.push_back(f.get());
      }
    }
    bool unimplemented = false, ok = true;
    for (const ir::Function* f : entries) {
      auto result = RunFunction(**module, f->name(), {});
      if (!result.ok()) {
        ok = false;
        ADD_FAILURE() << where << " @" << f->name() << ": " << result.status().ToString();
        continue;
      }
      for (const auto& failure : result->check_failures) {
        ok = false;
        ADD_FAILURE() << where << " @" << f->name() << " line " << failure.location.line << ": " << failure.message;
      }
    }
    if (unimplemented) {
      ++tally.unimplemented;
      continue;
    }
    ++tally.ran;
    if (ok) ++tally.passed;
  }
}

void RunGroup(const char* name, const std::vector<fs::path>& files) {
  if (files.empty()) FAIL() << "no conformance programs at " << VKHLO_CONFORMANCE_DIR;
  Tally tally;
  for (const auto& f : files) RunFile(f, tally);
  std::printf("%s: %zu files, %d pieces ran, %d passed, %d skipped (unimplemented op), %d unparsed\n", name,
              files.size(), tally.ran, tally.passed, tally.unimplemented, tally.unparsed);
}

TEST(LibraryConformance, Interpret) {
  RunGroup("interpret library ops",
           Files("interpret", std::regex("(dot_general|convolution|dynamic_conv|fft|triangular_solve|cholesky|"
                                         "batch_norm_.*|rng.*)\\.mlir")));
}

TEST(LibraryConformance, Jax) {
  RunGroup("jax library ops",
           Files("jax", std::regex("(dot_general|conv_general_dilated|fft|triangular_solve|cholesky|"
                                   "rng_bit_generator)_.*\\.mlir")));
}

TEST(CollectiveConformance, Interpret) {
  RunGroup("interpret collective ops",
           Files("interpret", std::regex("(all_.*|collective_.*|reduce_scatter|send.*|recv|infeed|outfeed|"
                                         "replica_id|partition_id)\\.mlir")));
}

}  // namespace
}  // namespace vkhlo::interp
