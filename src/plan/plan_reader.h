// Reads a .vkx file (docs/plan_format.md) with bounds checks everywhere: a truncated,
// corrupted or hostile file is a DATA_LOSS error naming what was being read and the byte
// offset (or FAILED_PRECONDITION for a format version this reader does not read), never a
// crash or an allocation the file's size does not justify. What it returns has passed
// Validate(), so an executor may index it without checking.
#pragma once

#include <cstdint>
#include <span>

#include "plan/plan.h"
#include "vkhlo/status.h"

namespace vkhlo::plan {

// The header alone (the fixed prefix and the header record, checked by the header's CRC):
// what a tool shows and a loader checks before reading the rest. `bytes` may be the whole
// file or only its beginning (at least the prefix and the header).
StatusOr<PlanHeader> ReadPlanHeader(std::span<const uint8_t> bytes);

// The whole plan; `bytes` must be exactly the file.
StatusOr<Plan> ReadPlan(std::span<const uint8_t> bytes);

}  // namespace vkhlo::plan
