// vkhlo-opt: parse a StableHLO program, verify it, print it back (MLIR generic form).
//   vkhlo-opt FILE [--split-input-file] [--verify-only]
// Exit code 0 only when every module parsed and verified.
#include <CLI/CLI.hpp>

#include <cstdio>

#include "ir/printer.h"
#include "tools/common/source_file.h"
#include "verify/verifier.h"

int main(int argc, char** argv) {
  CLI::App app{"vkhlo-opt: parse, verify and print StableHLO programs"};
  std::string path;
  bool split = false, verify_only = false;
  app.add_option("file", path, "the .mlir program ('-' for standard input)")->required();
  app.add_flag("--split-input-file", split, "treat '// -----' lines as separators between modules");
  app.add_flag("--verify-only", verify_only, "print nothing when the program is valid");
  CLI11_PARSE(app, argc, argv);

  using namespace vkhlo;
  auto text = tools::ReadSourceFile(path);
  if (!text.ok()) {
    std::fprintf(stderr, "vkhlo-opt: %s\n", text.status().message().c_str());
    return 1;
  }
  int errors = 0;
  bool first = true;
  for (tools::ParsedChunk& chunk : tools::ParseSource(*text, path == "-" ? "<stdin>" : path, split)) {
    Status status = chunk.module.status();
    if (status.ok()) status = verify::VerifyModule(**chunk.module);
    if (!status.ok()) {
      std::fprintf(stderr, "%s\n", status.message().c_str());
      ++errors;
      continue;
    }
    if (verify_only) continue;
    if (!first) std::printf("// -----\n");
    first = false;
    std::fputs(ir::PrintModule(**chunk.module).c_str(), stdout);
  }
  return errors == 0 ? 0 : 1;
}
