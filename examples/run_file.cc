// Runs a StableHLO program from a file on the Vulkan device: text, or a portable artifact
// (MLIR bytecode, e.g. jax.export's mlir_module_serialized written to a file):
//
//   vkhlo-example-run-file examples/axpy.mlir 3 1,2,3,4 10,20,30,40
//   vkhlo-example-run-file model.mlirbc 1,2,3,4
//
// Each argument after the file is one parameter of @main, its elements comma-separated in
// row-major order (the count must match the parameter's shape). Parameters of f32, f64, i32,
// i64 and ui32 element types can be given this way. Prints each result as a Literal. Errors in
// the program are reported with their line and column (text) or byte offset (artifact). Exit status: 0 on success, 1 on an
// error, 3 when the device cannot run one of the program's ops yet.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "vkhlo/vkhlo.h"

namespace {

int Fail(const vkhlo::Status& status) {
  std::fprintf(stderr, "run_file: %s\n", status.ToString().c_str());
  return status.code() == vkhlo::StatusCode::kUnimplemented ? 3 : 1;
}

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

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE.mlir|FILE.mlirbc [ARGUMENT...]\n", argv[0]);
    return 1;
  }
  std::ifstream file(argv[1], std::ios::binary);
  if (!file) return Fail(vkhlo::NotFoundError(std::string("cannot read ") + argv[1]));
  std::stringstream text;
  text << file.rdbuf();

  auto client = vkhlo::Client::Create();
  if (!client.ok()) return Fail(client.status());
  auto executable = (*client)->Compile(text.str(), {});  // text or a portable artifact
  if (!executable.ok()) return Fail(executable.status());

  const std::vector<vkhlo::TensorType> parameters = executable->parameter_types();
  if (static_cast<size_t>(argc - 2) != parameters.size()) {
    return Fail(vkhlo::InvalidArgumentError("@main takes " + std::to_string(parameters.size()) + " arguments, given " +
                                            std::to_string(argc - 2)));
  }
  std::vector<vkhlo::Buffer> buffers;
  for (size_t i = 0; i < parameters.size(); ++i) {
    auto literal = ParseArgument(argv[i + 2], parameters[i]);
    if (!literal.ok()) return Fail(literal.status().WithContext("argument " + std::to_string(i)));
    auto buffer = (*client)->TransferToDevice(*literal);
    if (!buffer.ok()) return Fail(buffer.status());
    buffers.push_back(*buffer);
  }
  std::vector<const vkhlo::Buffer*> arguments;
  for (const vkhlo::Buffer& buffer : buffers) arguments.push_back(&buffer);
  auto results = executable->Execute(arguments);
  if (!results.ok()) return Fail(results.status());
  for (const vkhlo::Buffer& result : *results) {
    auto literal = result.ToLiteral();
    if (!literal.ok()) return Fail(literal.status());
    std::printf("%s\n", literal->ToString().c_str());
  }
  return 0;
}
