// A compiled plan: everything an execution of a StableHLO program needs and nothing of the IR
// (issue 22). The compiler lowers its BlockPrograms to a Plan; the runtime executes Plans; a
// .vkx file holds one (plan_writer.h, plan_reader.h; docs/plan_format.md).
//
//   Plan                      header: format, producer, source hash, signature, requirements
//    |- kernels[]             SPIR-V + pipeline layout facts            (kernel.h)
//    |- profiles[]            what profiles say about a fused kernel    (kernel.h)
//    |- constants[]           bytes uploaded once                       (buffers.h)
//    |- values[]              every value steps read or make, by number (buffers.h)
//    |- lists[]               step lists: the entry, regions, functions, reducers
//    |- checks                a test program's comparisons, if any       (checks.h)
//    |- fft_kernels[]         VkFFT's kernels for the FFT steps, if made (below)
//         |- arguments, results (value numbers), slots (buffer assignment)
//         |- segments[]       command buffers: steps with their barriers (step.h)
//
// Pure data: no Vulkan, no IR, no compiler. Validate() checks every cross reference so that an
// executor may index without checking (ReadPlan calls it on every file it reads).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <optional>

#include "plan/buffers.h"
#include "plan/checks.h"
#include "plan/header.h"
#include "plan/kernel.h"
#include "plan/requirements.h"
#include "plan/step.h"
#include "vkhlo/status.h"

namespace vkhlo::plan {

// Steps recorded into one command buffer, submitted when the segment ends. A host step (step.h
// IsHostStep) is the only step of its segment: what precedes it is submitted and waited for.
struct Segment {
  std::vector<Step> steps;
  bool operator==(const Segment&) const = default;
};

// A block that runs: the entry's body, a region of while/if/case, a called function, or the
// reducer of a collective.
struct StepList {
  enum class Role : uint8_t { kEntry = 0, kRegion = 1, kFunction = 2, kReducer = 3 };
  Role role = Role::kRegion;
  std::string name;                 // "main", "while_3.body", "@helper" (messages, dumps)
  std::vector<uint32_t> arguments;  // values the caller hands in (Placement::kArgument)
  std::vector<uint32_t> results;    // values handed back
  std::vector<Slot> slots;          // allocated when the list starts, freed when it ends
  std::vector<Segment> segments;
  bool operator==(const StepList&) const = default;
};

// VkFFT's kernels for one transform, made ahead of time in the staged form (device/fft/
// fft_staged.h: bindings of the transform's own sizes, for a target VkFFT is shown): what lets
// the runtime-only library, which cannot compile them, run the FFT steps of that descriptor.
// Optional (section "fftk"): without them a plan's FFTs need the full library.
struct FftKernels {
  FftStep::Type type = FftStep::Type::kFft;  // the descriptor, as the FftStep says it
  bool double_precision = false;
  std::vector<uint64_t> lengths;
  uint64_t batch = 1;
  uint32_t vkfft_version = 0;  // VkFFT's version that made them: another one's loader refuses them
  // The target VkFFT planned for: vendor (0: none's tuning) and compute limits.
  uint32_t vendor_id = 0;
  uint32_t max_workgroup_invocations = 0;
  uint32_t max_shared_memory_bytes = 0;
  std::vector<uint32_t> max_workgroup_size;   // 3 entries
  std::vector<uint32_t> max_workgroup_count;  // 3 entries
  std::vector<uint32_t> words;  // as VkFFT saves them: per module, its byte count then its words
  bool operator==(const FftKernels&) const = default;
};

struct Plan {
  PlanHeader header;
  std::vector<Kernel> kernels;
  std::vector<KernelProfile> profiles;
  std::vector<Constant> constants;
  std::vector<Value> values;
  std::vector<StepList> lists;
  uint32_t entry = 0;  // the list of the entry's body
  std::optional<TestChecks> checks;  // a test program compiled with CompileOptions::checks
  std::vector<FftKernels> fft_kernels;
  bool operator==(const Plan&) const = default;
};

// Checks that every index is in range (kernels, profiles, constants, values, lists, slots of
// the step's own list), bindings match their kernels, ranges fit their buffers, host steps
// stand alone in their segments, and no list reaches itself through control flow (so that an
// executor's recursion ends). Errors name the list, segment and step.
Status Validate(const Plan& plan);

}  // namespace vkhlo::plan
