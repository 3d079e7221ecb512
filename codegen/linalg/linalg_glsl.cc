#include "codegen/linalg/linalg_glsl.h"

#include <fmt/format.h>

#include "codegen/elemental/emitter.h"
#include "codegen/elemental/op_emitters.h"
#include "codegen/elemental/types.h"

namespace vkhlo::codegen {

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
  s.complex = complex;
  s.wide = wide;

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
  for (const std::string& file : prelude.includes()) s.generated += fmt::format("#include \"{}\"\n", file);
  for (const std::string& helper : prelude.helpers()) s.generated += helper + "\n";
  for (const std::string& global : prelude.globals()) s.generated += global + "\n";
  s.generated += functions;
  return s;
}

void AddLinalgTypes(const LinalgSource& s, const TargetInfo& target, FixedKernelSource& kernel) {
  kernel.Define("T", s.T)
      .Define("R", s.real)
      .DefineFlag("LINALG_COMPLEX", s.complex)
      .DefineFlag("LINALG_WIDE", s.wide)
      .DefineFlag("HAS_FLOAT64", target.shader_float64)
      .Define("OUT_RAW", s.out_raw)
      .DefineInt("OUT_STORAGE_BITS", s.out_storage_bits);
  kernel.generated += s.generated;
}

StatusOr<std::string> LinalgPassGlsl(const FixedKernelSource& base, const LinalgSource& s, const char* pass,
                                     const std::vector<KernelBuffer>& bindings, std::array<uint32_t, 3> workgroup_size,
                                     const std::string& push_fields, const std::string& views) {
  FixedKernelSource kernel = base;
  kernel.DefineFlag(pass, true);
  kernel.header.name = fmt::format("{} pass {}", base.header.name, pass);
  kernel.generated = views + kernel.generated;
  return FixedKernelGlsl(bindings, workgroup_size, push_fields, s.extensions, kernel);
}

}  // namespace vkhlo::codegen
