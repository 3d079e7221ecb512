// A 2-layer perceptron's forward pass, relu(x W1 + b1) W2 + b2, built with the C++ builder, run on
// the Vulkan device and checked against a plain host loop.
//
// Exit status: 0 when the device's result matches the host's; 1 on a wrong result or an error;
// 3 when the device cannot run one of the ops yet (an UNIMPLEMENTED compile error naming the op,
// printed) — vkhlo reports that rather than quietly running the op elsewhere.
#include <cmath>
#include <cstdio>
#include <vector>

#include "vkhlo/vkhlo.h"

namespace {

constexpr int64_t kBatch = 8, kIn = 16, kHidden = 32, kOut = 4;

// Deterministic, small values (no random engine, so every run checks the same thing).
std::vector<float> Values(int64_t count, int seed) {
  std::vector<float> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) values[static_cast<size_t>(i)] = static_cast<float>((i * 7 + seed * 13) % 17 - 8) / 16.0f;
  return values;
}

// One layer: x [rows, in] times w [in, out] plus b [out] (broadcast along the rows), relu or not.
vkhlo::XlaOp Layer(vkhlo::XlaOp x, vkhlo::XlaOp w, vkhlo::XlaOp b, bool relu) {
  vkhlo::XlaOp y = vkhlo::Add(vkhlo::Dot(x, w), b, /*broadcast_dimensions=*/{1});
  return relu ? vkhlo::Max(y, vkhlo::ConstantR0<float>(x.builder(), 0.0f)) : y;
}

std::vector<float> HostLayer(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b,
                             int64_t rows, int64_t in, int64_t out, bool relu) {
  std::vector<float> y(static_cast<size_t>(rows * out));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t o = 0; o < out; ++o) {
      float sum = 0;
      for (int64_t i = 0; i < in; ++i) sum += x[static_cast<size_t>(r * in + i)] * w[static_cast<size_t>(i * out + o)];
      sum += b[static_cast<size_t>(o)];
      y[static_cast<size_t>(r * out + o)] = relu ? std::fmax(sum, 0.0f) : sum;
    }
  }
  return y;
}

int Fail(const vkhlo::Status& status) {
  std::fprintf(stderr, "mlp: %s\n", status.ToString().c_str());
  return status.code() == vkhlo::StatusCode::kUnimplemented ? 3 : 1;
}

}  // namespace

int main() {
  using vkhlo::F32;
  using vkhlo::ShapeUtil;
  const std::vector<float> x = Values(kBatch * kIn, 1), w1 = Values(kIn * kHidden, 2), b1 = Values(kHidden, 3),
                           w2 = Values(kHidden * kOut, 4), b2 = Values(kOut, 5);

  vkhlo::XlaBuilder builder("mlp");
  auto px = vkhlo::Parameter(&builder, 0, ShapeUtil::MakeShape(F32, {kBatch, kIn}), "x");
  auto pw1 = vkhlo::Parameter(&builder, 1, ShapeUtil::MakeShape(F32, {kIn, kHidden}), "w1");
  auto pb1 = vkhlo::Parameter(&builder, 2, ShapeUtil::MakeShape(F32, {kHidden}), "b1");
  auto pw2 = vkhlo::Parameter(&builder, 3, ShapeUtil::MakeShape(F32, {kHidden, kOut}), "w2");
  auto pb2 = vkhlo::Parameter(&builder, 4, ShapeUtil::MakeShape(F32, {kOut}), "b2");
  Layer(Layer(px, pw1, pb1, /*relu=*/true), pw2, pb2, /*relu=*/false);
  auto computation = builder.Build();
  if (!computation.ok()) return Fail(computation.status());

  auto client = vkhlo::Client::Create();
  if (!client.ok()) return Fail(client.status());
  const vkhlo::Literal lx = vkhlo::LiteralUtil::CreateFromVector(x, {kBatch, kIn});
  const vkhlo::Literal lw1 = vkhlo::LiteralUtil::CreateFromVector(w1, {kIn, kHidden});
  const vkhlo::Literal lb1 = vkhlo::LiteralUtil::CreateR1(b1);
  const vkhlo::Literal lw2 = vkhlo::LiteralUtil::CreateFromVector(w2, {kHidden, kOut});
  const vkhlo::Literal lb2 = vkhlo::LiteralUtil::CreateR1(b2);
  auto result = (*client)->ExecuteAndTransfer(*computation, {&lx, &lw1, &lb1, &lw2, &lb2});
  if (!result.ok()) return Fail(result.status());
  std::printf("mlp output on the device:\n%s\n", result->ToString().c_str());

  const std::vector<float> hidden = HostLayer(x, w1, b1, kBatch, kIn, kHidden, true);
  const std::vector<float> expected = HostLayer(hidden, w2, b2, kBatch, kHidden, kOut, false);
  auto actual = result->data<float>();
  if (actual.size() != expected.size()) {
    std::fprintf(stderr, "mlp: expected %zu values, got %zu\n", expected.size(), actual.size());
    return 1;
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    // Sums of 32 products in another order: a few ULPs apart at most.
    if (std::fabs(actual[i] - expected[i]) > 1e-5f * std::fmax(1.0f, std::fabs(expected[i]))) {
      std::fprintf(stderr, "mlp: element %zu is %g on the device, %g on the host\n", i, actual[i], expected[i]);
      return 1;
    }
  }
  std::printf("matches the host loop (%lld x %lld outputs)\n", static_cast<long long>(kBatch),
              static_cast<long long>(kOut));
  return 0;
}
