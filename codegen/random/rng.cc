// stablehlo.rng (UNIFORM, NORMAL) as a device kernel computing the interpreter's function
// (src/interp/random_ops.cc): the algorithm is shaders/random/rng.comp (bit-exact for UNIFORM,
// within a few ulp for NORMAL; see there). This file chooses its variant, generates the pieces
// that depend on the element type through the elemental emitter (loading the bounds, rounding
// to the type), and sizes the dispatch. Narrow outputs: an invocation computes every element of
// one output word. f64 needs shaderFloat64 (the emitter's missing-feature error says so).
#include <fmt/format.h>

#include <algorithm>

#include "codegen/elemental/emitter.h"
#include "codegen/elemental/op_emitters.h"
#include "codegen/elemental/types.h"
#include "codegen/fixed_kernel.h"
#include "codegen/random/rng_kernels.h"
#include "ir/rng_seed.h"

namespace vkhlo::codegen {
namespace {

constexpr uint32_t kGroup = 64;

using ir::RngSeedMix;  // the interpreter's seed mixing (ir/rng_seed.h)

std::string Distribution(const ir::Operation& op) {
  if (const ir::Attribute* a = op.attribute("rng_distribution")) {
    if (auto v = a->AsEnum("rng_distribution")) return *v;
  }
  return "UNIFORM";
}

bool AcceptsRng(const ir::Operation& op) {
  if (op.num_operands() != 3 || op.num_results() != 1) return false;
  const ir::Type& type = op.result(0)->type();
  const ir::ElementType t = type.element_type();
  if (type.is_quantized() || type.num_elements() >= 0xffffffffll) return false;
  for (int k = 0; k < 2; ++k) {
    const ir::Type& bound = op.operand(k)->type();
    if (bound.num_elements() != 1 || bound.element_type() != t) return false;
  }
  const std::string distribution = Distribution(op);
  if (distribution == "NORMAL") return ir::IsFloat(t);
  return distribution == "UNIFORM" && (ir::IsFloat(t) || ir::IsInteger(t) || ir::IsBoolean(t));
}

StatusOr<DeviceKernel> EmitRng(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  const ir::Operation& op = *fusion.device_op;
  const ir::ElementType t = op.result(0)->type().element_type();
  const std::string distribution = Distribution(op);
  const int64_t n = op.result(0)->type().num_elements();
  const TypeFacts facts = GetTypeFacts(t, target);
  const bool wide = facts.bits > 32;
  const bool is_float = ir::IsFloat(t);
  const uint32_t per = facts.storage_bits < 32 ? static_cast<uint32_t>(32 / facts.storage_bits) : 1;
  const int64_t items = (n + per - 1) / per;
  const std::string raw_glsl = facts.storage_bits == 64 ? "uvec2" : "uint";

  DeviceKernel k;
  k.summary = fmt::format("rng {} of {} x {}", distribution, n, ir::ElementTypeName(t));
  KernelDispatch d;
  d.name = fusion.name + ".rng";
  d.summary = k.summary;
  for (const ir::Value* v : fusion.inputs) d.bindings.push_back(KernelBuffer::Read(v));
  d.bindings.push_back(KernelBuffer::Write(fusion.outputs.at(0)));
  d.grid = {static_cast<uint32_t>((items + kGroup - 1) / kGroup), 1, 1};  // 0 (empty result): skipped

  ShaderPrelude prelude;
  auto no_inputs = [](const ir::Value*) -> std::optional<InputBinding> { return std::nullopt; };
  ElementalEmitter em(target, prelude, no_inputs);
  em.set_source_name(options.source_name);
  em.Include("hlo_u64.glsl");
  Expr raw[2];
  for (int b = 0; b < 2; ++b) {
    const auto it = std::find(fusion.inputs.begin(), fusion.inputs.end(), op.operand(b));
    if (it == fusion.inputs.end()) return InternalError("rng: a bound is not among the kernel's inputs");
    raw[b] = em.LoadWords(fmt::format("b{}", it - fusion.inputs.begin()), t, Index::Scalar());
    raw[b] = Expr{em.Var(facts.raw_glsl, raw[b].code), t, true};
  }
  // rng_load_bounds: the bounds in the type the element function works in, a's storage, and
  // both bounds' storage bits (for the seed).
  std::string work_glsl, bounds;
  if (is_float) {
    work_glsl = wide ? "double" : "float";
    for (int b = 0; b < 2; ++b) {
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Compute(raw[b]));
      bounds += fmt::format("  {} = {}({});\n", b == 0 ? "a" : "b", work_glsl, value.code);
    }
  } else if (wide) {
    work_glsl = "uvec2";
    bounds = fmt::format("  a = {};\n  b = {};\n", raw[0].code, raw[1].code);
  } else {
    work_glsl = "uint";
    for (int b = 0; b < 2; ++b) {
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Compute(raw[b]));
      const std::string as_uint =
          facts.kind == ComputeKind::kBool ? fmt::format("({} ? 1u : 0u)", value.code) : fmt::format("uint({})", value.code);
      bounds += fmt::format("  {} = {};\n", b == 0 ? "a" : "b", as_uint);
    }
  }
  const std::string bits = facts.storage_bits == 64 ? "{}" : "uvec2({}, 0u)";
  bounds += fmt::format("  a_raw = {};\n  a_bits = {};\n  b_bits = {};\n", raw[0].code,
                        fmt::format(fmt::runtime(bits), raw[0].code), fmt::format(fmt::runtime(bits), raw[1].code));

