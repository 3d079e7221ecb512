// Custom calls: how an embedder gives `stablehlo.custom_call @target(...)` (XlaBuilder's
// CustomCall) a meaning on the Vulkan backend. Each Client owns a registry (copies of a Client
// share it; the clients of CreateProcessClients are separate: register on each); a target is
// either
//
//  - a SPIR-V compute kernel, dispatched in the same command list as the program's own kernels
//    (no synchronization with the host), or
//  - a host callback, which synchronizes: the work recorded so far is submitted and waited for,
//    the operands are read back as Literals, the callback runs on the thread that called
//    Execute, and its results are uploaded before the program goes on.
//
//   client->custom_calls().RegisterHostCallback("my.sort_rows",
//       [](std::span<const Literal> in, std::span<Literal> out, const CustomCallContext& ctx) {
//         ... fill out[0] (already of the op's result shape) from in[0] ...
//         return OkStatus();
//       });
//   CustomCall(&builder, "my.sort_rows", {x}, x_shape);   // then Client::Compile as usual
//
// Compile resolves every custom_call against the registry and fails, naming the op's location,
// when the target is not registered ("custom_call target @foo is not registered with this
// client"), when the op's operands or results do not fit the registration's signature, when a
// kernel's SPIR-V fails spirv-val or its bindings / push constants do not match, or when its
// `launch` function reports an error. An executable keeps the registration it was compiled
// with: registering a target again (replacing it) or unregistering it affects only later
// compiles.
//
// Targets named `check.*` are the test ops of StableHLO test programs (`vkhlo-run --check`
// evaluates them); they cannot be registered.
//
// Passes: a custom_call with has_side_effect = true is never removed (dead code elimination)
// nor merged with an identical one (CSE); one without side effects (the default) may be, as in
// XLA: its target must compute a function of its operands only.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "vkhlo/literal.h"
#include "vkhlo/runtime.h"  // TensorType, Client
#include "vkhlo/status.h"

namespace vkhlo {

// One operand or result a target accepts. `element_type` uses TensorType's spelling ("f32",
// "i8", "ui16", "complex<f32>"); empty accepts any. `dims`: nullopt accepts any shape; -1 in a
// dimension accepts any size there.
struct CustomCallTensorSpec {
  std::string element_type;
  std::optional<std::vector<int64_t>> dims;
};

// A declared signature: the number of operands and results and what each must be.
struct CustomCallSignature {
  std::vector<CustomCallTensorSpec> operands;
  std::vector<CustomCallTensorSpec> results;
};

// What a target sees of the op it runs for.
struct CustomCallContext {
  std::string_view target;          // the call_target_name
  std::string_view backend_config;  // the string as written; a dictionary as its text "{a = 1 : i32}"
  int64_t api_version = 1;
  bool has_side_effect = false;
  std::string_view location;        // "file:line:col" of the op (or the computation's name)
};

// How a kernel target is dispatched, decided once per op when the program is compiled (shapes
// are static): the workgroup counts and the push constants (e.g. element counts).
struct CustomCallLaunch {
  std::array<uint32_t, 3> workgroups = {1, 1, 1};  // 0 in any dimension: not dispatched
  std::vector<uint32_t> push_constants;           // at byte offset 0 of the push-constant block
};

// The operand and result types of one custom_call op.
struct CustomCallTypes {
  std::span<const TensorType> operands;
  std::span<const TensorType> results;
};

// A SPIR-V compute kernel target.
//
// Binding layout: descriptor set 0, binding i = operand i for i < #operands, then binding
// #operands + j = result j; every binding a storage buffer (in GLSL `buffer B { uint w[]; }`)
// holding the tensor densely in row-major order in vkhlo's storage layout: little-endian, each
// element its storage size (i1 and sub-byte types one byte, 16-bit types two, 64-bit eight,
// complex<f32> eight), the buffer rounded up to whole 32-bit words. Operands are read-only;
// results start undefined and the kernel must write every element (a kernel writing elements
// narrower than 32 bits must not let two invocations write parts of one word). The module must
// declare exactly these bindings (the compile checks it) and no workgroup-base push constant:
// the grid must fit maxComputeWorkGroupCount.
struct CustomCallKernel {
  std::vector<uint32_t> spirv;        // a SPIR-V module with one GLCompute entry point
  std::string entry_point = "main";   // checked against the module's entry point
  // The dispatch for the op's types; an error fails the compile (with the op's location).
  // Required.
  std::function<StatusOr<CustomCallLaunch>(const CustomCallTypes& types)> launch;
  // Optional: the result types the kernel produces for these operand types; the compile checks
  // the op's result types against them.
  std::function<StatusOr<std::vector<TensorType>>(std::span<const TensorType> operands)> result_types;
  std::optional<CustomCallSignature> signature;  // optional
};

// A host callback target. `operands` are the op's operands (row-major array Literals);
// `results` come in zero-filled with the op's result shapes, and the callback fills them (it
// must keep their shapes). A non-OK Status fails the Execute with its message and the op's
// location. Executables run concurrently on several threads: a callback registered with a
// client whose executables run so must be thread-safe.
using CustomCallHostFunction =
    std::function<Status(std::span<const Literal> operands, std::span<Literal> results, const CustomCallContext& context)>;

struct CustomCallHostCallback {
  CustomCallHostFunction function;
  std::optional<CustomCallSignature> signature;  // optional
};

// A registered target.
struct CustomCallTarget {
  std::string name;
  std::variant<CustomCallKernel, CustomCallHostCallback> implementation;
};

// The targets a Client knows. Thread-safe.
class CustomCallRegistry {
 public:
  // Registers (or replaces) `target`. INVALID_ARGUMENT for an empty name, a `check.*` name,
  // a kernel without SPIR-V words (or not starting with the SPIR-V magic number) or without
  // `launch`, a callback without a function.
  Status RegisterKernel(std::string target, CustomCallKernel kernel);
  Status RegisterHostCallback(std::string target, CustomCallHostFunction function,
                              std::optional<CustomCallSignature> signature = std::nullopt);
  // Removes `target`; false when it was not registered.
  bool Unregister(std::string_view target);
  bool Contains(std::string_view target) const;
  // The registration of `target` (null when none): what Compile uses.
  std::shared_ptr<const CustomCallTarget> Find(std::string_view target) const;

 private:
  Status Add(CustomCallTarget target);

  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const CustomCallTarget>, std::less<>> targets_;
};

}  // namespace vkhlo
