#include "codegen/linalg/linalg_glsl.h"

#include <fmt/format.h>

#include "codegen/elemental/emitter.h"
#include "codegen/elemental/op_emitters.h"
#include "codegen/elemental/types.h"

namespace vkhlo::codegen {
namespace {

// The workspace accessors and arithmetic of one T.
std::string TypedHelpers(const LinalgSource& s, bool complex, bool has_f64) {
  std::string g;
  const std::string& T = s.T;
  if (T == "float") {
    g += "float ws_ld(uint i) { return uintBitsToFloat(ws[i]); }\n"
         "void ws_st(uint i, float v) { ws[i] = floatBitsToUint(v); }\n";
  } else if (T == "double") {
    g += "double ws_ld(uint i) { return packDouble2x32(uvec2(ws[2u * i], ws[2u * i + 1u])); }\n"
         "void ws_st(uint i, double v) { uvec2 w = unpackDouble2x32(v); ws[2u * i] = w.x; ws[2u * i + 1u] = w.y; }\n";
  } else if (T == "vec2") {
    g += "vec2 ws_ld(uint i) { return vec2(uintBitsToFloat(ws[2u * i]), uintBitsToFloat(ws[2u * i + 1u])); }\n"
         "void ws_st(uint i, vec2 v) { ws[2u * i] = floatBitsToUint(v.x); ws[2u * i + 1u] = floatBitsToUint(v.y); }\n";
  } else {
    g += "dvec2 ws_ld(uint i) { return dvec2(packDouble2x32(uvec2(ws[4u * i], ws[4u * i + 1u])),\n"
         "                               packDouble2x32(uvec2(ws[4u * i + 2u], ws[4u * i + 3u]))); }\n"
         "void ws_st(uint i, dvec2 v) { uvec2 a = unpackDouble2x32(v.x), b = unpackDouble2x32(v.y);\n"
         "  ws[4u * i] = a.x; ws[4u * i + 1u] = a.y; ws[4u * i + 2u] = b.x; ws[4u * i + 3u] = b.y; }\n";
  }
  const std::string R = s.real;
  g += fmt::format("{0} t_zero() {{ return {0}(0); }}\n{0} t_one() {{ return {0}({1}); }}\n", T,
                   complex ? R + "(1), " + R + "(0)" : "1");
  if (complex) {
    // std::complex's a * b + acc as the interpreter's MulAdd: four products, then sums.
    g += fmt::format(
        "{0} t_mul({0} a, {0} b) {{ precise {1} rr = a.x * b.x; precise {1} ii = a.y * b.y; precise {1} ri = a.x * b.y;"
        " precise {1} ir = a.y * b.x; precise {0} r = {0}(rr - ii, ri + ir); return r; }}\n"
        "{0} t_muladd({0} acc, {0} a, {0} b) {{ precise {0} r = acc + t_mul(a, b); return r; }}\n"
        "{0} t_fma({0} acc, {0} a, {0} b) {{ return t_muladd(acc, a, b); }}\n"
        "{0} t_div({0} a, {0} b) {{ return hlo_complex_divide(a, b); }}\n"
        "{0} t_conj({0} a) {{ return {0}(a.x, -a.y); }}\n"
        "{0} t_real({1} r) {{ return {0}(r, {1}(0)); }}\n"
        "{1} t_re({0} a) {{ return a.x; }}\n",
        T, R);
  } else {
    g += fmt::format(
        "{0} t_muladd({0} acc, {0} a, {0} b) {{ precise {0} p = a * b; precise {0} r = acc + p; return r; }}\n"
        "{1}"
        "{0} t_div({0} a, {0} b) {{ return hlo_divide(a, b); }}\n"
        "{0} t_conj({0} a) {{ return a; }}\n"
        "{0} t_real({0} r) {{ return r; }}\n"
        "{0} t_re({0} a) {{ return a; }}\n",
        T,
        // The interpreter's f32 fused multiply-add goes through double (the product is exact
        // there); Vulkan's fma may be unfused, so do the same where the device has doubles.
        T == "float" && has_f64 ? "float t_fma(float acc, float a, float b) { precise double r = double(a) * double(b) + double(acc); return float(r); }\n"
        : T == "double"
            // f64: an error-free product and sum (Vulkan's fma may be unfused), then one rounding
            // of the small terms: the fused result except in rare double-rounding cases.
            ? "double t_fma(double acc, double a, double b) {\n"
              "  precise double p = a * b;\n"
              "  if (!hlo_is_finite(p) || !hlo_is_finite(acc) || abs(a) > 1e290 || abs(b) > 1e290) { precise double r = acc + p; return r; }\n"
              "  dvec2 q = hlo_two_prod_(a, b); dvec2 s = hlo_two_sum_(acc, q.x);\n"
              "  precise double r = s.x + (s.y + q.y); return r;\n}\n"
        : T == "float"
            ? "float t_fma(float acc, float a, float b) {\n"
              "  precise float p = a * b;\n"
              "  if (!hlo_is_finite(p) || !hlo_is_finite(acc) || abs(a) > 1e36 || abs(b) > 1e36) { precise float r = acc + p; return r; }\n"
              "  vec2 q = hlo_two_prod_(a, b); vec2 s = hlo_two_sum_(acc, q.x);\n"
              "  precise float r = s.x + (s.y + q.y); return r;\n}\n"
            : fmt::format("{0} t_fma({0} acc, {0} a, {0} b) {{ return fma(a, b, acc); }}\n", T));
  }
  return g;
}

}  // namespace

std::string LinalgAccessors(const LinalgSource& s, const std::string& prefix, const std::string& buffer) {
  std::string g;
  if (s.T == "float") {
    g = "float P_ld(uint i) { return uintBitsToFloat(B[i]); }\n"
        "void P_st(uint i, float v) { B[i] = floatBitsToUint(v); }\n";
  } else if (s.T == "double") {
    g = "double P_ld(uint i) { return packDouble2x32(uvec2(B[2u * i], B[2u * i + 1u])); }\n"
        "void P_st(uint i, double v) { uvec2 w = unpackDouble2x32(v); B[2u * i] = w.x; B[2u * i + 1u] = w.y; }\n";
  } else if (s.T == "vec2") {
    g = "vec2 P_ld(uint i) { return vec2(uintBitsToFloat(B[2u * i]), uintBitsToFloat(B[2u * i + 1u])); }\n"
        "void P_st(uint i, vec2 v) { B[2u * i] = floatBitsToUint(v.x); B[2u * i + 1u] = floatBitsToUint(v.y); }\n";
  } else {
    g = "dvec2 P_ld(uint i) { return dvec2(packDouble2x32(uvec2(B[4u * i], B[4u * i + 1u])),\n"
        "                               packDouble2x32(uvec2(B[4u * i + 2u], B[4u * i + 3u]))); }\n"
        "void P_st(uint i, dvec2 v) { uvec2 a = unpackDouble2x32(v.x), b = unpackDouble2x32(v.y);\n"
        "  B[4u * i] = a.x; B[4u * i + 1u] = a.y; B[4u * i + 2u] = b.x; B[4u * i + 3u] = b.y; }\n";
  }
  std::string out;
  for (size_t i = 0; i < g.size(); ++i) {
    if (g[i] == 'P' && i + 1 < g.size() && g[i + 1] == '_') {
      out += prefix;
    } else if (g[i] == 'B' && i + 1 < g.size() && g[i + 1] == '[') {
      out += buffer;
    } else {
      out += g[i];
    }
  }
  return out;
}

StatusOr<LinalgSource> EmitLinalgPrelude(const ir::Operation& op, const std::vector<const ir::Value*>& inputs,
                                         const ir::Value* output, const TargetInfo& target,
                                         const KernelOptions& options) {
  const ir::ElementType et = output->type().element_type();
  const bool complex = ir::IsComplex(et);
  if (!complex && !ir::IsFloat(et)) {
    return InvalidArgumentError(fmt::format("'{}' on {} needs a floating-point or complex type", op.name(),
                                            output->type().ToString()));
  }
  const bool wide = et == ir::ElementType::kF64 || et == ir::ElementType::kC128;
  if (wide && !target.shader_float64) {
    return InvalidArgumentError(fmt::format("'{}' on {} needs shaderFloat64, which {} lacks (profile {})", op.name(),
                                            output->type().ToString(), target.device_name, target.profile));
  }
  LinalgSource s;
  s.real = wide ? "double" : "float";
  s.T = complex ? (wide ? "dvec2" : "vec2") : s.real;
  s.words = (complex ? 2 : 1) * (wide ? 2 : 1);

  ShaderPrelude prelude;
  prelude.Extension("GL_GOOGLE_include_directive");
  prelude.Include(complex ? (wide ? "hlo_complex_f64.glsl" : "hlo_complex_f32.glsl")
                          : (wide ? "hlo_basic_f64.glsl" : "hlo_basic_f32.glsl"));
  std::string functions;
  auto no_inputs = [](const ir::Value*) -> std::optional<InputBinding> { return std::nullopt; };
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Type& type = inputs[i]->type();
    ElementalEmitter em(target, prelude, no_inputs);
    em.set_source_name(options.source_name);
    Expr raw = em.LoadWords(fmt::format("in{}", i), type.element_type(), Index::Linear(type.dims(), "l"));
    VKHLO_ASSIGN_OR_RETURN(Expr value, em.Compute(raw));
    if (!em.sticky_error().ok()) return em.sticky_error();
    functions += fmt::format("{0} load_in{1}(uint l) {{\n{2}  return {0}({3});\n}}\n", s.T, i, em.body(), value.code);
  }
  {
    ElementalEmitter em(target, prelude, no_inputs);
    const TypeFacts& facts = em.Facts(et);
    s.out_storage_bits = facts.storage_bits;
    s.out_raw = std::string(facts.raw_glsl);
    const ir::ElementType from = complex ? et : (wide ? ir::ElementType::kF64 : ir::ElementType::kF32);
    VKHLO_ASSIGN_OR_RETURN(Expr converted, ConvertElement(em, Expr{"v", from, false}, et));
    Expr raw = em.Raw(converted);
    if (!em.sticky_error().ok()) return em.sticky_error();
    functions += fmt::format("{0} store_out({1} v) {{\n{2}  return {3};\n}}\n", s.out_raw, s.T, em.body(), raw.code);
  }
  s.extensions = prelude.extensions();
  for (const std::string& file : prelude.includes()) s.globals += fmt::format("#include \"{}\"\n", file);
  for (const std::string& helper : prelude.helpers()) s.globals += helper + "\n";
  for (const std::string& global : prelude.globals()) s.globals += global + "\n";
  s.globals += TypedHelpers(s, complex, target.shader_float64) + functions;
  return s;
}

