#include "codegen/library/epilogue_generate.h"

#include <fmt/format.h>

#include <memory>
#include <unordered_map>

#include "codegen/elemental/emitter.h"

namespace vkhlo::codegen::library {
namespace {

// An elemental emitter over `prelude` that reads epilogue input i from `in<i>`.
std::unique_ptr<ElementalEmitter> EpilogueEmitter(const Epilogue& g, const TargetInfo& target, ShaderPrelude& prelude) {
  auto bindings = std::make_shared<std::unordered_map<const ir::Value*, InputBinding>>();
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    (*bindings)[g.inputs[i]] = InputBinding{static_cast<int>(i), g.inputs[i]->type().element_type()};
  }
  auto em = std::make_unique<ElementalEmitter>(target, prelude, [bindings](const ir::Value* v) -> std::optional<InputBinding> {
    auto it = bindings->find(v);
    if (it == bindings->end()) return std::nullopt;
    return it->second;
  });
  em->set_source_name(g.source_name);
  return em;
}

// `<final_glsl> epilogue(<acc_glsl> acc, uint b, uint m, uint n)`: g.root at the product's
// element, with the prelude's helpers.
StatusOr<std::string> EpilogueFunction(const Epilogue& g, const TargetInfo& target, ShaderPrelude& prelude,
                                       const std::string& acc_glsl, const std::string& product_glsl,
                                       const std::string& final_glsl, bool* element_calls = nullptr) {
  if (g.product == nullptr || g.root == nullptr) return InternalError("generated epilogue without product or root");
  std::unique_ptr<ElementalEmitter> em = EpilogueEmitter(g, target, prelude);
  // The product in the emitter's compute form of its type. The library's domain and the
  // emitter's compute type hold the same value (f16 as float vs float16_t, ui32 as int vs
  // uint, i1 as int vs bool, ...), so a GLSL constructor converts exactly: the value was
  // rounded to the type by round_result.
  const TypeFacts& pf = em->Facts(g.product->type().element_type());
  if (std::string_view feature = RequiredFeature(pf); !TargetHas(target, feature)) {
    return UnimplementedError(fmt::format("an epilogue on {} needs {}", ir::ElementTypeName(pf.type), feature));
  }
  const std::string product = pf.glsl == product_glsl ? "x" : fmt::format("{}(x)", pf.glsl);
  em->Bind(g.product, Expr{product, pf.type, false});
  const Index index = Index::Linear(g.product->type().dims(), "oi");
  // Column values (Epilogue::column_values): hlo_cv_fill(slot, b, m, n) computes them at the
  // product's element (b, m, n) into slot `slot` of private arrays; the epilogue reads slot
  // hlo_cv_slot. The kernel fills a slot per column of a tile once, in a loop, then stores the
  // tile's elements (KernelWriter::StoreTile), so their library calls appear once in the kernel
  // and run once per column.
  for (size_t i = 0; i < g.column_values.size(); ++i) {
    const TypeFacts& vf = em->Facts(g.column_values[i]->type().element_type());
    em->Bind(g.column_values[i], Expr{fmt::format("hlo_cv{}[hlo_cv_slot]", i), vf.type, false});
  }
  VKHLO_ASSIGN_OR_RETURN(Expr root, em->Emit(g.root, index));
  VKHLO_ASSIGN_OR_RETURN(root, em->Compute(root));
  VKHLO_RETURN_IF_ERROR(em->sticky_error());
  // (Before the fill adds its own.)
  if (element_calls != nullptr) *element_calls = !prelude.includes().empty();
  const TypeFacts& rf = em->Facts(g.root->type().element_type());
  const std::string result = rf.glsl == final_glsl ? root.code : fmt::format("{}({})", final_glsl, root.code);
  if (!g.column_values.empty()) {
    std::unique_ptr<ElementalEmitter> fill = EpilogueEmitter(g, target, prelude);
    prelude.Global("uint hlo_cv_slot = 0u;");
    std::string stores;
    for (size_t i = 0; i < g.column_values.size(); ++i) {
      const ir::Value* v = g.column_values[i];
      VKHLO_ASSIGN_OR_RETURN(Expr value, fill->Emit(v, index));
      VKHLO_ASSIGN_OR_RETURN(value, fill->Compute(value));
      prelude.Global(fmt::format("{} hlo_cv{}[{}];", fill->Facts(v->type().element_type()).glsl, i, kColumnValueSlots));
      stores += fmt::format("  hlo_cv{}[slot] = {};\n", i, value.code);
    }
    VKHLO_RETURN_IF_ERROR(fill->sticky_error());
    prelude.Helper("hlo_cv_fill", fmt::format("void hlo_cv_fill(uint slot, uint b, uint m, uint n) {{\n"
                                              "  uint oi = product_index(b, m, n);\n{}{}}}",
                                              fill->body(), stores));
  }
  return fmt::format(
      "{0} epilogue({1} acc, uint b, uint m, uint n) {{\n  {2} x = round_result(acc);\n"
      "  uint oi = product_index(b, m, n);\n{3}  return {4};\n}}\n",
      final_glsl, acc_glsl, product_glsl, em->body(), result);
}

GeneratedEpilogueGlsl Collect(const ShaderPrelude& prelude) {
  GeneratedEpilogueGlsl out;
  for (const std::string& e : prelude.extensions()) {
    if (e != "GL_GOOGLE_include_directive") out.extensions.push_back(e);
  }
  out.includes = prelude.includes();
  // Globals first: helpers may use them (the column values' arrays).
  for (const std::string& gl : prelude.globals()) out.helpers += gl + "\n";
  for (const std::string& h : prelude.helpers()) out.helpers += h + "\n";
  return out;
}

}  // namespace

