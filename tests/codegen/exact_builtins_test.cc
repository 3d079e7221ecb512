// The rule of docs/exactness.md, checked on generated code: kernels of the ops whose results the
// spec fixes bit for bit (rounding to integers, reduce_precision, convert between every pair of
// types, remainder, divide, sqrt, maximum/minimum, sign, is_finite, compare) contain none of
// the SPIR-V instructions Vulkan lets a driver compute loosely or that a driver may fold away:
// GLSL.std.450 Round, RoundEven, Trunc, Floor, Ceil, Fract, Modf, Frexp, Ldexp and the
// transcendental built-ins, core OpIsNan, OpIsInf, OpFRem, OpFMod, OpQuantizeToF16.
//
// No device needed: the kernels are planned for fake targets (every feature; a phone without
// f16, f64 and i64 arithmetic) and compiled by glslang without spirv-opt, so the scan sees what
// the code generator wrote (and the GLSL library code it includes).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include <map>
#include <set>

#include "codegen/fusion.h"
#include "codegen/glsl_compiler.h"
#include "codegen/kernel.h"
#include "codegen/spirv_float_controls.h"
#include "frontend/parser.h"
#include "ir/element_type.h"
#include "verify/verifier.h"

namespace vkhlo::codegen {
namespace {

using ir::ElementType;

const std::map<uint32_t, const char*>& ForbiddenExtInsts() {
  static const auto* forbidden = new std::map<uint32_t, const char*>{
      {GLSLstd450Round, "round"}, {GLSLstd450RoundEven, "roundEven"}, {GLSLstd450Trunc, "trunc"},
      {GLSLstd450Floor, "floor"}, {GLSLstd450Ceil, "ceil"}, {GLSLstd450Fract, "fract"},
      {GLSLstd450Modf, "modf"}, {GLSLstd450ModfStruct, "modf"}, {GLSLstd450Frexp, "frexp"},
      {GLSLstd450FrexpStruct, "frexp"}, {GLSLstd450Ldexp, "ldexp"}, {GLSLstd450Sin, "sin"},
      {GLSLstd450Cos, "cos"}, {GLSLstd450Tan, "tan"}, {GLSLstd450Asin, "asin"}, {GLSLstd450Acos, "acos"},
      {GLSLstd450Atan, "atan"}, {GLSLstd450Sinh, "sinh"}, {GLSLstd450Cosh, "cosh"}, {GLSLstd450Tanh, "tanh"},
      {GLSLstd450Asinh, "asinh"}, {GLSLstd450Acosh, "acosh"}, {GLSLstd450Atanh, "atanh"},
      {GLSLstd450Atan2, "atan2"}, {GLSLstd450Pow, "pow"}, {GLSLstd450Exp, "exp"}, {GLSLstd450Log, "log"},
      {GLSLstd450Exp2, "exp2"}, {GLSLstd450Log2, "log2"}};
  return *forbidden;
}

const std::map<uint32_t, const char*>& ForbiddenOps() {
  static const auto* forbidden = new std::map<uint32_t, const char*>{
      {SpvOpIsNan, "OpIsNan (isnan)"}, {SpvOpIsInf, "OpIsInf (isinf)"}, {SpvOpFRem, "OpFRem"},
      {SpvOpFMod, "OpFMod (mod)"}, {SpvOpQuantizeToF16, "OpQuantizeToF16"}};
  return *forbidden;
}

// The forbidden instructions a module contains (empty: none).
std::set<std::string> ForbiddenInstructions(const SpirvWords& words) {
  std::set<std::string> found;
  uint32_t glsl_set = 0;
  for (size_t at = 5; at < words.size();) {
    const uint32_t opcode = words[at] & 0xFFFFu, count = words[at] >> 16;
    if (count == 0) break;
    if (opcode == SpvOpExtInstImport && std::string(reinterpret_cast<const char*>(&words[at + 2])) == "GLSL.std.450") {
      glsl_set = words[at + 1];
    }
    if (opcode == SpvOpExtInst && count >= 5 && words[at + 3] == glsl_set) {
      auto it = ForbiddenExtInsts().find(words[at + 4]);
      if (it != ForbiddenExtInsts().end()) found.insert(it->second);
    }
    auto op = ForbiddenOps().find(opcode);
    if (op != ForbiddenOps().end()) found.insert(op->second);
    at += count;
  }
  return found;
}

std::string Tensor(ElementType t) { return fmt::format("tensor<8x{}>", ir::ElementTypeName(t)); }

// One program of every exact op on operands of type `t` (floats) or of every conversion from
// `t` (integers) that `target` can compute.
std::string ExactOpsProgram(ElementType t, const TargetInfo& target, const std::vector<ElementType>& to_types) {
  std::vector<std::string> lines, results, types;
  auto add = [&](const std::string& text, ElementType result) {
    lines.push_back(fmt::format("  %r{} = {}", results.size(), text));
    results.push_back(fmt::format("%r{}", results.size()));
    types.push_back(Tensor(result));
  };
  const std::string tt = Tensor(t);
  if (ir::IsFloat(t)) {
    for (const char* op : {"floor", "ceil", "round_nearest_even", "round_nearest_afz", "sign", "abs", "negate"}) {
      add(fmt::format("\"stablehlo.{}\"(%a) : ({}) -> {}", op, tt, tt), t);
    }
    for (const char* op : {"remainder", "divide", "maximum", "minimum", "add", "multiply", "subtract"}) {
      add(fmt::format("\"stablehlo.{}\"(%a, %b) : ({}, {}) -> {}", op, tt, tt, tt), t);
    }
    add(fmt::format("\"stablehlo.sqrt\"(%a) : ({}) -> {}", tt, tt), t);
    add(fmt::format("\"stablehlo.is_finite\"(%a) : ({}) -> {}", tt, Tensor(ElementType::kI1)), ElementType::kI1);
    add(fmt::format("\"stablehlo.compare\"(%a, %b) {{comparison_direction = #stablehlo<comparison_direction LT>}} "
                    ": ({}, {}) -> {}", tt, tt, Tensor(ElementType::kI1)),
        ElementType::kI1);
    for (auto [e, m] : {std::pair{8, 7}, {5, 10}, {4, 3}, {11, 0}}) {
      add(fmt::format("\"stablehlo.reduce_precision\"(%a) {{exponent_bits = {} : i32, mantissa_bits = {} : i32}} "
                      ": ({}) -> {}", e, m, tt, tt),
          t);
    }
  }
  for (ElementType to : to_types) {
    if (to == t) continue;
    add(fmt::format("\"stablehlo.convert\"(%a) : ({}) -> {}", tt, Tensor(to)), to);
  }
  (void)target;
  return fmt::format("func.func @main(%a: {0}, %b: {0}) -> ({1}) {{\n{2}\n  func.return {3} : {1}\n}}\n", tt,
                     fmt::join(types, ", "), fmt::join(lines, "\n"), fmt::join(results, ", "));
}

TargetInfo Phone() {
  TargetInfo t = TargetInfo::Everything();
  t.device_name = "a phone without f16, f64 and i64 arithmetic";
  t.shader_float64 = t.shader_int64 = t.shader_float16 = t.shader_int8 = t.shader_int16 = false;
  t.float_controls = {};
  return t;
}

void ExpectNoLooseBuiltins(ElementType t, const TargetInfo& target, const std::vector<ElementType>& to_types) {
  const std::string text = ExactOpsProgram(t, target, to_types);
  auto module = frontend::ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status().ToString() << "\n" << text;
  ASSERT_TRUE(verify::VerifyModule(**module).ok()) << text;
  auto plan = PlanBlock((*module)->functions().front()->body().front(), target);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  GlslCompiler compiler("");
  for (const Fusion& fusion : plan->fusions) {
    auto kernel = EmitLoopKernel(fusion, target, {});
    ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
    GlslCompileOptions options = GlslCompileOptions::ForTarget(target, kernel->name);
    options.optimize = false;
    auto spirv = compiler.Compile(kernel->glsl, options);
    ASSERT_TRUE(spirv.ok()) << spirv.status().ToString();
    std::set<std::string> found = ForbiddenInstructions(**spirv);
    EXPECT_TRUE(found.empty()) << ir::ElementTypeName(t) << " on " << target.device_name << ": kernel "
                               << kernel->name << " uses " << fmt::format("{}", fmt::join(found, ", "))
                               << "\nfused ops:\n" << kernel->summary;
  }
}

const std::vector<ElementType> kFloats = {ElementType::kF32, ElementType::kF16, ElementType::kBF16,
                                          ElementType::kF8E4M3FN, ElementType::kF8E5M2, ElementType::kF64};
const std::vector<ElementType> kIntegers = {ElementType::kS8, ElementType::kS32, ElementType::kU32,
                                            ElementType::kS64, ElementType::kU64};

std::vector<ElementType> Computable(const TargetInfo& target) {
  std::vector<ElementType> types;
  for (const auto& list : {kFloats, kIntegers}) {
    for (ElementType t : list) {
      const bool wide = t == ElementType::kF64 || t == ElementType::kS64 || t == ElementType::kU64;
      if (!wide || target.shader_float64) types.push_back(t);
    }
  }
  return types;
}

TEST(ExactBuiltins, ExactFamilyKernelsUseNoLooseBuiltins) {
  for (const TargetInfo& target : {TargetInfo::Everything(), Phone()}) {
    const std::vector<ElementType> types = Computable(target);
    for (ElementType t : types) {
      SCOPED_TRACE(fmt::format("{} on {}", ir::ElementTypeName(t), target.device_name));
      ExpectNoLooseBuiltins(t, target, types);
    }
  }
}

// The scan itself finds what it looks for: a kernel calling the built-ins directly.
TEST(ExactBuiltins, TheScanFindsBuiltins) {
  GlslCompiler compiler("");
  GlslCompileOptions options;
  options.optimize = false;
  auto spirv = compiler.Compile(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float v[]; };
void main() {
  float x = v[0];
  v[1] = roundEven(x) + floor(x) + (isnan(x) ? 1.0 : 0.0);
  int e;
  v[2] = ldexp(frexp(x, e), e);
})",
                                options);
  ASSERT_TRUE(spirv.ok()) << spirv.status().ToString();
  EXPECT_EQ(ForbiddenInstructions(**spirv), (std::set<std::string>{"OpIsNan (isnan)", "floor", "frexp", "ldexp",
                                                                    "roundEven"}));
}

