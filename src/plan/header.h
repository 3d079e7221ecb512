// The facts at the head of a plan (and of a .vkx file, readable without the rest): which
// format and compiler made it, from which program, what the entry takes and returns, and what
// it needs of a device. A tool such as vkhlo-info shows these; a loader checks them first.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "plan/requirements.h"
#include "vkhlo/runtime.h"  // TensorType

namespace vkhlo::plan {

// The plan format's version (docs/plan_format.md "Versioning"): a reader reads every minor
// version of its major version (unknown optional sections skipped) and refuses other majors.
inline constexpr uint16_t kFormatMajor = 1;
inline constexpr uint16_t kFormatMinor = 1;  // 1.1: the optional FFT kernels section ("fftk")

// A parameter or result of the entry: a tensor, a token (takes no argument, returns nothing),
// or a tuple of them (results only: how the flattened result buffers nest).
struct EntryType {
  enum class Kind : uint8_t { kTensor = 0, kToken = 1, kTuple = 2 };
  Kind kind = Kind::kTensor;
  TensorType tensor;                // kTensor
  std::vector<EntryType> elements;  // kTuple
  bool operator==(const EntryType&) const = default;
};

struct PlanHeader {
  uint16_t format_major = kFormatMajor;
  uint16_t format_minor = kFormatMinor;
  std::string producer;  // "vkhlo 0.1.0"
  // SHA-256 of the program text (or bytecode) the plan was compiled from (support/sha256.h).
  std::array<uint8_t, 32> source_sha256{};
  std::string entry_name = "main";
  std::vector<EntryType> parameters;  // in order, tokens included
  std::vector<EntryType> results;
  DeviceRequirements requirements;
  bool operator==(const PlanHeader&) const = default;
};

}  // namespace vkhlo::plan
