// axpy (alpha * x + y), the example of XLA's overview, with the C++ builder: once with
// parameters and once with constants. Prints each computation's StableHLO, which
//   vkhlo-run --device=reference <file> --input=...
// runs as it is; `vkhlo-example-axpy FILE` also writes the first one to FILE. (Running them from
// C++ through vkhlo::Client arrives with the runtime.)
#include <cstdio>
#include <fstream>
#include <vector>

#include "vkhlo/xla_builder.h"

namespace {

// The graph of the overview's ComputeAxpyParameters: three parameters, one output.
vkhlo::StatusOr<vkhlo::XlaComputation> AxpyWithParameters(const vkhlo::Literal& alpha, const vkhlo::Literal& x,
                                                          const vkhlo::Literal& y) {
  vkhlo::XlaBuilder builder("axpy");
  auto param_alpha = vkhlo::Parameter(&builder, 0, alpha.shape(), "alpha");
  auto param_x = vkhlo::Parameter(&builder, 1, x.shape(), "x");
  auto param_y = vkhlo::Parameter(&builder, 2, y.shape(), "y");
  vkhlo::Add(vkhlo::Mul(param_alpha, param_x), param_y);
  return builder.Build();
}

// ComputeAxpyConstants: the inputs are part of the graph.
vkhlo::StatusOr<vkhlo::XlaComputation> AxpyWithConstants(float alpha, const std::vector<float>& x,
                                                         const std::vector<float>& y) {
  vkhlo::XlaBuilder builder("axpy");
  auto constant_alpha = vkhlo::ConstantR0<float>(&builder, alpha);
  auto constant_x = vkhlo::ConstantR1<float>(&builder, x);
  auto constant_y = vkhlo::ConstantR1<float>(&builder, y);
  vkhlo::Add(vkhlo::Mul(constant_alpha, constant_x), constant_y);
  return builder.Build();
}

}  // namespace

int main(int argc, char** argv) {
  const vkhlo::Literal alpha = vkhlo::LiteralUtil::CreateR0<float>(3.0f);
  const vkhlo::Literal x = vkhlo::LiteralUtil::CreateR1<float>({1, 2, 3, 4});
  const vkhlo::Literal y = vkhlo::LiteralUtil::CreateR1<float>({10, 20, 30, 40});

  auto with_parameters = AxpyWithParameters(alpha, x, y);
  if (!with_parameters.ok()) {
    std::fprintf(stderr, "%s\n", with_parameters.status().ToString().c_str());
    return 1;
  }
  if (argc > 1) {
    std::ofstream(argv[1]) << with_parameters->ToStableHlo();
  }
  auto signature = with_parameters->GetProgramShape();
  std::printf("// axpy with parameters: %s\n%s\n", signature->ToString().c_str(),
              with_parameters->ToStableHlo().c_str());

  auto with_constants = AxpyWithConstants(3.0f, {1, 2, 3, 4}, {10, 20, 30, 40});
  if (!with_constants.ok()) {
    std::fprintf(stderr, "%s\n", with_constants.status().ToString().c_str());
    return 1;
  }
  std::printf("// axpy with constants (expected result %s)\n%s",
              vkhlo::LiteralUtil::CreateR1<float>({13, 26, 39, 52}).ToString().c_str(),
              with_constants->ToStableHlo().c_str());
  return 0;
}
