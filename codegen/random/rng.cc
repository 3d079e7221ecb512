// stablehlo.rng (UNIFORM, NORMAL) as a device kernel computing the interpreter's function
// (src/interp/random_ops.cc defines it; keep the two in step): a counter-based generator, so
// element i is a pure function of (seed, i) and each invocation computes its own elements.
//   seed: Mix of the op's location (folded here at compile time), the storage bits of the bounds
//     a and b (read from their buffers: they are run-time values) and the element type, in
//     64-bit arithmetic on uvec2 (no shaderInt64).
//   element i: r = Philox-4x32 (10 rounds) of counter (i, 0, 0, 0) under the seed.
//   UNIFORM floats: u b + (1 - u) a in f32 (f64 for f64) with `precise` (no fused multiply-add,
//     as the interpreter's separate roundings), rounded to the type by the elemental emitter's
//     convert (StableHLO convert semantics), a when that is not below b: bit-exact.
//   UNIFORM integers (and i1): a + high half of (bits x (b - a)), in 32-bit arithmetic
//     (umulExtended; 64-bit types on uvec2): bit-exact, no shaderInt64 needed.
//   NORMAL: Box-Muller in f32 (f64 for f64) with the elemental library's hlo_log and
//     hlo_cosine (accurate to a few ulp, unlike some drivers' built-ins), so the device agrees
//     with the interpreter's std::log/std::cos to a few ulp, not bit for bit.
// Narrow outputs: an invocation computes every element of one output word (no two invocations
// write one word). f64 needs shaderFloat64 (the emitter's missing-feature error says so).
#include <fmt/format.h>

#include <algorithm>

#include "codegen/elemental/emitter.h"
#include "codegen/elemental/op_emitters.h"
#include "codegen/elemental/types.h"
#include "codegen/random/philox_glsl.h"
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

constexpr const char* kGenerator = R"(
uvec2 rng_mix(uvec2 h, uvec2 v) {
  uvec2 t = hlo_u64_add(hlo_u64_add(v, uvec2(0x7F4A7C15u, 0x9E3779B9u)), hlo_u64_add(hlo_u64_shl(h, 6), hlo_u64_shr(h, 2)));
  h ^= t;
  h ^= hlo_u64_shr(h, 33);
  h = hlo_u64_mul_lo(h, uvec2(0xED558CCDu, 0xFF51AFD7u));
  h ^= hlo_u64_shr(h, 33);
  return h;
}
// The high 64 bits of the 128-bit product a * b.
uvec2 rng_mul_high64(uvec2 a, uvec2 b) {
  uint h00, l00, h01, l01, h10, l10, h11, l11;
  umulExtended(a.x, b.x, h00, l00);
  umulExtended(a.x, b.y, h01, l01);
  umulExtended(a.y, b.x, h10, l10);
  umulExtended(a.y, b.y, h11, l11);
  uint c1, c2, c3, c4, c5;
  uint m = uaddCarry(h00, l01, c1);
  m = uaddCarry(m, l10, c2);
  uint lo = uaddCarry(l11, h01, c3);
  lo = uaddCarry(lo, h10, c4);
  lo = uaddCarry(lo, c1 + c2, c5);
  return uvec2(lo, h11 + c3 + c4 + c5);
}
uvec2 rng_key;
)";