// Kernels declare the float controls their target offers, per width they use, and the module
// still validates (GlslCompiler runs spirv-val after adding them); a target without them gets
// none.
TEST(ExactBuiltins, KernelsDeclareTheTargetsFloatControls) {
  const std::string source = R"(#version 450
#extension GL_ARB_gpu_shader_fp64 : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
  double d = packDouble2x32(uvec2(v[0], v[1]));
  float f = uintBitsToFloat(v[2]);
  v[3] = floatBitsToUint(f * 3.0 + float(d * 0.5));
})";
  GlslCompiler compiler("");
  TargetInfo target = TargetInfo::Everything();
  target.float_controls.rounding_mode_rte_64 = false;
  target.float_controls.denorm_preserve_32 = true;
  auto spirv = compiler.Compile(source, GlslCompileOptions::ForTarget(target, "fc"));
  ASSERT_TRUE(spirv.ok()) << spirv.status().ToString();
  DeclaredFloatControls declared = ReadFloatControls(**spirv);
  EXPECT_EQ(declared.signed_zero_inf_nan_preserve, (std::vector<uint32_t>{32, 64}));  // no f16 in the module
  EXPECT_EQ(declared.rounding_mode_rte, (std::vector<uint32_t>{32}));
  EXPECT_EQ(declared.denorm_preserve, (std::vector<uint32_t>{32}));
  auto none = compiler.Compile(source, GlslCompileOptions::ForTarget(Phone(), "fc"));
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  declared = ReadFloatControls(**none);
  EXPECT_TRUE(declared.signed_zero_inf_nan_preserve.empty());
  EXPECT_TRUE(declared.rounding_mode_rte.empty());
  EXPECT_TRUE(declared.denorm_preserve.empty());
}

}  // namespace
}  // namespace vkhlo::codegen
