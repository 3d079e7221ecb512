#include "codegen/indexing/element_dispatch.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "codegen/elemental/op_emitters.h"
#include "codegen/elemental/types.h"

namespace vkhlo::codegen {

namespace {

std::string WordType(const std::vector<std::string>& word_types, size_t b) {
  return b < word_types.size() && !word_types[b].empty() ? word_types[b] : "uint";
}

}  // namespace

bool RegionIsElemental(const ir::Region& region) {
  if (region.blocks().size() != 1) return false;
  for (const auto& op : region.front().operations()) {
    if (op->code() == ir::OpCode::kReturn) continue;
    if (!IsElementalOp(*op)) return false;
  }
  return true;
}

StatusOr<std::vector<Expr>> EvaluateRegion(ElementalEmitter& em, const ir::Operation& op, const ir::Region& region,
                                           const std::vector<Expr>& arguments) {
  if (region.empty() || region.front().num_arguments() != arguments.size()) {
    return em.OpError(op, "has a region whose arguments do not match");
  }
  const ir::Block& block = region.front();
  const ir::Operation* terminator = block.back();
  if (terminator == nullptr) return em.OpError(op, "has a region without a terminator");
  em.PushScope();
  for (size_t k = 0; k < arguments.size(); ++k) em.Bind(block.argument(k), arguments[k]);
  std::vector<Expr> results;
  Status status;
  for (size_t k = 0; k < terminator->num_operands() && status.ok(); ++k) {
    StatusOr<Expr> value = em.Emit(terminator->operand(k), Index::Scalar());
    if (!value.ok()) {
      status = value.status();
      break;
    }
    results.push_back(*value);
  }
  for (size_t k = 0; k < arguments.size(); ++k) em.Unbind(block.argument(k));
  em.PopScope();
  VKHLO_RETURN_IF_ERROR(status);
  for (Expr& r : results) {
    Expr raw = em.Raw(r);
    r = Expr{em.Var(em.Facts(raw.type).raw_glsl, raw.code), raw.type, true};
  }
  return results;
}

std::string AssembleShader(const KernelPrelude& prelude, const std::vector<KernelBuffer>& bindings,
                           uint32_t workgroup_size, const std::string& comment, const std::string& body,
                           const std::vector<std::string>& word_types) {
  std::string glsl = "#version 450\n";
  for (const std::string& ext : prelude.extensions()) glsl += fmt::format("#extension {} : require\n", ext);
  glsl += "// " + comment + "\n";
  for (const std::string& file : prelude.includes()) glsl += fmt::format("#include \"{}\"\n", file);
  glsl += fmt::format("layout(local_size_x = {}) in;\n", workgroup_size);
  for (size_t b = 0; b < bindings.size(); ++b) {
    const std::string type = WordType(word_types, b);
    glsl += fmt::format("layout(set = 0, binding = {0}) {1} buffer Buffer{0} {{ {2} in{0}[]; }};\n", b,
                        bindings[b].written ? "restrict" : "readonly restrict", type);
  }
  glsl += "layout(push_constant) uniform Push { uvec4 vkhlo_workgroup_base; } pc;\n";
  for (const std::string& helper : prelude.helpers()) glsl += helper + "\n";
  for (const std::string& global : prelude.globals()) glsl += global + "\n";
  glsl += "\nvoid main() {\n";
  // The device binds every declared buffer: a never-taken statement reads every binding into
  // the first written one, so the optimizer drops none.
  size_t target = bindings.size();
  for (size_t b = 0; b < bindings.size() && target == bindings.size(); ++b) {
    if (bindings[b].written) target = b;
  }
  if (target < bindings.size() && bindings.size() > 1) {
    std::string keep;
    for (size_t b = 0; b < bindings.size(); ++b) {
      if (b != target) keep += fmt::format("{}uint(in{}[0])", keep.empty() ? "" : " ^ ", b);
    }
    glsl += fmt::format("  if (pc.vkhlo_workgroup_base.w == 0xffffffffu) in{}[0] = {}({});\n", target,
                        WordType(word_types, target), keep);
  }
  return glsl + body + "}\n";
}

StatusOr<KernelDispatch> EmitElementDispatch(const Fusion& fusion, const TargetInfo& target,
                                             const KernelOptions& options, const std::string& what,
                                             const ElementValuesFn& values,
                                             const std::vector<KernelBuffer>& extra_bindings) {
  int64_t n = 1;
  for (int64_t d : fusion.dims) n *= d;
  uint32_t per = 1;
  for (const ir::Value* out : fusion.outputs) {
    const int storage = GetTypeFacts(out->type().element_type(), target).storage_bits;
    if (storage < 32) per = std::max<uint32_t>(per, static_cast<uint32_t>(32 / storage));
  }
  const uint32_t wg = ChooseLoopConfig(target, per).workgroup_size;
  const uint64_t invocations = (static_cast<uint64_t>(n) + per - 1) / per;

  KernelDispatch dispatch;
  dispatch.name = fusion.name + "." + what;
  dispatch.summary = what;
  dispatch.grid = {static_cast<uint32_t>((invocations + wg - 1) / wg), 1, 1};
  for (const ir::Value* v : fusion.inputs) dispatch.bindings.push_back(KernelBuffer::Read(v));
  for (const ir::Value* v : fusion.outputs) dispatch.bindings.push_back(KernelBuffer::Write(v));
  for (const KernelBuffer& b : extra_bindings) dispatch.bindings.push_back(b);
  if (n == 0) {
    dispatch.grid = {0, 1, 1};
    return dispatch;
  }

  KernelPrelude prelude;
  ElementalEmitter em(target, prelude, ElementalEmitter::InputsInOrder(fusion.inputs));
  em.set_source_name(options.source_name);
  const std::string total = UintLiteral(static_cast<uint64_t>(n));
  em.Line(fmt::format("uint base = ((gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x) * {}u;",
                      wg, per));
  em.Line(fmt::format("if (base >= {}) return;", total));
  // Packed outputs accumulate their words here, written once at the end.
  std::vector<int> storage(fusion.outputs.size());
  for (size_t o = 0; o < fusion.outputs.size(); ++o) {
    storage[o] = GetTypeFacts(fusion.outputs[o]->type().element_type(), target).storage_bits;
    if (storage[o] < 32) em.Line(fmt::format("uint acc{}[{}];", o, per * static_cast<uint32_t>(storage[o]) / 32));
    for (uint32_t w = 0; storage[o] < 32 && w < per * static_cast<uint32_t>(storage[o]) / 32; ++w) {
      em.Line(fmt::format("acc{}[{}] = 0u;", o, w));
    }
  }
  const size_t first_output = fusion.inputs.size();
  em.Open(fmt::format("for (uint e = 0u; e < {}u; ++e)", per));
  em.Line("uint i = base + e;");
  if (static_cast<uint64_t>(n) % per != 0) em.Line(fmt::format("if (i >= {}) break;", total));
  VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> results, values(em, Index::Linear(fusion.dims, "i")));
  if (results.size() != fusion.outputs.size()) return InternalError("element dispatch: wrong number of values");
  for (size_t o = 0; o < results.size(); ++o) {
    const Expr raw = em.Raw(results[o]);
    const std::string out = fmt::format("in{}", first_output + o);
    if (storage[o] < 32) {
      em.Line(fmt::format("acc{}[(e * {}u) >> 5u] |= ({} & {}) << ((e * {}u) & 31u);", o, storage[o], raw.code,
                          UintLiteral((1u << storage[o]) - 1), storage[o]));
    } else if (storage[o] == 32) {
      em.Line(fmt::format("{}[i] = {};", out, raw.code));
    } else {
      for (int w = 0; w < storage[o] / 32; ++w) {
        em.Line(fmt::format("{}[{}u * i + {}u] = {}[{}];", out, storage[o] / 32, w, raw.code, w));
      }
    }
  }
  em.Close();
  for (size_t o = 0; o < results.size(); ++o) {
    if (storage[o] >= 32) continue;
    const uint32_t per_word = 32 / static_cast<uint32_t>(storage[o]);
    for (uint32_t w = 0; w < per * static_cast<uint32_t>(storage[o]) / 32; ++w) {
      em.Line(fmt::format("if (base + {}u < {}) in{}[base / {}u + {}u] = acc{}[{}];", w * per_word, total,
                          first_output + o, per_word, w, o, w));
    }
  }
  VKHLO_RETURN_IF_ERROR(em.sticky_error());

  dispatch.glsl = AssembleShader(prelude, dispatch.bindings, wg,
                                 fmt::format("vkhlo {} kernel {}: {} elements, {} per invocation", what, fusion.name, n, per),
                                 em.body());
  return dispatch;
}

}  // namespace vkhlo::codegen
