// libFuzzer target for the StableHLO text frontend.
//
// Properties checked on every input:
//   - ParseModule, ParseType and ParseAttribute return (a value or an error) without crashing,
//     hanging, leaking or invoking undefined behaviour (ASan/UBSan watch);
//   - an attribute that parses prints (Attribute::ToString) to text that parses back to an
//     equal attribute; the same for types;
//   - a module that parses prints (ir::PrintModule) to text that parses, and prints the same
//     again (print -> parse -> print is a fixpoint).
// Build and run with fuzz/run_parser_fuzzer.sh.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "frontend/parser.h"
#include "fuzz/text_round_trip.h"

using vkhlo::fuzzing::Fail;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace vkhlo::frontend;

  ParseOptions options;
  options.source_name = "fuzz.mlir";
  if (auto module = ParseModule(text, options); module.ok()) vkhlo::fuzzing::CheckTextRoundTrip(**module, options);

  if (auto type = ParseType(text); type.ok()) {
    const std::string printed = type->ToString();
    auto again = ParseType(printed);
    if (!again.ok()) Fail("printed type does not parse", printed, again.status().message());
    if (*again != *type) Fail("printed type reads back different", printed, again->ToString());
  }

  if (auto attribute = ParseAttribute(text); attribute.ok()) {
    const std::string printed = attribute->ToString();
    auto again = ParseAttribute(printed);
    if (!again.ok()) Fail("printed attribute does not parse", printed, again.status().message());
    if (*again != *attribute) Fail("printed attribute reads back different", printed, again->ToString());
  }
  return 0;
}
