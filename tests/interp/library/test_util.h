// Helpers of the library/random/collective interpreter tests: parse a program, make literals,
// run a function, read results.
#pragma once

#include <gtest/gtest.h>

#include <complex>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/literal.h"

namespace vkhlo::interp::testing {

inline std::unique_ptr<ir::Module> Parse(const std::string& text) {
  auto module = frontend::ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status().ToString() << "\n" << text;
  return module.ok() ? std::move(module).value() : nullptr;
}

inline ir::Literal Make(ir::ElementType type, std::vector<int64_t> dims, const std::vector<double>& values) {
  ir::Literal l = ir::Literal::Create(ir::Type::Tensor(type, std::move(dims))).value();
  for (size_t i = 0; i < values.size(); ++i) {
    if (ir::IsInteger(type) || ir::IsBoolean(type)) {
      l.SetInt(static_cast<int64_t>(i), static_cast<int64_t>(values[i]));
    } else {
      l.SetFloat(static_cast<int64_t>(i), values[i]);
    }
  }
  return l;
}

inline ir::Literal MakeComplex(ir::ElementType type, std::vector<int64_t> dims,
                               const std::vector<std::complex<double>>& values) {
  ir::Literal l = ir::Literal::Create(ir::Type::Tensor(type, std::move(dims))).value();
  for (size_t i = 0; i < values.size(); ++i) l.SetComplex(static_cast<int64_t>(i), values[i]);
  return l;
}

// Random small integers as doubles (exact in every float type used here).
inline std::vector<double> RandomInts(size_t n, int lo, int hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<double> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

inline std::vector<double> RandomReals(size_t n, double lo, double hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

// Runs @main of `text` on `args`; expects success and no check failures.
inline InterpValues RunMain(const std::string& text, InterpValues args = {}) {
  auto module = Parse(text);
  if (!module) return {};
  auto result = RunFunction(*module, "main", std::move(args));
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return {};
  for (const auto& f : result->check_failures) ADD_FAILURE() << "line " << f.location.line << ": " << f.message;
  return result->outputs;
}

inline std::vector<double> Doubles(const InterpValue& v) {
  std::vector<double> out;
  for (int64_t i = 0; i < v.literal().num_elements(); ++i) out.push_back(v.literal().GetFloat(v.literal().is_splat() ? 0 : i));
  return out;
}

inline std::vector<std::complex<double>> Complexes(const InterpValue& v) {
  std::vector<std::complex<double>> out;
  for (int64_t i = 0; i < v.literal().num_elements(); ++i) out.push_back(v.literal().GetComplex(v.literal().is_splat() ? 0 : i));
  return out;
}

inline std::vector<int64_t> Ints(const InterpValue& v) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < v.literal().num_elements(); ++i) out.push_back(v.literal().GetInt(v.literal().is_splat() ? 0 : i));
  return out;
}

}  // namespace vkhlo::interp::testing