StatusOr<GeneratedEpilogueGlsl> GenerateEpilogueGlsl(const Epilogue& g, const TargetInfo& target,
                                                     const std::string& acc_glsl, const std::string& product_glsl,
                                                     const std::string& final_glsl) {
  ShaderPrelude prelude;
  bool element_calls = false;
  VKHLO_ASSIGN_OR_RETURN(std::string function,
                         EpilogueFunction(g, target, prelude, acc_glsl, product_glsl, final_glsl, &element_calls));
  GeneratedEpilogueGlsl out = Collect(prelude);
  out.function = std::move(function);
  out.element_calls = element_calls;
  return out;
}

StatusOr<GeneratedEpilogueGlsl> GenerateGroupedEpilogueGlsl(const Epilogue& g, const TargetInfo& target,
                                                            const std::string& acc_glsl, const std::string& product_glsl,
                                                            const std::string& sliced_glsl,
                                                            const std::vector<std::string>& root_glsl) {
  if (!g.groups || g.root == nullptr || g.groups->roots.size() != root_glsl.size()) {
    return InternalError("grouped epilogue without column groups");
  }
  ShaderPrelude prelude;  // one for both functions: each helper once
  std::string stage_one;
  if (g.root == g.product) {
    stage_one = fmt::format("{} epilogue({} acc, uint b, uint m, uint n) {{ return round_result(acc); }}\n", sliced_glsl,
                            acc_glsl);
  } else {
    VKHLO_ASSIGN_OR_RETURN(stage_one, EpilogueFunction(g, target, prelude, acc_glsl, product_glsl, sliced_glsl));
  }
  std::unique_ptr<ElementalEmitter> em = EpilogueEmitter(g, target, prelude);
  // Slice s is the stage-one value of group s at this root element (parameter x<s>), in the
  // emitter's compute form of its type (as the product is bound above).
  const TypeFacts& sf = em->Facts(g.root->type().element_type());
  std::string params;
  for (size_t s = 0; s < g.groups->slices.size(); ++s) {
    const std::string x = fmt::format("x{}", s);
    em->Bind(g.groups->slices[s], Expr{sf.glsl == sliced_glsl ? x : fmt::format("{}({})", sf.glsl, x), sf.type, false});
    params += fmt::format(", {} {}", sliced_glsl, x);
  }
  const Index index = Index::Linear(g.groups->roots.front()->type().dims(), "oj");
  std::string stores;
  for (size_t r = 0; r < g.groups->roots.size(); ++r) {
    const ir::Value* root = g.groups->roots[r];
    VKHLO_ASSIGN_OR_RETURN(Expr value, em->Emit(root, index));
    VKHLO_ASSIGN_OR_RETURN(value, em->Compute(value));
    const TypeFacts& rf = em->Facts(root->type().element_type());
    const std::string code = rf.glsl == root_glsl[r] ? value.code : fmt::format("{}({})", root_glsl[r], value.code);
    stores += fmt::format("  st_c{}(oj, {});\n", r == 0 ? std::string() : std::to_string(r), code);
  }
  VKHLO_RETURN_IF_ERROR(em->sticky_error());
  GeneratedEpilogueGlsl out = Collect(prelude);
  out.function = stage_one + fmt::format("void store_group(uint b, uint m, uint j{}) {{\n  uint oj = out_index(b, m, j);\n{}{}}}\n",
                                         params, em->body(), stores);
  return out;
}

StatusOr<GeneratedEpilogueGlsl> GenerateScalarsGlsl(const Epilogue& g, const TargetInfo& target,
                                                    const std::vector<std::string>& scalar_glsl) {
  if (g.scalars.size() != scalar_glsl.size()) return InternalError("scalar outputs without their types");
  ShaderPrelude prelude;
  std::unique_ptr<ElementalEmitter> em = EpilogueEmitter(g, target, prelude);
  std::string stores;
  for (size_t i = 0; i < g.scalars.size(); ++i) {
    const ir::Value* v = g.scalars[i];
    VKHLO_ASSIGN_OR_RETURN(Expr value, em->Emit(v, Index::Scalar()));
    VKHLO_ASSIGN_OR_RETURN(value, em->Compute(value));
    const TypeFacts& f = em->Facts(v->type().element_type());
    const std::string code = f.glsl == scalar_glsl[i] ? value.code : fmt::format("{}({})", scalar_glsl[i], value.code);
    stores += fmt::format("  st_s{}(0u, {});\n", i, code);
  }
  VKHLO_RETURN_IF_ERROR(em->sticky_error());
  GeneratedEpilogueGlsl out = Collect(prelude);
  out.function = fmt::format("void hlo_store_scalars() {{\n{}{}}}\n", em->body(), stores);
  return out;
}

}  // namespace vkhlo::codegen::library
