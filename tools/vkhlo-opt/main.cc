// vkhlo-opt: parse a StableHLO program, verify it, run passes, print it back (generic form).
//   vkhlo-opt FILE [--split-input-file] [--verify-only] [--pass=a,b,...] [--dump-after-all]
//             [--list-passes]
// Exit code 0 only when every module parsed, verified and went through the passes.
#include <CLI/CLI.hpp>

#include <cstdio>

#include "ir/printer.h"
#include "passes/pass_registry.h"
#include "passes/pipeline.h"
#include "tools/common/source_file.h"
#include "verify/verifier.h"

int main(int argc, char** argv) {
  CLI::App app{"vkhlo-opt: parse, verify, transform and print StableHLO programs"};
  std::string path;
  std::string spec;
  bool split = false, verify_only = false, dump_after_all = false, list_passes = false;
  app.add_option("file", path, "the .mlir program ('-' for standard input)");
  app.add_flag("--split-input-file", split, "treat '// -----' lines as separators between modules");
  app.add_flag("--verify-only", verify_only, "print nothing when the program is valid");
  app.add_option("--pass", spec, "passes to run, in order, comma-separated (see --list-passes)");
  app.add_flag("--dump-after-all", dump_after_all,
               "print the module to standard error after every pass");
  app.add_flag("--list-passes", list_passes, "list the available passes and exit");
  CLI11_PARSE(app, argc, argv);

  using namespace vkhlo;
  if (list_passes) {
    for (const passes::PassInfo& info : passes::RegisteredPasses()) {
      std::printf("%-22s %s\n", std::string(info.name).c_str(), std::string(info.summary).c_str());
    }
    return 0;
  }
  if (path.empty()) {
    std::fprintf(stderr, "vkhlo-opt: a file argument is required (see --help)\n");
    return 1;
  }
  auto pipeline = passes::PassPipeline::Parse(spec);
  if (!pipeline.ok()) {
    std::fprintf(stderr, "vkhlo-opt: %s\n", pipeline.status().message().c_str());
    return 1;
  }
  passes::PipelineOptions options;
  if (dump_after_all) {
    options.after_pass = [](std::string_view pass, bool changed, const ir::Module& module) {
      std::fprintf(stderr, "// ----- IR after %.*s%s -----\n%s", static_cast<int>(pass.size()),
                   pass.data(), changed ? "" : " (unchanged)", ir::PrintModule(module).c_str());
    };
  }

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
    if (status.ok() && pipeline->size() > 0) status = pipeline->Run(**chunk.module, options).status();
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
