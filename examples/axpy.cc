// axpy (alpha * x + y), the example of XLA's overview, built with the C++ builder and run on the
// Vulkan device: once with parameters (the inputs are transferred at run time) and once with
// constants (the inputs are part of the graph). Prints each computation's StableHLO, which
// `vkhlo-run` also runs as it is; `vkhlo-example-axpy FILE` writes the first one to FILE.
// Exits 0 when both results are right, 1 otherwise.
#include <cstdio>
#include <fstream>
#include <memory>
#include <vector>

#include "vkhlo/vkhlo.h"

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

int Fail(const vkhlo::Status& status) {
  std::fprintf(stderr, "axpy: %s\n", status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const vkhlo::Literal alpha = vkhlo::LiteralUtil::CreateR0<float>(3.0f);
  const vkhlo::Literal x = vkhlo::LiteralUtil::CreateR1<float>({1, 2, 3, 4});
  const vkhlo::Literal y = vkhlo::LiteralUtil::CreateR1<float>({10, 20, 30, 40});
  const vkhlo::Literal expected = vkhlo::LiteralUtil::CreateR1<float>({13, 26, 39, 52});

  auto client = vkhlo::Client::Create();  // the device VKHLO_DEVICE names, else the best one
  if (!client.ok()) return Fail(client.status());

  auto with_parameters = AxpyWithParameters(alpha, x, y);
  if (!with_parameters.ok()) return Fail(with_parameters.status());
  if (argc > 1) std::ofstream(argv[1]) << with_parameters->ToStableHlo();
  auto signature = with_parameters->GetProgramShape();
  std::printf("// axpy with parameters: %s\n%s\n", signature->ToString().c_str(),
              with_parameters->ToStableHlo().c_str());

  // Step by step: compile, transfer the inputs, execute, read the result back.
  auto executable = (*client)->Compile(*with_parameters, {});
  if (!executable.ok()) return Fail(executable.status());
  std::vector<vkhlo::Buffer> inputs;
  for (const vkhlo::Literal* literal : {&alpha, &x, &y}) {
    auto buffer = (*client)->TransferToDevice(*literal);
    if (!buffer.ok()) return Fail(buffer.status());
    inputs.push_back(*buffer);
  }
  auto outputs = executable->Execute({&inputs[0], &inputs[1], &inputs[2]});
  if (!outputs.ok()) return Fail(outputs.status());
  auto result = (*outputs)[0].ToLiteral();
  if (!result.ok()) return Fail(result.status());
  std::printf("// result on the device: %s\n\n", result->ToString().c_str());

  auto with_constants = AxpyWithConstants(3.0f, {1, 2, 3, 4}, {10, 20, 30, 40});
  if (!with_constants.ok()) return Fail(with_constants.status());
  std::printf("// axpy with constants\n%s", with_constants->ToStableHlo().c_str());
  // All in one call: compiled once and cached for later calls with the same computation.
  auto constant_result = (*client)->ExecuteAndTransfer(*with_constants, {});
  if (!constant_result.ok()) return Fail(constant_result.status());
  std::printf("// result on the device: %s\n", constant_result->ToString().c_str());

  if (*result != expected || *constant_result != expected) {
    std::fprintf(stderr, "axpy: expected %s\n", expected.ToString().c_str());
    return 1;
  }
  return 0;
}
