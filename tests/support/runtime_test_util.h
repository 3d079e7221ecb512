// Running programs on the Vulkan runtime and on the interpreter (the oracle) from tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ir/literal.h"
#include "vkhlo/runtime.h"

namespace vkhlo::testing {

// One client per test process, on the device the environment names, with the validation
// handler that fails the running test on any message.
const Client& SharedClient();

struct BothResults {
  std::vector<ir::Literal> vulkan;
  std::vector<ir::Literal> reference;
  ExecutionStats stats;
  CompileStats compile;
};

// Parses and verifies `text`, runs @main on `inputs` on both, or fails with the status.
StatusOr<BothResults> RunOnBoth(const std::string& text, const std::vector<ir::Literal>& inputs,
                                const CompileOptions& options = {});

// Random elements of `type` (a tensor type): uniform bit patterns mixed with the type's edge
// values (NaN, infinities, signed zeros, denormals, extremes; for integers 0, 1, -1, min, max).
ir::Literal RandomLiteral(const ir::Type& type, std::mt19937_64& rng);

// Whether two literals hold the same bits, treating any two NaNs (of float or complex parts)
// as equal, and (with max_ulp > 0) finite floats within max_ulp units in the last place. On
// mismatch, `why` names the first differing element.
bool SameBits(const ir::Literal& a, const ir::Literal& b, std::string* why, int max_ulp = 0);

// A result's elements as host values of T (empty, with a test failure, if it cannot be read).
template <typename T>
std::vector<T> Download(const Buffer& b) {
  auto bytes = b.ToHost();
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::vector<T> out(bytes.ok() ? bytes->size() / sizeof(T) : 0);
  if (bytes.ok()) std::memcpy(out.data(), bytes->data(), out.size() * sizeof(T));
  return out;
}

}  // namespace vkhlo::testing
