// Runs a StableHLO program from a file on the Vulkan device: text, or a portable artifact
// (MLIR bytecode, e.g. jax.export's mlir_module_serialized written to a file):
//
//   vkhlo-example-run-file examples/axpy.mlir 3 1,2,3,4 10,20,30,40
//   vkhlo-example-run-file model.mlirbc 1,2,3,4
//
// Each argument after the file is one parameter of @main (command_line_arguments.h). Prints each
// result as a Literal. Errors in the program are reported with their line and column (text) or
// byte offset (artifact). Exit status: 0 on success, 1 on an error, 3 when the device cannot run
// one of the program's ops yet.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "command_line_arguments.h"
#include "vkhlo/vkhlo.h"

namespace {

int Fail(const vkhlo::Status& status) {
  std::fprintf(stderr, "run_file: %s\n", status.ToString().c_str());
  return status.code() == vkhlo::StatusCode::kUnimplemented ? 3 : 1;
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

  const vkhlo::Status ran = examples::RunAndPrint(**client, *executable, std::vector<std::string>(argv + 2, argv + argc));
  if (!ran.ok()) return Fail(ran);
  return 0;
}
