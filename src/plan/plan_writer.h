// Writes a plan as a .vkx file (docs/plan_format.md): little-endian, the fixed prefix
// (plan/format.h), the header, then one section per table, with CRC-32s over both parts.
// The bytes depend only on the plan (no time stamps, no addresses): compiling a program twice
// gives the same file, and WritePlan(ReadPlan(f)) == f.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "plan/plan.h"

namespace vkhlo::plan {

// The header's versions are written as the plan holds them (kFormatMajor/kFormatMinor unless a
// test sets others).
std::vector<uint8_t> WritePlan(const Plan& plan);

}  // namespace vkhlo::plan

namespace vkhlo::plan {

// Recomputes both CRC-32s of a .vkx file in place from the lengths its prefix gives (nothing
// when the file is shorter than they say): for tests and fuzzers that change a field on
// purpose and want the reader to see the change rather than a checksum error.
void ResealPlan(std::span<uint8_t> file);

}  // namespace vkhlo::plan
