// Parse + verify throughput beside reading the same file (`cat FILE > /dev/null`), on the
// largest conformance programs and on a generated 50 MB module of hex constants.
// Run: build/bin/vkhlo-frontend-bench. Throughput is bytes_per_second of program text.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "frontend/parser.h"
#include "tests/support/test_files.h"
#include "tests/support/generated_programs.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using ::vkhlo::testing::ReadFile;

const std::string& GeneratedPath() {
  static const std::string path = [] {
    std::string p = (std::filesystem::temp_directory_path() / "vkhlo-bench-50mb.mlir").string();
    std::ofstream(p, std::ios::binary) << testing::HexConstantModule(50ull << 20, 1 << 16);
    return p;
  }();
  return path;
}

std::string PathFor(int which) {
  switch (which) {
    case 0: return VKHLO_CONFORMANCE_DIR "/jax/round_float64_100_100.mlir";
    case 1: return VKHLO_CONFORMANCE_DIR "/jax/convert_element_type_uint64_100_100.mlir";
    default: return GeneratedPath();
  }
}

void BM_ReadFile(benchmark::State& state) {  // the baseline: cat FILE > /dev/null
  const std::string path = PathFor(static_cast<int>(state.range(0)));
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = ReadFile(path);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetLabel(std::filesystem::path(path).filename().string());
}

void BM_ReadParseVerify(benchmark::State& state) {
  const std::string path = PathFor(static_cast<int>(state.range(0)));
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = ReadFile(path);
    bytes = text.size();
    auto module = frontend::ParseModule(text);
    if (!module.ok() || !verify::VerifyModule(**module).ok()) {
      state.SkipWithError("parse or verify failed");
      return;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetLabel(std::filesystem::path(path).filename().string());
}

BENCHMARK(BM_ReadFile)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadParseVerify)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace vkhlo

BENCHMARK_MAIN();
