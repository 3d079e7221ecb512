// libFuzzer target for the .vkx plan reader (src/plan/plan_reader.h).
//
// Properties checked on every input:
//   - ReadPlanHeader and ReadPlan return (a value or an error) without crashing, hanging,
//     leaking or invoking undefined behaviour (ASan/UBSan watch), and without allocating
//     beyond what the input's size justifies (-rss_limit_mb, -malloc_limit_mb);
//   - the same with both CRC-32s recomputed (ResealPlan), so that mutations reach the record
//     parsers and Validate instead of stopping at the checksum;
//   - a plan that reads is valid, writes, and reads back equal; writing is deterministic;
//   - when both the header alone and the whole plan read, they agree.
// Build and run with fuzz/run_plan_fuzzer.sh (seeds from fuzz/plan_seeds.cc).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "plan/plan_reader.h"
#include "plan/plan_writer.h"

namespace {

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "%s\n  %s\n", what, detail.c_str());
  std::abort();
}

void Check(std::span<const uint8_t> bytes) {
  using namespace vkhlo::plan;
  auto header = ReadPlanHeader(bytes);
  auto plan = ReadPlan(bytes);
  if (!plan.ok()) return;
  if (!header.ok()) Fail("the plan reads but its header does not", header.status().ToString());
  if (!(*header == plan->header)) Fail("the header read alone differs from the plan's", plan->header.entry_name);
  if (vkhlo::Status valid = Validate(*plan); !valid.ok()) Fail("ReadPlan returned an invalid plan", valid.ToString());
  const std::vector<uint8_t> written = WritePlan(*plan);
  auto again = ReadPlan(written);
  if (!again.ok()) Fail("a plan that was read does not read back once written", again.status().ToString());
  if (!(*again == *plan)) Fail("write -> read changed the plan", plan->header.entry_name);
  if (WritePlan(*again) != written) Fail("writing the same plan twice gave different bytes", "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  Check(input);
  std::vector<uint8_t> resealed(input.begin(), input.end());
  vkhlo::plan::ResealPlan(resealed);
  Check(resealed);
  return 0;
}
