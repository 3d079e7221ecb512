// Runs a compiled plan (.vkx, from `vkhlo-compile program.mlir -o program.vkx` or
// Executable::Serialize) on the Vulkan device, linking only the runtime (vkhlo::runtime: no
// compiler, parser, passes, glslang or SPIRV-Tools inside):
//
//   vkhlo-compile examples/axpy.mlir -o axpy.vkx
//   vkhlo-example-run-plan axpy.vkx 3 1,2,3,4 10,20,30,40
//
// Each argument after the file is one parameter of @main (command_line_arguments.h). Prints each
// result as a Literal. A damaged file or a device lacking what the plan needs is a clear error.
// Exit status: 0 on success, 1 on an error.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "command_line_arguments.h"
#include "vkhlo/vkhlo.h"

namespace {

int Fail(const vkhlo::Status& status) {
  std::fprintf(stderr, "run_plan: %s\n", status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE.vkx [ARGUMENT...]\n", argv[0]);
    return 1;
  }
  std::ifstream file(argv[1], std::ios::binary);
  if (!file) return Fail(vkhlo::NotFoundError(std::string("cannot read ") + argv[1]));
  const std::vector<uint8_t> plan((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());

  auto client = vkhlo::Client::Create();
  if (!client.ok()) return Fail(client.status());
  auto executable = (*client)->LoadExecutable(plan);
  if (!executable.ok()) return Fail(executable.status());
  const vkhlo::Status ran = examples::RunAndPrint(**client, *executable, std::vector<std::string>(argv + 2, argv + argc));
  if (!ran.ok()) return Fail(ran);
  return 0;
}
