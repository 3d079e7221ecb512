#include "tests/codegen/glsl/glsl_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/pipeline.h"
#include "device/transfer.h"

namespace vkhlo::glsl_test {

std::vector<uint32_t> RunKernel(device::Device& device, const std::string& kernel, uint32_t op,
                                std::span<const uint32_t> input, uint32_t count, size_t out_words) {
  using namespace device;
  const std::string name = kernel + "/" + std::to_string(op);
  ComputePipelineDesc desc;
  desc.name = name;
  desc.spirv = TestKernel(kernel, op);
  if (desc.spirv.empty()) {
    ADD_FAILURE() << "no test kernel " << name;
    return {};
  }
  auto pipeline = device.pipelines().GetOrCreate(desc);
  if (!pipeline.ok()) {
    ADD_FAILURE() << name << " op " << op << ": " << pipeline.status().ToString();
    return {};
  }
  const uint64_t in_bytes = std::max<uint64_t>(input.size_bytes(), 4);
  const uint64_t out_bytes = std::max<uint64_t>(out_words * 4, 4);
  auto in = device.allocator().Allocate(in_bytes);
  auto out = device.allocator().Allocate(out_bytes);
  if (!in.ok() || !out.ok()) {
    ADD_FAILURE() << "allocation failed";
    return {};
  }
  Status s = device.transfers().Upload(*in, 0, std::as_bytes(input));
  if (!s.ok()) {
    ADD_FAILURE() << s.ToString();
    return {};
  }
  auto list = CommandList::Begin(device);
  if (!list.ok()) {
    ADD_FAILURE() << list.status().ToString();
    return {};
  }
  const uint32_t groups = std::clamp<uint32_t>((count + 63) / 64, 1, 512);
  s = list->Dispatch(**pipeline, {{in->view(0, in_bytes), Access::kRead}, {out->view(0, out_bytes), Access::kWrite}},
                     std::as_bytes(std::span(&count, 1)), {groups, 1, 1});
  if (!s.ok()) {
    ADD_FAILURE() << s.ToString();
    return {};
  }
  auto done = list->Submit();
  if (!done.ok() || !(s = done->Wait()).ok()) {
    ADD_FAILURE() << (done.ok() ? s.ToString() : done.status().ToString());
    return {};
  }
  std::vector<uint32_t> result(out_words);
  s = device.transfers().Download(*out, 0, std::as_writable_bytes(std::span(result)));
  if (!s.ok()) {
    ADD_FAILURE() << s.ToString();
    return {};
  }
  return result;
}

bool HasFloat64(device::Device& device) { return device.capabilities().features.shader_float64; }

void ExpectFloat64Refused(device::Device& device, const std::string& kernel) {
  device::ComputePipelineDesc desc;
  desc.name = kernel + "/0";
  desc.spirv = TestKernel(kernel, 0);
  ASSERT_FALSE(desc.spirv.empty()) << "no test kernel " << desc.name;
  auto pipeline = device.pipelines().GetOrCreate(desc);
  ASSERT_FALSE(pipeline.ok()) << desc.name << " was accepted by a device without shaderFloat64";
  EXPECT_EQ(pipeline.status().code(), StatusCode::kFailedPrecondition) << pipeline.status().ToString();
  EXPECT_NE(pipeline.status().message().find("shaderFloat64"), std::string::npos) << pipeline.status().message();
}

std::vector<uint32_t> Words(std::span<const double> values) {
  std::vector<uint32_t> words(values.size() * 2);
  std::memcpy(words.data(), values.data(), values.size_bytes());
  return words;
}

std::vector<double> Doubles(std::span<const uint32_t> words) {
  std::vector<double> values(words.size() / 2);
  std::memcpy(values.data(), words.data(), values.size() * 8);
  return values;
}

namespace {
template <typename T, typename W>
double UlpError(T got, W exact) {
  if (std::isnan(exact) || std::isnan(got)) {
    return std::isnan(exact) && std::isnan(got) ? 0 : std::numeric_limits<double>::infinity();
  }
  if (std::isinf(got) || std::isinf(exact) || exact == 0 || got == 0) {
    if (got == exact && std::signbit(got) == std::signbit(exact)) return 0;
    if (std::isinf(got) || std::isinf(exact)) {
      // A finite exact value beyond the range rounds to infinity within half an ulp.
      if (std::isinf(got) && !std::isinf(exact) && std::signbit(got) == std::signbit(exact) &&
          std::fabs(exact) >= static_cast<W>(std::numeric_limits<T>::max())) {
        return 0;
      }
      return std::numeric_limits<double>::infinity();
    }
    if (got == 0 && exact == 0) return std::numeric_limits<double>::infinity();  // zero sign
  }
  int e;
  std::frexp(static_cast<W>(exact), &e);  // |exact| in [2^(e-1), 2^e)
  const int min_e = std::numeric_limits<T>::min_exponent;  // normal binade [2^(min_e-1), ..)
  const int digits = std::numeric_limits<T>::digits;
  const W ulp = std::ldexp(W(1), std::max(e, min_e) - digits);
  return static_cast<double>(std::fabs(static_cast<W>(got) - exact) / ulp);
}
}  // namespace

double UlpErrorF32(float got, double exact) { return UlpError<float, double>(got, exact); }
double UlpErrorF64(double got, long double exact) { return UlpError<double, long double>(got, exact); }

}  // namespace vkhlo::glsl_test
