// A parameter's elements from the command line, comma-separated in row-major order (the count
// must match the parameter's shape): the examples that run a file (run_file.cc, run_plan.cc).
// Parameters of f32, f64, i32, i64 and ui32 element types can be given this way.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "vkhlo/vkhlo.h"

namespace examples {

template <typename T>
vkhlo::StatusOr<vkhlo::Literal> ParseValues(const std::string& text, const std::vector<int64_t>& dims) {
  std::vector<T> values;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) {
    char* end = nullptr;
    const double value = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0') return vkhlo::InvalidArgumentError("'" + item + "' is not a number");
    values.push_back(static_cast<T>(value));
  }
  vkhlo::Literal literal = vkhlo::LiteralUtil::CreateFromVector(values, dims);
  if (!literal.shape().IsArray()) {
    return vkhlo::InvalidArgumentError("'" + text + "' does not have the element count of the parameter");
  }
  return literal;
}

vkhlo::StatusOr<vkhlo::Literal> ParseArgument(const std::string& text, const vkhlo::TensorType& type) {
  if (type.element_type == "f32") return ParseValues<float>(text, type.dims);
  if (type.element_type == "f64") return ParseValues<double>(text, type.dims);
  if (type.element_type == "i32") return ParseValues<int32_t>(text, type.dims);
  if (type.element_type == "i64") return ParseValues<int64_t>(text, type.dims);
  if (type.element_type == "ui32") return ParseValues<uint32_t>(text, type.dims);
  return vkhlo::InvalidArgumentError("this example reads no " + type.ToString() + " parameter from the command line");
}

// Runs `executable` on `arguments` (one per parameter, as above) and prints each result as a
// Literal.
inline vkhlo::Status RunAndPrint(const vkhlo::Client& client, const vkhlo::Executable& executable,
                                 const std::vector<std::string>& arguments) {
  const std::vector<vkhlo::TensorType> parameters = executable.parameter_types();
  if (arguments.size() != parameters.size()) {
    return vkhlo::InvalidArgumentError("@main takes " + std::to_string(parameters.size()) + " arguments, given " +
                                       std::to_string(arguments.size()));
  }
  std::vector<vkhlo::Buffer> buffers;
  for (size_t i = 0; i < parameters.size(); ++i) {
    auto literal = ParseArgument(arguments[i], parameters[i]);
    if (!literal.ok()) return literal.status().WithContext("argument " + std::to_string(i));
    auto buffer = client.TransferToDevice(*literal);
    if (!buffer.ok()) return buffer.status();
    buffers.push_back(*buffer);
  }
  auto results = executable.Execute(buffers);
  if (!results.ok()) return results.status();
  for (const vkhlo::Buffer& result : *results) {
    auto literal = result.ToLiteral();
    if (!literal.ok()) return literal.status();
    std::printf("%s\n", literal->ToString().c_str());
  }
  return vkhlo::OkStatus();
}

}  // namespace examples
