// Parse + verify throughput beside reading the same file (`cat FILE > /dev/null`), on the
// largest conformance programs and on a generated 50 MB module of hex constants; and reading
// the same programs as StableHLO portable artifacts (MLIR bytecode) + verify, beside them.
// Run: build/bin/vkhlo-frontend-bench. Throughput is bytes_per_second of the file read (text or
// bytecode); the same range index is the same program, so the times compare directly.
// The artifacts of the conformance programs are those JAX's tooling made for the bytecode
// tests (ctest -R bytecode.make_conformance_artifacts); the 50 MB module's is written here.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "frontend/bytecode/program.h"
#include "frontend/parser.h"
#include "tests/benchmarks/generated_artifact.h"
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

// Reads `path` and turns it into a verified module with `parse`, timing both.
template <typename Parse>
void ReadAndVerify(benchmark::State& state, const std::string& path, Parse&& parse) {
  size_t bytes = 0;
  for (auto _ : state) {
    std::string contents = ReadFile(path);
    bytes = contents.size();
    auto module = parse(contents);
    if (!module.ok() || !verify::VerifyModule(**module).ok()) {
      state.SkipWithError("read, parse or verify failed");
      return;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetLabel(std::filesystem::path(path).filename().string());
}

void BM_ReadParseVerify(benchmark::State& state) {
  ReadAndVerify(state, PathFor(static_cast<int>(state.range(0))),
                [](const std::string& text) { return frontend::ParseModule(text); });
}

// The same programs as portable artifacts (jax.export's WEEK_4 version, 1.15.0).
std::string ArtifactPathFor(int which) {
  switch (which) {
    case 0: return VKHLO_BYTECODE_ARTIFACTS_DIR "/1.15.0/jax_round_float64_100_100.mlir.mlirbc";
    case 1: return VKHLO_BYTECODE_ARTIFACTS_DIR "/1.15.0/jax_convert_element_type_uint64_100_100.mlir.mlirbc";
    default: {
      static const std::string path = [] {
        std::string p = (std::filesystem::temp_directory_path() / "vkhlo-bench-50mb.mlirbc").string();
        const std::vector<uint8_t> bytes = testing::HexConstantArtifact(50ull << 20, 1 << 16);
        std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                 static_cast<std::streamsize>(bytes.size()));
        return p;
      }();
      return path;
    }
  }
}

void BM_ReadBytecodeVerify(benchmark::State& state) {
  const std::string path = ArtifactPathFor(static_cast<int>(state.range(0)));
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("no artifact (ctest -R bytecode.make_conformance_artifacts makes it)");
    return;
  }
  ReadAndVerify(state, path, [](const std::string& bytes) { return frontend::ParseProgram(bytes); });
}

BENCHMARK(BM_ReadFile)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadParseVerify)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadBytecodeVerify)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace vkhlo

BENCHMARK_MAIN();
