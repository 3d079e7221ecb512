// vkhlo-run: run a StableHLO program.
//   vkhlo-run FILE [--device=vulkan|reference] [--check] [--split-input-file] [--entry=NAME]
//             [--input=...]... [--output-dir=DIR] [--stats] [--dump-kernels=DIR]
//
// --check runs every test function (see check_runner.h) and ends with "N passed, M failed";
// the exit code is 0 only when nothing failed. Without --check it runs --entry (default main)
// on the inputs and prints the results (or writes them as .npy files to --output-dir).
//
// Devices: `reference` is the interpreter (the oracle). `vulkan` is the GPU path, which arrives
// with the codegen/runtime issue; until then asking for it is an error, never a silent switch.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "tools/common/npy.h"
#include "tools/common/source_file.h"
#include "tools/vkhlo-run/check_runner.h"
#include "verify/verifier.h"

namespace vkhlo::tools {
namespace {

StatusOr<interp::InterpValue> ReadInput(const std::string& spec) {
  if (spec.size() > 4 && spec.substr(spec.size() - 4) == ".npy") {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ReadNpy(spec));
    return interp::InterpValue::Tensor(std::move(literal));
  }
  auto attribute = frontend::ParseAttribute(spec);
  if (!attribute.ok()) return attribute.status().WithContext("--input='" + spec + "'");
  const ir::Literal* literal = attribute->AsDenseElements();
  if (literal == nullptr) {
    return InvalidArgumentError("--input='" + spec + "' is neither a .npy file nor a dense<...> : tensor<...> literal");
  }
  return interp::InterpValue::Tensor(*literal);
}

int RunEntry(ir::Module& module, const std::string& entry, const std::vector<std::string>& input_specs,
             const std::string& output_dir) {
  if (Status prepared = PrepareForReference(module); !prepared.ok()) {
    std::fprintf(stderr, "vkhlo-run: %s\n", prepared.message().c_str());
    return 1;
  }
  interp::InterpValues inputs;
  for (const std::string& spec : input_specs) {
    auto value = ReadInput(spec);
    if (!value.ok()) {
      std::fprintf(stderr, "vkhlo-run: %s\n", value.status().message().c_str());
      return 1;
    }
    inputs.push_back(*value);
  }
  auto result = interp::RunFunction(module, entry, std::move(inputs));
  if (!result.ok()) {
    std::fprintf(stderr, "vkhlo-run: %s\n", result.status().message().c_str());
    return 1;
  }
  for (size_t i = 0; i < result->outputs.size(); ++i) {
    const interp::InterpValue& v = result->outputs[i];
    if (!output_dir.empty() && v.is_tensor()) {
      std::error_code ec;
      std::filesystem::create_directories(output_dir, ec);
      std::string path = fmt::format("{}/result_{}.npy", output_dir, i);
      Status s = WriteNpy(path, v.literal());
      if (!s.ok()) {
        std::fprintf(stderr, "vkhlo-run: %s\n", s.message().c_str());
        return 1;
      }
      std::printf("%s\n", path.c_str());
    } else {
      std::printf("%s\n", v.ToString().c_str());
    }
  }
  return 0;
}

}  // namespace
}  // namespace vkhlo::tools

int main(int argc, char** argv) {
  CLI::App app{"vkhlo-run: run StableHLO programs"};
  std::string path, device = "reference", entry = "main", output_dir, dump_kernels;
  std::vector<std::string> inputs;
  bool check = false, split = false, stats = false;
  app.add_option("file", path, "the .mlir program ('-' for standard input)")->required();
  app.add_option("--device", device, "reference (the interpreter) or vulkan")
      ->check(CLI::IsMember({"vulkan", "reference"}));
  app.add_flag("--check", check, "run every test function and evaluate check.* ops");
  app.add_flag("--split-input-file", split, "treat '// -----' lines as separators between modules");
  app.add_option("--entry", entry, "the function to run (default: main)");
  app.add_option("--input", inputs, "an input: a .npy file or a literal such as 'dense<[1, 2]> : tensor<2xi32>'");
  app.add_option("--output-dir", output_dir, "write results there as .npy files");
  app.add_flag("--stats", stats, "print kernels dispatched, bytes moved, host-evaluated ops");
  app.add_option("--dump-kernels", dump_kernels, "write each kernel's GLSL and SPIR-V there");
  CLI11_PARSE(app, argc, argv);

  using namespace vkhlo;
  struct {
    int passed = 0, failed = 0;
  } tally;
  if (device == "vulkan") {
    std::fprintf(stderr,
                 "vkhlo-run: the Vulkan execution path is not built yet (it arrives with the codegen and "
                 "runtime issue); run with --device=reference for the interpreter\n");
    return 2;
  }
  auto text = tools::ReadSourceFile(path);
  if (!text.ok()) {
    std::fprintf(stderr, "vkhlo-run: %s\n", text.status().message().c_str());
    return 1;
  }
  const std::string source_name = path == "-" ? "<stdin>" : path;
  std::vector<tools::ParsedChunk> chunks = tools::ParseSource(*text, source_name, split);

  if (check) {
    for (tools::ParsedChunk& chunk : chunks) {
      Status status = chunk.module.status();
      if (status.ok()) status = verify::VerifyModule(**chunk.module);
      const std::string label = split ? fmt::format("{}:{}", source_name, chunk.first_line) : source_name;
      if (!status.ok()) {
        std::printf("FAIL %s: %s\n", label.c_str(), status.message().c_str());
        ++tally.failed;
        continue;
      }
      for (const tools::TestOutcome& test : tools::RunTestFunctions(**chunk.module)) {
        if (test.passed) {
          std::printf("PASS %s@%s\n", label.c_str(), test.name.c_str());
          ++tally.passed;
        } else {
          std::printf("FAIL %s@%s: %s\n", label.c_str(), test.name.c_str(), test.message.c_str());
          ++tally.failed;
        }
      }
    }
    if (stats) std::printf("device: reference interpreter (no kernels, nothing moved)\n");
    std::printf("%d passed, %d failed\n", tally.passed, tally.failed);
    return tally.failed == 0 ? 0 : 1;
  }

  int status_code = 0;
  for (tools::ParsedChunk& chunk : chunks) {
    Status status = chunk.module.status();
    if (status.ok()) status = verify::VerifyModule(**chunk.module);
    if (!status.ok()) {
      std::fprintf(stderr, "%s\n", status.message().c_str());
      status_code = 1;
      continue;
    }
    if (tools::RunEntry(**chunk.module, entry, inputs, output_dir) != 0) status_code = 1;
  }
  if (stats) std::printf("device: reference interpreter (no kernels, nothing moved)\n");
  return status_code;
}
