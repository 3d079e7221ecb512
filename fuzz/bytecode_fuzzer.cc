// libFuzzer target for the bytecode reader (src/frontend/bytecode).
//
// Properties checked on every input:
//   - ReadPortableArtifact returns (a module or an error) without crashing, hanging, leaking or
//     invoking undefined behaviour (ASan/UBSan watch), and without memory out of proportion to
//     the input (-rss_limit_mb);
//   - the verifier runs on a module it returns without crashing; a module that verifies prints
//     (ir::PrintModule) to text that vkhlo's text parser reads, and that prints the same again:
//     the reader builds only IR the text frontend can express. (Unverified IR may hold what
//     text cannot spell, such as a value used before it is defined: the verifier rejects it.)
// Build and run with fuzz/run_bytecode_fuzzer.sh.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "frontend/bytecode/reader.h"
#include "frontend/parser.h"
#include "ir/printer.h"
#include "verify/verifier.h"

namespace {

[[noreturn]] void Fail(const char* what, const std::string& text, const std::string& detail) {
  std::fprintf(stderr, "%s\n  text: %s\n  %s\n", what, text.c_str(), detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vkhlo;
  frontend::bytecode::ReadOptions options;
  options.source_name = "fuzz.mlirbc";
  auto module = frontend::bytecode::ReadPortableArtifact(std::span<const uint8_t>(data, size), options);
  if (!module.ok() || !verify::VerifyModule(**module).ok()) return 0;
  const std::string printed = ir::PrintModule(**module);
  auto again = frontend::ParseModule(printed);
  if (!again.ok()) Fail("the module read from bytecode prints to text that does not parse", printed, again.status().message());
  const std::string reprinted = ir::PrintModule(**again);
  if (reprinted != printed) Fail("print -> parse -> print is not a fixpoint", printed, reprinted);
  return 0;
}
