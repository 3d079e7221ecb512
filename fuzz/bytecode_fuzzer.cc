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
#include <span>

#include "frontend/bytecode/reader.h"
#include "fuzz/text_round_trip.h"
#include "verify/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vkhlo;
  frontend::bytecode::ReadOptions options;
  options.source_name = "fuzz.mlirbc";
  auto module = frontend::bytecode::ReadPortableArtifact(std::span<const uint8_t>(data, size), options);
  if (module.ok() && verify::VerifyModule(**module).ok()) fuzzing::CheckTextRoundTrip(**module);
  return 0;
}
