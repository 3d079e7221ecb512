#include "codegen/library/epilogue_generate.h"

#include <fmt/format.h>

#include <unordered_map>

#include "codegen/elemental/emitter.h"

namespace vkhlo::codegen::library {

StatusOr<GeneratedEpilogueGlsl> GenerateEpilogueGlsl(const Epilogue& g, const TargetInfo& target,
                                                     const std::string& acc_glsl, const std::string& product_glsl,
                                                     const std::string& final_glsl) {
  if (g.product == nullptr || g.root == nullptr) return InternalError("generated epilogue without product or root");
  ShaderPrelude prelude;
  std::unordered_map<const ir::Value*, InputBinding> bindings;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    bindings[g.inputs[i]] = InputBinding{static_cast<int>(i), g.inputs[i]->type().element_type()};
  }
  ElementalEmitter em(target, prelude, [&bindings](const ir::Value* v) -> std::optional<InputBinding> {
    auto it = bindings.find(v);
    if (it == bindings.end()) return std::nullopt;
    return it->second;
  });
  em.set_source_name(g.source_name);
  // The product in the emitter's compute form of its type. The library's domain and the
  // emitter's compute type hold the same value (f16 as float vs float16_t, ui32 as int vs
  // uint, i1 as int vs bool, ...), so a GLSL constructor converts exactly: the value was
  // rounded to the type by round_result.
  const TypeFacts& pf = em.Facts(g.product->type().element_type());
  if (std::string_view feature = RequiredFeature(pf); !TargetHas(target, feature)) {
    return UnimplementedError(fmt::format("an epilogue on {} needs {}", ir::ElementTypeName(pf.type), feature));
  }
  const std::string product = pf.glsl == product_glsl ? "x" : fmt::format("{}(x)", pf.glsl);
  em.Bind(g.product, Expr{product, pf.type, false});
  const Index index = Index::Linear(g.product->type().dims(), "oi");
  VKHLO_ASSIGN_OR_RETURN(Expr root, em.Emit(g.root, index));
  VKHLO_ASSIGN_OR_RETURN(root, em.Compute(root));
  VKHLO_RETURN_IF_ERROR(em.sticky_error());
  const TypeFacts& rf = em.Facts(g.root->type().element_type());
  const std::string result = rf.glsl == final_glsl ? root.code : fmt::format("{}({})", final_glsl, root.code);

  GeneratedEpilogueGlsl out;
  for (const std::string& e : prelude.extensions()) {
    if (e != "GL_GOOGLE_include_directive") out.extensions.push_back(e);
  }
  out.includes = prelude.includes();
  for (const std::string& h : prelude.helpers()) out.helpers += h + "\n";
  for (const std::string& gl : prelude.globals()) out.helpers += gl + "\n";
  out.function = fmt::format(
      "{0} epilogue({1} acc, uint b, uint m, uint n) {{\n  {2} x = round_result(acc);\n"
      "  uint oi = product_index(b, m, n);\n{3}  return {4};\n}}\n",
      final_glsl, acc_glsl, product_glsl, em.body(), result);
  return out;
}

}  // namespace vkhlo::codegen::library
