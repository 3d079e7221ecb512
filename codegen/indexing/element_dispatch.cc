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

namespace {

ShaderWriter IndexingWriter(const std::vector<KernelBuffer>& bindings, uint32_t workgroup_size, const std::string& kernel,
                            const std::vector<std::string>& word_types) {
  ShaderWriter w(kernel);
  w.Workgroup(workgroup_size);
  for (size_t b = 0; b < bindings.size(); ++b) {
    w.StorageBuffer(static_cast<uint32_t>(b), fmt::format("in{}", b), WordType(word_types, b),
                    bindings[b].written ? BufferAccess::kReadWrite : BufferAccess::kRead);
  }
  return w;
}

}  // namespace

std::string AssembleShader(const ShaderPrelude& prelude, const std::vector<KernelBuffer>& bindings,
                           uint32_t workgroup_size, const std::string& kernel, const std::string& body,
                           const std::vector<std::string>& word_types) {
  ShaderWriter w = IndexingWriter(bindings, workgroup_size, kernel, word_types);
  w.prelude() = prelude;
  return w.Finish(body);
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

  ShaderWriter w = IndexingWriter(dispatch.bindings, wg,
                                  fmt::format("{} kernel {}: {} elements, {} per invocation", what, fusion.name, n, per),
                                  {});
  w.FusedOps(fusion.ops, options.source_name);
  ElementalEmitter em(target, w.prelude(), ElementalEmitter::InputsInOrder(fusion.inputs));
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

  dispatch.glsl = w.Finish(em.body());
  return dispatch;
}

}  // namespace vkhlo::codegen
