// Test helpers: run a StableHLO program's @main in the reference interpreter and compare its
// results with `dense<...> : tensor<...>` text.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "frontend/parser.h"
#include "interp/interpreter.h"

namespace vkhlo::interp::testing {

// Runs @main of `program` without arguments; the outputs, or the parse/run error.
inline StatusOr<InterpValues> RunMain(std::string_view program) {
  auto module = frontend::ParseModule(program);
  if (!module.ok()) return module.status();
  auto result = RunFunction(**module, "main", {});
  if (!result.ok()) return result.status();
  if (!result->check_failures.empty()) return InternalError("check failed: " + result->check_failures[0].message);
  return std::move(result->outputs);
}

// The literal written as `dense<...> : tensor<...>`.
inline ir::Literal Dense(std::string_view text) {
  auto attr = frontend::ParseAttribute(text);
  EXPECT_TRUE(attr.ok()) << attr.status().message();
  const ir::Literal* literal = attr.ok() ? attr->AsDenseElements() : nullptr;
  EXPECT_NE(literal, nullptr) << text;
  return literal ? *literal : ir::Literal();
}

inline ::testing::AssertionResult ValueIs(const InterpValue& value, std::string_view expected) {
  if (!value.is_tensor()) return ::testing::AssertionFailure() << "not a tensor: " << value.ToString();
  const ir::Literal want = Dense(expected);
  if (value.literal() == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "actual   " << value.ToString() << "\nexpected " << expected;
}

// Runs `program` and compares its single output with `expected`.
inline ::testing::AssertionResult RunsTo(std::string_view program, std::string_view expected) {
  auto outputs = RunMain(program);
  if (!outputs.ok()) return ::testing::AssertionFailure() << outputs.status().ToString();
  if (outputs->size() != 1) return ::testing::AssertionFailure() << outputs->size() << " outputs";
  return ValueIs((*outputs)[0], expected);
}

// Runs `program` and expects an INVALID_ARGUMENT error whose message contains `fragment`.
inline ::testing::AssertionResult FailsWith(std::string_view program, std::string_view fragment) {
  auto outputs = RunMain(program);
  if (outputs.ok()) return ::testing::AssertionFailure() << "ran without error";
  if (outputs.status().code() != StatusCode::kInvalidArgument ||
      outputs.status().message().find(fragment) == std::string::npos) {
    return ::testing::AssertionFailure() << "unexpected error: " << outputs.status().ToString();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace vkhlo::interp::testing
