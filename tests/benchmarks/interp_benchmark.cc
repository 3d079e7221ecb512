// The reference interpreter on the sizes its issue names: a 1000x1000x1000 f32 dot_general and
// a 1M-element sort must finish in seconds (it is an oracle: readable over fast).
// Run: build/bin/vkhlo-interp-bench.
#include <benchmark/benchmark.h>

#include <random>

#include "frontend/parser.h"
#include "interp/interpreter.h"

namespace vkhlo {
namespace {

ir::Literal RandomF32(std::vector<int64_t> dims, uint32_t seed) {
  ir::Literal l = ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kF32, dims)).value();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (int64_t i = 0; i < l.num_elements(); ++i) l.SetFloat(i, dist(rng));
  return l;
}

void RunProgram(benchmark::State& state, const char* text, interp::InterpValues inputs) {
  auto module = frontend::ParseModule(text);
  if (!module.ok()) {
    state.SkipWithError(module.status().ToString().c_str());
    return;
  }
  for (auto _ : state) {
    auto result = interp::RunFunction(**module, "main", inputs);
    if (!result.ok()) {
      state.SkipWithError(result.status().ToString().c_str());
      return;
    }
  }
}

void BM_DotGeneral1000(benchmark::State& state) {
  ir::Literal a = RandomF32({1000, 1000}, 1);
  RunProgram(state, R"(
func.func @main(%a: tensor<1000x1000xf32>, %b: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  func.return %0 : tensor<1000x1000xf32>
})", {interp::InterpValue::Tensor(a), interp::InterpValue::Tensor(a)});
}

void BM_Sort1M(benchmark::State& state) {
  RunProgram(state, R"(
func.func @main(%x: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<1048576xf32>) -> tensor<1048576xf32>
  func.return %0 : tensor<1048576xf32>
})", {interp::InterpValue::Tensor(RandomF32({1 << 20}, 2))});
}

BENCHMARK(BM_DotGeneral1000)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_Sort1M)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

}  // namespace
}  // namespace vkhlo

BENCHMARK_MAIN();