// GLSL of the element function `RAW rng_element(uint i)` for the distribution and type.
std::string ElementBody(const std::string& distribution, const TypeFacts& f) {
  const bool wide = f.bits > 32;
  const bool is_float = ir::IsFloat(f.type);
  std::string s = "  uvec4 r = philox4x32(uvec4(i, 0u, 0u, 0u), rng_key);\n";
  if (is_float && wide) {
    s += "  double u = (double(r.y >> 11u) * 4294967296.0LF + double((r.y << 21u) | (r.x >> 11u))) *"
         " 1.1102230246251565404236316680908203125e-16LF;\n";
  } else if (is_float) {
    s += "  float u = float(r.x >> 8u) * 5.9604644775390625e-8;\n";
  }
  if (is_float && distribution == "NORMAL") {
    if (wide) {
      s += "  double u2 = (double(r.w >> 11u) * 4294967296.0LF + double((r.w << 21u) | (r.z >> 11u))) *"
           " 1.1102230246251565404236316680908203125e-16LF;\n"
           "  double u1 = u + 1.1102230246251565404236316680908203125e-16LF;\n"
           "  precise double radius = sqrt(-2.0LF * hlo_log(u1));\n"
           "  precise double z = radius * hlo_cosine(6.283185307179586LF * u2);\n"
           "  precise double v = rng_a + rng_b * z;\n";
    } else {
      s += "  float u2 = float(r.z >> 8u) * 5.9604644775390625e-8;\n"
           "  float u1 = u + 5.9604644775390625e-8;\n"
           "  precise float radius = sqrt(-2.0 * hlo_log(u1));\n"
           "  precise float angle = 6.283185482025146484375 * u2;\n"
           "  precise float z = radius * hlo_cosine(angle);\n"
           "  precise float v = rng_a + rng_b * z;\n";
    }
    return s + "  return rng_store(v, rng_b, false);\n";
  }
  if (is_float) {
    s += fmt::format("  precise {0} v = u * rng_b + ({0}(1) - u) * rng_a;\n", wide ? "double" : "float");
    return s + "  return rng_store(v, rng_b, true);\n";
  }
  const bool is_signed = ir::IsSignedInteger(f.type);
  if (wide) {
    s += "  uvec2 range = hlo_u64_sub(rng_b, rng_a);\n";
    s += is_signed ? "  uvec2 sign = uvec2(0u, 0x80000000u);\n  bool empty = !hlo_u64_lt(rng_a ^ sign, rng_b ^ sign);\n"
                   : "  bool empty = !hlo_u64_lt(rng_a, rng_b);\n";
    return s + "  return hlo_u64_add(rng_a, empty ? uvec2(0u) : rng_mul_high64(r.xy, range));\n";
  }
  s += "  uint range = rng_b - rng_a, high, low;\n  umulExtended(r.x, range, high, low);\n";
  s += is_signed ? "  bool empty = int(rng_a) >= int(rng_b);\n" : "  bool empty = rng_a >= rng_b;\n";
  const uint32_t mask = f.storage_bits >= 32 ? 0xffffffffu : (1u << f.storage_bits) - 1u;
  // The value is in the type's range, so its low storage bits are its storage (sign-extended
  // within the storage for signed sub-byte types, as the interpreter stores them).
  return s + fmt::format("  return (rng_a + (empty ? 0u : high)) & {}u;\n", mask);
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
  // The bounds in the type the element function works in.
  std::string work_glsl, bounds;
  if (is_float) {
    work_glsl = wide ? "double" : "float";
    for (int b = 0; b < 2; ++b) {
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Compute(raw[b]));
      bounds += fmt::format("  rng_{} = {}({});\n", b == 0 ? "a" : "b", work_glsl, value.code);
    }
  } else if (wide) {
    work_glsl = "uvec2";
    bounds = fmt::format("  rng_a = {};\n  rng_b = {};\n", raw[0].code, raw[1].code);
  } else {
    work_glsl = "uint";
    for (int b = 0; b < 2; ++b) {
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Compute(raw[b]));
      const std::string as_uint =
          facts.kind == ComputeKind::kBool ? fmt::format("({} ? 1u : 0u)", value.code) : fmt::format("uint({})", value.code);
      bounds += fmt::format("  rng_{} = {};\n", b == 0 ? "a" : "b", as_uint);
    }
  }
  bounds += fmt::format("  rng_lo = {};\n", raw[0].code);
  const std::string bits = facts.storage_bits == 64 ? "{}" : "uvec2({}, 0u)";
  const uint64_t h0 = RngSeedMix(op.location().line, op.location().column);
  bounds += fmt::format("  rng_key = rng_mix(rng_mix(rng_mix(uvec2({}u, {}u), {}), {}), uvec2({}u, 0u));\n",
                        static_cast<uint32_t>(h0), static_cast<uint32_t>(h0 >> 32),
                        fmt::format(fmt::runtime(bits), raw[0].code), fmt::format(fmt::runtime(bits), raw[1].code),
                        static_cast<uint32_t>(t));

  // Floats: `rng_store(v, hi, clamp)` rounds v to the type (the elemental convert) and gives its
  // storage bits, or rng_lo's when `clamp` and the rounded value is not below hi.
  std::string store_fn;
  if (is_float) {
    ElementalEmitter conv(target, prelude, no_inputs);
    conv.set_source_name(options.source_name);
    const ir::ElementType work = wide ? ir::ElementType::kF64 : ir::ElementType::kF32;
    VKHLO_ASSIGN_OR_RETURN(Expr rounded, ConvertElement(conv, Expr{"rng_v", work, false}, t));
    VKHLO_ASSIGN_OR_RETURN(Expr back, ConvertElement(conv, rounded, work));
    const Expr stored = conv.Raw(rounded);
    if (!conv.sticky_error().ok()) return conv.sticky_error();
    store_fn = fmt::format("{0} rng_store({1} rng_v, {1} rng_hi, bool rng_clamp) {{\n{2}"
                           "  return (!rng_clamp || {3} < rng_hi) ? {4} : rng_lo;\n}}\n",
                           raw_glsl, work_glsl, conv.body(), back.code, stored.code);
    em.IncludeMath(wide ? ComputeKind::kDouble : ComputeKind::kFloat);
  }
  if (!em.sticky_error().ok()) return em.sticky_error();

  const size_t out = fusion.inputs.size();  // the output's binding
  std::string store;
  if (facts.storage_bits == 64) {
    store = fmt::format("  uvec2 v = rng_element(id);\n  b{0}[2u * id] = v.x;\n  b{0}[2u * id + 1u] = v.y;\n", out);
  } else if (facts.storage_bits == 32) {
    store = fmt::format("  b{}[id] = rng_element(id);\n", out);
  } else {
    store = fmt::format(
        "  uint acc = 0u;\n"
        "  for (uint e = 0u; e < {0}u; ++e) {{\n"
        "    uint i = id * {0}u + e;\n"
        "    if (i >= {1}u) break;\n"
        "    acc |= rng_element(i) << (e * {2}u);\n"
        "  }}\n"
        "  b{3}[id] = acc;\n",
        per, n, facts.storage_bits, out);
  }

  std::string glsl = DeviceKernelHeader(d.bindings, {kGroup, 1, 1}, "", prelude.extensions());
  for (const std::string& file : prelude.includes()) glsl += fmt::format("#include \"{}\"\n", file);
  for (const std::string& helper : prelude.helpers()) glsl += helper + "\n";
  for (const std::string& global : prelude.globals()) glsl += global + "\n";
  glsl += kPhilox4x32Glsl;
  glsl += kGenerator;
  glsl += fmt::format("{0} rng_a, rng_b;\n{1} rng_lo;\n", work_glsl, raw_glsl);
  glsl += store_fn;
  glsl += fmt::format("{} rng_element(uint i) {{\n{}}}\n", raw_glsl, ElementBody(distribution, facts));
  glsl += "void main() {\n  " + KeepBindingsStatement(d.bindings.size()) + "\n" + em.body() + bounds +
          fmt::format("  uint id = vkhlo_workgroup_id(pc).x * {}u + gl_LocalInvocationID.x;\n", kGroup) +
          fmt::format("  if (id >= {}u) return;\n", items) + store + "}\n";
  d.glsl = std::move(glsl);
  k.dispatches.push_back(std::move(d));
  return k;
}

}  // namespace

void RegisterRngKernel(DeviceKernelTable& table) { table.Register(ir::OpCode::kRng, {&EmitRng, &AcceptsRng}); }

}  // namespace vkhlo::codegen
