// Shared pieces of the library-kernel tests: build an op from text, random operands, run a
// LibraryPlan on the device, compare with the interpreter with tolerances scaled by K.
#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "codegen/glsl_compiler.h"
#include "codegen/library/library_kernel.h"
#include "codegen/target.h"
#include "device/device.h"
#include "ir/literal.h"
#include "ir/module.h"
#include "runtime/target_from_device.h"
#include "vkhlo/status.h"

namespace vkhlo::testing {

// TargetInfo from the device's masked capabilities: the runtime's own function.
using runtime::TargetFromDevice;

// A parsed module and its first op of `code` (in the first function).
struct ParsedOp {
  std::unique_ptr<ir::Module> module;
  const ir::Operation* op = nullptr;
};
StatusOr<ParsedOp> ParseOp(const std::string& mlir, ir::OpCode code);

// Random values of `type`: floats in [-2, 2] rounded to the type, integers over their whole
// range (so products wrap), booleans, complex parts in [-2, 2].
ir::Literal RandomLiteral(const ir::Type& type, std::mt19937_64& rng);

// Runs `plan` (compiled here) with `operands` (lhs, rhs) and `epilogue_inputs`; the result
// read back as a literal of `result_type` with the op's result shape.
StatusOr<ir::Literal> RunPlan(device::Device& device, codegen::GlslCompiler& compiler,
                              const codegen::TargetInfo& target, codegen::library::LibraryPlan& plan,
                              const std::vector<ir::Literal>& operands,
                              const std::vector<ir::Literal>& epilogue_inputs = {});

// The interpreter's result of `op` on `operands`.
StatusOr<ir::Literal> Reference(const ir::Operation& op, const std::vector<ir::Literal>& operands);

// Empty when `actual` matches `expected`: exact for integers and booleans; for floats within
// (2 ulps of the result type) + k * (an ulp of the accumulator) * 16 * |scale|, where `scale`
// bounds the magnitude of the products. Otherwise a message naming the first mismatches.
std::string Compare(const ir::Literal& expected, const ir::Literal& actual, int64_t k, double scale = 4.0);

// A compiler with its disk cache under the test cache directory (XDG_CACHE_HOME).
codegen::GlslCompiler& TestCompiler();

}  // namespace vkhlo::testing
