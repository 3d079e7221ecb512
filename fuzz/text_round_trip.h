// The property both fuzzers check on a module they obtained: it prints (ir::PrintModule) to
// text that vkhlo's text parser reads, and that prints the same again. A failure aborts, with
// the texts, so libFuzzer keeps the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "frontend/parser.h"
#include "ir/printer.h"

namespace vkhlo::fuzzing {

[[noreturn]] inline void Fail(const char* what, const std::string& text, const std::string& detail) {
  std::fprintf(stderr, "%s\n  text: %s\n  %s\n", what, text.c_str(), detail.c_str());
  std::abort();
}

inline void CheckTextRoundTrip(const ir::Module& module, const frontend::ParseOptions& options = {}) {
  const std::string printed = ir::PrintModule(module);
  auto again = frontend::ParseModule(printed, options);
  if (!again.ok()) Fail("the printed module does not parse", printed, again.status().message());
  const std::string reprinted = ir::PrintModule(**again);
  if (reprinted != printed) Fail("print -> parse -> print is not a fixpoint", printed, reprinted);
}

}  // namespace vkhlo::fuzzing