  // Floats: rng_round(v, rounded) rounds v to the type (the elemental convert): its storage bits,
  // and the rounded value back in the working type.
  std::string round_fn;
  if (is_float) {
    ElementalEmitter conv(target, prelude, no_inputs);
    conv.set_source_name(options.source_name);
    const ir::ElementType work = wide ? ir::ElementType::kF64 : ir::ElementType::kF32;
    VKHLO_ASSIGN_OR_RETURN(Expr rounded, ConvertElement(conv, Expr{"rng_v", work, false}, t));
    VKHLO_ASSIGN_OR_RETURN(Expr back, ConvertElement(conv, rounded, work));
    const Expr stored = conv.Raw(rounded);
    if (!conv.sticky_error().ok()) return conv.sticky_error();
    round_fn = fmt::format("{0} rng_round({1} rng_v, out {1} rounded) {{\n{2}  rounded = {3};\n  return {4};\n}}\n",
                           raw_glsl, work_glsl, conv.body(), back.code, stored.code);
    em.IncludeMath(wide ? ComputeKind::kDouble : ComputeKind::kFloat);
  }
  if (!em.sticky_error().ok()) return em.sticky_error();

  FixedKernelSource src;
  src.file = "random/rng.comp";
  src.Describe(d.name, op, options.source_name).Config(k.summary);
  const uint64_t h0 = RngSeedMix(op.location().line, op.location().column);
  src.DefineFlag("RNG_FLOAT", is_float)
      .DefineFlag("RNG_NORMAL", distribution == "NORMAL")
      .DefineFlag("RNG_WIDE", wide)
      .DefineFlag("RNG_SIGNED", ir::IsSignedInteger(t))
      .Define("WORK", work_glsl)
      .Define("RAW", raw_glsl)
      .DefineInt("STORAGE_BITS", facts.storage_bits)
      .DefineUint("N", static_cast<uint64_t>(n))
      .DefineUint("ITEMS", static_cast<uint64_t>(items))
      .DefineUint("GROUP", kGroup)
      .DefineUint("SEED_LO", static_cast<uint32_t>(h0))
      .DefineUint("SEED_HI", static_cast<uint32_t>(h0 >> 32))
      .DefineUint("TYPE_CODE", static_cast<uint32_t>(t))
      .NameBinding("OUT", fusion.inputs.size());
  for (const std::string& file : prelude.includes()) src.generated += fmt::format("#include \"{}\"\n", file);
  for (const std::string& helper : prelude.helpers()) src.generated += helper + "\n";
  for (const std::string& global : prelude.globals()) src.generated += global + "\n";
  src.generated += round_fn;
  src.generated += fmt::format(
      "void rng_load_bounds(out {0} a, out {0} b, out {1} a_raw, out uvec2 a_bits, out uvec2 b_bits) {{\n{2}{3}}}\n",
      work_glsl, raw_glsl, em.body(), bounds);
  VKHLO_ASSIGN_OR_RETURN(d.glsl, FixedKernelGlsl(d.bindings, {kGroup, 1, 1}, "", prelude.extensions(), src));
  k.dispatches.push_back(std::move(d));
  return k;
}

}  // namespace

void RegisterRngKernel(DeviceKernelTable& table) { table.Register(ir::OpCode::kRng, {&EmitRng, &AcceptsRng}); }

}  // namespace vkhlo::codegen
