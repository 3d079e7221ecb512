// Helpers of the element-wise interpreter tests: literals from values or bit patterns, and one
// op evaluated on them through interp::EvaluateOp.
#pragma once

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interp/interpreter.h"
#include "ir/literal.h"
#include "ir/module.h"

namespace vkhlo::interp::testing {

using ir::ElementType;
using ir::Literal;
using ir::OpCode;
using ir::Type;

inline Type Vec(ElementType t, int64_t n) { return Type::Tensor(t, {n}); }

inline Literal Bits(ElementType t, const std::vector<uint64_t>& bits) {
  Literal l = *Literal::Create(Vec(t, static_cast<int64_t>(bits.size())));
  for (size_t i = 0; i < bits.size(); ++i) l.SetBits(static_cast<int64_t>(i), bits[i]);
  return l;
}

inline Literal Ints(ElementType t, const std::vector<int64_t>& values) {
  Literal l = *Literal::Create(Vec(t, static_cast<int64_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) l.SetInt(static_cast<int64_t>(i), values[i]);
  return l;
}

inline Literal Floats(ElementType t, const std::vector<double>& values) {
  Literal l = *Literal::Create(Vec(t, static_cast<int64_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) l.SetFloat(static_cast<int64_t>(i), values[i]);
  return l;
}

inline Literal Complexes(ElementType t, const std::vector<std::complex<double>>& values) {
  Literal l = *Literal::Create(Vec(t, static_cast<int64_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) l.SetComplex(static_cast<int64_t>(i), values[i]);
  return l;
}

inline Literal Scalar(const Literal& one) {
  return *Literal::FromBytes(one.type().WithDims({}), std::vector<uint8_t>(one.raw().begin(), one.raw().end()));
}

// Evaluates `code` on `operands` with a result of `result_type`.
inline StatusOr<Literal> Eval(OpCode code, const std::vector<Literal>& operands, const Type& result_type,
                              std::vector<ir::NamedAttribute> attributes = {}) {
  auto op = ir::Operation::Create(code, {}, {result_type}, std::move(attributes));
  InterpValues values;
  for (const Literal& l : operands) values.push_back(InterpValue::Tensor(l));
  VKHLO_ASSIGN_OR_RETURN(InterpValues results, EvaluateOp(*op, values));
  if (results.size() != 1 || !results[0].is_tensor()) return InternalError("expected one tensor result");
  return results[0].literal();
}

// The same, with the result type of the first operand.
inline Literal EvalSame(OpCode code, const std::vector<Literal>& operands) {
  auto result = Eval(code, operands, operands[0].type());
  EXPECT_TRUE(result.ok()) << result.status().message();
  return result.ok() ? *result : Literal();
}

inline std::vector<uint64_t> AllBits(const Literal& l) {
  std::vector<uint64_t> out;
  for (int64_t i = 0; i < l.num_elements(); ++i) out.push_back(l.GetBits(i));
  return out;
}

inline std::vector<int64_t> AllInts(const Literal& l) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < l.num_elements(); ++i) out.push_back(l.GetInt(i));
  return out;
}

inline std::vector<double> AllFloats(const Literal& l) {
  std::vector<double> out;
  for (int64_t i = 0; i < l.num_elements(); ++i) out.push_back(l.GetFloat(i));
  return out;
}

inline ir::NamedAttribute Enum(const char* name, const char* kind, const char* value) {
  return {name, ir::Attribute::Enum("stablehlo", kind, value)};
}

}  // namespace vkhlo::interp::testing
