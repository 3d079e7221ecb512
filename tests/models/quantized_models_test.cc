// Quantized models end to end (issue 26): an MLP (64 -> 128 -> 10, batch 16, i8 activations) and
// a CNN (1x16x16x3, two 3x3 convolutions, one strided, a dense head, u8 activations), written as
// TFLite / AQT-style exports are (tests/models/programs, made by
// tools/quantized_models/make_quantized_models.py: per-tensor activations with zero points,
// per-output-channel i8 weights, quantized dot_general / convolution results, bias add and relu
// on quantized tensors, uniform_dequantize of the logits). Each quantized program returns its
// logits and every hidden layer's dequantized activation.
//
// Checked:
//   - the Vulkan device's results equal the interpreter's (the oracle) bit for bit;
//   - the quantized model is within its quantization error of the same model in float
//     (quantized_<m>.float.mlir: the same stored weights and biases, dequantized, f32
//     throughout). Two bounds, both computed by the generator from the roundings the quantized
//     model makes (its docstring derives them):
//       end to end (bound.npy, per logit): the input's quantization error propagated through
//         |weights| layer by layer, plus every requantization's and bias add's half step, plus
//         the f32 sums' own error;
//       per layer (layer_bounds.npy): the float layer @layer<i> given the quantized model's own
//         activation as input differs from the quantized layer only by that layer's roundings
//         (half a step of the contraction's result type, half a step of the bias add's, f32
//         sums): the tight check, where a wrong zero point or scale shows as many steps.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/test_files.h"
#include "tools/common/npy.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

const fs::path kPrograms = VKHLO_QUANTIZED_MODELS_DIR;

ir::Literal Npy(const std::string& file) {
  auto literal = tools::ReadNpy((kPrograms / file).string());
  EXPECT_TRUE(literal.ok()) << file << ": " << literal.status().message();
  return literal.ok() ? std::move(*literal) : ir::Literal();
}

StatusOr<std::vector<ir::Literal>> Interpret(const ir::Module& module, const std::string& function,
                                             const std::vector<ir::Literal>& inputs) {
  interp::InterpValues values;
  for (const ir::Literal& l : inputs) values.push_back(interp::InterpValue::Tensor(l));
  VKHLO_ASSIGN_OR_RETURN(interp::RunResult result, interp::RunFunction(module, function, std::move(values)));
  std::vector<ir::Literal> out;
  for (const interp::InterpValue& v : result.outputs) out.push_back(v.literal());
  return out;
}

StatusOr<std::unique_ptr<ir::Module>> Parse(const std::string& file) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module,
                         frontend::ParseModule(testing::ReadFile(kPrograms / file), {file, 1}));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  return module;
}

// max |actual - expected| / bound over the elements (a bound per element, or one for all); the
// check is that it is at most 1. The worst element is named in `worst`.
double WorstRatio(const ir::Literal& actual, const ir::Literal& expected, const ir::Literal* bounds, double bound,
                  std::string* worst) {
  double ratio = 0;
  EXPECT_EQ(actual.type(), expected.type());
  for (int64_t i = 0; i < expected.num_elements(); ++i) {
    const double b = bounds != nullptr ? bounds->GetFloat(i) : bound;
    const double r = std::abs(actual.GetFloat(i) - expected.GetFloat(i)) / b;
    if (r > ratio) {
      ratio = r;
      *worst = fmt::format("element {}: quantized {}, float {}, bound {}", i, actual.GetFloat(i), expected.GetFloat(i), b);
    }
  }
  return ratio;
}

class QuantizedModel : public ::testing::TestWithParam<std::string> {
 protected:
  std::string Stem() const { return "quantized_" + GetParam(); }
};

TEST_P(QuantizedModel, WithinQuantizationErrorOfTheFloatModel) {
  auto quantized = Parse(Stem() + ".mlir");
  ASSERT_TRUE(quantized.ok()) << quantized.status().message();
  auto real = Parse(Stem() + ".float.mlir");
  ASSERT_TRUE(real.ok()) << real.status().message();
  const ir::Literal x = Npy(Stem() + ".in0.npy");
  const ir::Literal bound = Npy(Stem() + ".bound.npy");
  const ir::Literal layer_bounds = Npy(Stem() + ".layer_bounds.npy");

  auto q = Interpret(**quantized, "main", {x});
  ASSERT_TRUE(q.ok()) << q.status().message();
  auto f = Interpret(**real, "main", {x});
  ASSERT_TRUE(f.ok()) << f.status().message();
  ASSERT_EQ(q->size(), static_cast<size_t>(layer_bounds.num_elements()));  // logits + hidden layers

  // End to end: logits against the float model's.
  std::string worst;
  const double ratio = WorstRatio((*q)[0], (*f)[0], &bound, 0, &worst);
  EXPECT_LE(ratio, 1.0) << worst;
  double largest_logit = 0, largest_bound = 0;
  for (int64_t i = 0; i < (*f)[0].num_elements(); ++i) {
    largest_logit = std::max(largest_logit, std::abs((*f)[0].GetFloat(i)));
    largest_bound = std::max(largest_bound, bound.GetFloat(i));
  }
  // (A worst case: every rounding aligned with the signs of the weights after it. It grows with
  // depth and fan-in, so it is far above the errors seen: the layer checks below are the tight
  // ones.)
  std::printf("%s end to end: largest |error| / bound %.3f (%s); largest bound %.4g, largest |logit| %.4g\n",
              GetParam().c_str(), ratio, worst.c_str(), largest_bound, largest_logit);

  // Layer by layer: the float layer on the quantized model's own input to it.
  const int64_t layers = layer_bounds.num_elements();
  for (int64_t i = 0; i < layers; ++i) {
    const ir::Literal& input = i == 0 ? x : (*q)[i];
    const ir::Literal& output = i + 1 == layers ? (*q)[0] : (*q)[i + 1];
    auto layer = Interpret(**real, fmt::format("layer{}", i + 1), {input});
    ASSERT_TRUE(layer.ok()) << layer.status().message();
    const double r = WorstRatio(output, (*layer)[0], nullptr, layer_bounds.GetFloat(i), &worst);
    EXPECT_LE(r, 1.0) << "layer " << i + 1 << ": " << worst;
    // The bound is about one step of the layer's quantized types: a small part of its range.
    double largest = 0;
    for (int64_t j = 0; j < (*layer)[0].num_elements(); ++j) largest = std::max(largest, std::abs((*layer)[0].GetFloat(j)));
    EXPECT_LT(layer_bounds.GetFloat(i), 0.05 * largest) << "layer " << i + 1;
    std::printf("%s layer %lld: largest |error| / bound %.3f (bound %.4g)\n", GetParam().c_str(),
                static_cast<long long>(i + 1), r, layer_bounds.GetFloat(i));
  }
}

TEST_P(QuantizedModel, DeviceEqualsInterpreterBitForBit) {
  const std::string text = testing::ReadFile(kPrograms / (Stem() + ".mlir"));
  auto both = testing::RunOnBoth(text, {Npy(Stem() + ".in0.npy")});
  ASSERT_TRUE(both.ok()) << both.status().message();
  ASSERT_EQ(both->vulkan.size(), both->reference.size());
  for (size_t i = 0; i < both->vulkan.size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[i], both->reference[i], &why)) << "result " << i << ": " << why;
  }
  EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
}

INSTANTIATE_TEST_SUITE_P(Models, QuantizedModel, ::testing::Values("mlp", "cnn"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace vkhlo