std::string LinalgWriteOut(const LinalgSource& s, int64_t batch, int64_t n, uint64_t per_batch, uint64_t x_offset,
                           const std::string& keep) {
  return LinalgWriteElements(
      s, batch * n,
      fmt::format("{T} x_at(uint l) {{ uint bi = l / {n}u; return ws_ld(bi * {per_batch}u + {x}u + (l - bi * {n}u)); }}\n",
                  fmt::arg("T", s.T), fmt::arg("n", n), fmt::arg("per_batch", per_batch), fmt::arg("x", x_offset)),
      keep);
}

std::string LinalgWriteElements(const LinalgSource& s, int64_t total, const std::string& x_at, const std::string& keep) {
  // One invocation per output word (or element of 32 bits and more).
  const int storage = s.out_storage_bits;
  const uint32_t per = storage < 32 ? static_cast<uint32_t>(32 / storage) : 1;
  std::string code = x_at + fmt::format(
      "void main() {{\n"
      "  {keep}\n"
      "  uint id = vkhlo_workgroup_id(pc).x * 64u + gl_LocalInvocationID.x;\n",
      fmt::arg("keep", keep));
  if (storage < 32) {
    code += fmt::format(
        "  if (id >= {words}u) return;\n"
        "  uint acc = 0u;\n"
        "  for (uint e = 0u; e < {per}u; ++e) {{\n"
        "    uint l = id * {per}u + e;\n"
        "    if (l >= {total}u) break;\n"
        "    acc |= (store_out(x_at(l)) & {mask}u) << (e * {bits}u);\n"
        "  }}\n"
        "  result_words[id] = acc;\n}}\n",
        fmt::arg("words", (total + per - 1) / per), fmt::arg("per", per), fmt::arg("total", total),
        fmt::arg("mask", (1u << storage) - 1u), fmt::arg("bits", storage));
  } else {
    const int words = storage / 32;
    code += fmt::format("  if (id >= {}u) return;\n  {} r = store_out(x_at(id));\n", total, s.out_raw);
    if (words == 1) {
      code += "  result_words[id] = r;\n";
    } else {
      for (int w = 0; w < words; ++w) code += fmt::format("  result_words[{0}u * id + {1}u] = r[{1}];\n", words, w);
    }
    code += "}\n";
  }
  return code;
}

}  // namespace vkhlo::codegen
