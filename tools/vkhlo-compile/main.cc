// vkhlo-compile: compiles a StableHLO program (text or a portable artifact) for a device — the
// one present, or a weaker one through a capability profile — and writes the compiled plan as
// a .vkx file (docs/plan_format.md): the kernels as SPIR-V, the schedule, the constants and what
// the device must offer. `--describe FILE.vkx` shows a plan's header and whether the device
// present meets its requirements.
//
//   vkhlo-compile model.mlir -o model.vkx                  # for the device present
//   vkhlo-compile model.mlirbc -o model.vkx --profile=mobile
//   vkhlo-compile --describe model.vkx
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "frontend/bytecode/program.h"
#include "plan/describe.h"
#include "plan/plan_reader.h"
#include "plan/requirements.h"
#include "runtime/device_offer.h"
#include "runtime/state.h"
#include "tools/common/source_file.h"
#include "vkhlo/runtime.h"

namespace {

using namespace vkhlo;

int Fail(const Status& status) {
  std::fprintf(stderr, "vkhlo-compile: %s\n", status.ToString().c_str());
  return 1;
}

StatusOr<std::vector<uint8_t>> ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return NotFoundError("cannot read " + path);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

// The header of `path` and whether the device a client opens here (VKHLO_DEVICE,
// VKHLO_PROFILE) meets its requirements.
int Describe(const std::string& path) {
  auto bytes = ReadBytes(path);
  if (!bytes.ok()) return Fail(bytes.status());
  auto header = plan::ReadPlanHeader(*bytes);
  if (!header.ok()) return Fail(header.status().WithContext(path));
  std::printf("%s", plan::DescribeHeader(*header).c_str());
  auto client = Client::Create();
  if (!client.ok()) return Fail(client.status());
  const Status meets = plan::CheckRequirements(
      header->requirements, runtime::DeviceOfferOf((*client)->state()->device->capabilities()));
  std::printf("this device, %s: %s\n", (*client)->device_description().c_str(),
              meets.ok() ? "meets its requirements" : meets.message().c_str());
  return meets.ok() ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"vkhlo-compile: a StableHLO program compiled into a plan file (.vkx)"};
  std::string input, output, entry = "main", profile, device_name, describe;
  app.add_option("program", input, "the program: StableHLO text or a portable artifact (.mlirbc)");
  app.add_option("-o,--output", output, "the .vkx file to write");
  app.add_option("--entry", entry, "the function to compile")->capture_default_str();
  app.add_option("--profile", profile, "the capability profile to compile for: native or mobile (default: VKHLO_PROFILE, else native)");
  app.add_option("--device", device_name, "the Vulkan device (index or name substring; default: VKHLO_DEVICE, else the best)");
  app.add_option("--describe", describe, "show a .vkx file's header and whether this device meets its requirements");
  CLI11_PARSE(app, argc, argv);

  if (!describe.empty()) return Describe(describe);
  if (input.empty() || output.empty()) {
    std::fprintf(stderr, "vkhlo-compile: give a program and -o FILE.vkx (or --describe FILE.vkx)\n");
    return 1;
  }
  auto source = tools::ReadSourceFile(input);
  if (!source.ok()) return Fail(source.status());
  if (frontend::IsCompiledPlan(*source)) {  // the parser's message, naming the file
    frontend::ParseOptions parse;
    parse.source_name = input;
    return Fail(frontend::ParseProgram(*source, parse).status());
  }
  ClientOptions options;
  if (!profile.empty()) options.profile = profile;
  if (!device_name.empty()) options.device = device_name;
  auto client = Client::Create(options);
  if (!client.ok()) return Fail(client.status());
  auto executable = (*client)->Compile(*source, {.entry = entry});
  if (!executable.ok()) return Fail(executable.status());
  auto plan = executable->Serialize();
  if (!plan.ok()) return Fail(plan.status());
  std::ofstream out(output, std::ios::binary);
  out.write(reinterpret_cast<const char*>(plan->data()), static_cast<std::streamsize>(plan->size()));
  if (!out.flush()) return Fail(InternalError("cannot write " + output));
  const uint64_t kernels = executable->compile_stats().kernels;
  std::printf("%s: %zu bytes, %llu kernel%s, for %s\n", output.c_str(), plan->size(),
              static_cast<unsigned long long>(kernels), kernels == 1 ? "" : "s", (*client)->device_description().c_str());
  return 0;
}
