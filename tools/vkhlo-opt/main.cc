// vkhlo-opt: parse a StableHLO program, verify it, run passes, print it back (generic form).
//   vkhlo-opt FILE [--split-input-file] [--verify-only] [--pass=a,b,...|default] [--dump-after-all]
//             [--list-passes] [--argument-types='tensor<4x8xf32>, tensor<i64>'] [--argument-values=1=4]
//
// --argument-types refines the arguments of @main (or --entry) of a shape-polymorphic program
// before the passes (passes/shapes/refine.h, step 1: types, and the values of the shape
// arguments that --argument-values gives as INDEX=VALUE,...); `--pass=refine-shapes` then makes
// it static.
// Exit code 0 only when every module parsed, verified and went through the passes.
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdio>

#include "frontend/parser.h"
#include "ir/printer.h"
#include "passes/pass_registry.h"
#include "passes/pipeline.h"
#include "passes/shapes/refine.h"
#include "tools/common/source_file.h"
#include "verify/verifier.h"

namespace {

// "tensor<4x8xf32>, tensor<i64>" and "1=4,2=8" into refinement inputs.
vkhlo::StatusOr<vkhlo::passes::shapes::RefinementInputs> ArgumentsFrom(std::string_view types, std::string_view values) {
  using namespace vkhlo;
  passes::shapes::RefinementInputs inputs;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= types.size(); ++i) {
    const char c = i < types.size() ? types[i] : ',';
    depth += c == '<' ? 1 : c == '>' ? -1 : 0;
    if (c != ',' || depth != 0) continue;
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, frontend::ParseType(types.substr(start, i - start)));
    inputs.argument_types.push_back(std::move(type));
    start = i + 1;
  }
  while (!values.empty()) {
    const size_t comma = values.find(',');
    const std::string_view item = values.substr(0, comma);
    const size_t equal = item.find('=');
    int64_t index = 0, value = 0;
    if (equal == std::string_view::npos ||
        std::from_chars(item.data(), item.data() + equal, index).ptr != item.data() + equal ||
        std::from_chars(item.data() + equal + 1, item.data() + item.size(), value).ptr != item.data() + item.size()) {
      return InvalidArgumentError("--argument-values: expected INDEX=VALUE,..., found '" + std::string(item) + "'");
    }
    inputs.argument_values[index] = value;
    values = comma == std::string_view::npos ? std::string_view() : values.substr(comma + 1);
  }
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"vkhlo-opt: parse, verify, transform and print StableHLO programs"};
  std::string path;
  std::string spec;
  bool split = false, verify_only = false, dump_after_all = false, list_passes = false;
  app.add_option("file", path, "the .mlir program ('-' for standard input)");
  app.add_flag("--split-input-file", split, "treat '// -----' lines as separators between modules");
  app.add_flag("--verify-only", verify_only, "print nothing when the program is valid");
  app.add_option("--pass", spec,
                 "passes to run, in order, comma-separated (see --list-passes); 'default' is the "
                 "pipeline the runtime runs before fusion");
  app.add_flag("--dump-after-all", dump_after_all,
               "print the module to standard error after every pass");
  app.add_flag("--list-passes", list_passes, "list the available passes and exit");
  std::string argument_types, argument_values, entry = "main";
  app.add_option("--argument-types", argument_types,
                 "static argument types of a shape-polymorphic program, comma-separated (refined before the passes)");
  app.add_option("--argument-values", argument_values, "values of its shape arguments: INDEX=VALUE,...");
  app.add_option("--entry", entry, "the function --argument-types refers to (default: main)");
  CLI11_PARSE(app, argc, argv);

  using namespace vkhlo;
  if (list_passes) {
    for (const passes::PassInfo& info : passes::RegisteredPasses()) {
      std::printf("%-22s %s\n", std::string(info.name).c_str(), std::string(info.summary).c_str());
    }
    std::printf("default: %s\n", passes::DefaultPipelineSpec().c_str());
    return 0;
  }
  if (path.empty()) {
    std::fprintf(stderr, "vkhlo-opt: a file argument is required (see --help)\n");
    return 1;
  }
  auto pipeline = passes::PassPipeline::Parse(spec == "default" ? passes::DefaultPipelineSpec() : spec);
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
    if (status.ok() && !argument_types.empty()) {
      auto inputs = ArgumentsFrom(argument_types, argument_values);
      status = inputs.ok() ? passes::shapes::RefineArguments(**chunk.module, entry, *inputs) : inputs.status();
    }
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
