// The memory of a plan: constants (bytes in the file, uploaded once when it is loaded), the
// values its steps produce and consume, and buffer slots (the buffer assignment: device memory
// an execution allocates for a step list and that several values share in turn).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkhlo/runtime.h"  // TensorType

namespace vkhlo::plan {

// A tensor known when the program was compiled (a stablehlo.constant too big to inline, or a
// device kernel's table such as per-channel quantization scales), kept in the file so that
// loading needs no parser.
struct Constant {
  TensorType type;            // for a kernel's table: "ui32" of its words
  std::vector<uint8_t> bytes; // storage bytes as the kernels read them, whole words
  bool operator==(const Constant&) const = default;
};

// Device memory a step list allocates when it starts and frees when it ends (today's
// BlockProgram::slot_bytes and a device kernel's scratch buffers). Values whose lifetimes do
// not overlap share one; the lifetime lets an executor allocate later and free earlier.
struct Slot {
  uint64_t bytes = 0;
  uint32_t alignment = 4;  // of the slot's start; ranges bound in it keep their own offsets
  // The first and last step (indices into the list's steps, in order over its segments) that
  // touch it: outside them its contents are undefined.
  uint32_t first_step = 0, last_step = 0;
  bool operator==(const Slot&) const = default;
};

// A value of the program: what a step reads or makes. Values are numbered plan-wide; a nested
// list reads the values of the lists around it (a while body reads outer values) by number.
struct Value {
  enum class Kind : uint8_t { kTensor = 0, kToken = 1, kTuple = 2 };
  // Where a tensor's bytes live. kFresh: allocated by the step that makes it, alive while
  // referenced (results handed to the caller, loop state), and "transient": a device kernel
  // may update it in place when nothing else refers to it (InPlaceOutput). kSlot: at `offset`
  // in slot `index` of the list whose step makes it. kConstant: constant `index`. kArgument:
  // given to the list that declares it as an argument (or to the entry by the caller).
  enum class Placement : uint8_t { kFresh = 0, kSlot = 1, kConstant = 2, kArgument = 3 };
  Kind kind = Kind::kTensor;
  TensorType type;  // tensors
  Placement placement = Placement::kFresh;
  uint32_t index = 0;   // the slot or constant
  uint64_t offset = 0;  // in the slot
  uint64_t bytes = 0;   // storage bytes rounded up to whole words (tensors)
  std::string name;     // "%5" as the source named it (messages, dumps); may be empty
  bool operator==(const Value&) const = default;
};

// A range of device memory a step binds or copies: a value's bytes, a slot's, or a
// constant's, from `offset`; `bytes` 0 means to the end of the value, slot or constant.
struct BufferRef {
  enum class Kind : uint8_t { kValue = 0, kSlot = 1, kConstant = 2 };
  Kind kind = Kind::kValue;
  uint32_t index = 0;  // value id, slot of the list the step belongs to, or constant
  uint64_t offset = 0;
  uint64_t bytes = 0;
  bool operator==(const BufferRef&) const = default;
};

// An output of a kernel step that may be written into one of its inputs' buffers when the
// executor finds nothing else refers to that input (codegen/in_place.h: a dynamic_update_slice
// or scatter then writes only the update). Indices into the step's inputs and outputs.
struct InPlaceOutput {
  uint32_t output = 0;
  uint32_t input = 0;
  uint64_t bytes_written = 0;  // what the dispatches still run write to it
  bool operator==(const InPlaceOutput&) const = default;
};

}  // namespace vkhlo::plan
