// dynamic_update_slice in place (codegen/in_place.h): when its operand dies at it and has a
// buffer of its own, the op is a device kernel of two dispatches, (1) result = operand, word by
// word, which the runtime skips when the result can take the operand's buffer, and (2) one
// invocation per update element writing it at the (clamped) start. Elements narrower than a word
// share words with their neighbours outside the window, so they are merged in with atomicAnd/
// atomicOr on their own bits (other invocations touch other bits of the word: the result does not
// depend on their order). Otherwise dynamic_update_slice is elemental (elemental/
// dynamic_update_slice.cc) and fuses.
#include <fmt/format.h>

#include <unordered_map>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/index_util.h"
#include "codegen/elemental/types.h"
#include "codegen/in_place.h"
#include "codegen/indexing/element_dispatch.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

int Find(const std::vector<const ir::Value*>& values, const ir::Value* v) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] == v) return static_cast<int>(i);
  }
  return -1;
}

StatusOr<DeviceKernel> EmitDynamicUpdateSliceInPlace(const Fusion& fusion, const TargetInfo& target,
                                                     const KernelOptions& options) {
  const Operation& op = *fusion.device_op;
  const ir::Value* operand = op.operand(0);
  const ir::Value* update = op.operand(1);
  const std::vector<int64_t>& od = operand->type().dims();
  const std::vector<int64_t>& ud = update->type().dims();
  const int operand_input = Find(fusion.inputs, operand);
  if (fusion.outputs.size() != 1 || fusion.outputs[0] != op.result(0) || operand_input < 0) {
    return InternalError(fmt::format("{}: the in-place dynamic_update_slice kernel needs its operand as an input "
                                     "and its result as the only output", fusion.name));
  }
  if (ud.size() != od.size() || op.num_operands() != od.size() + 2) {
    return InvalidArgumentError("stablehlo.dynamic_update_slice needs an update of the operand's rank and one start "
                                "index per dimension");
  }
  const ir::ElementType element = operand->type().element_type();
  const TypeFacts facts = GetTypeFacts(element, target);
  const uint32_t wg = ChooseLoopConfig(target, 1).workgroup_size;
  DeviceKernel kernel;
  kernel.summary = "dynamic_update_slice in place: result = operand (skipped when it takes the operand's buffer), "
                   "then one invocation per update element";

  // Dispatch 1: result = operand.
  {
    std::vector<KernelBuffer> bindings = {KernelBuffer::Read(operand), KernelBuffer::Write(op.result(0))};
    const uint64_t words = (StorageByteSize(element, operand->type().num_elements()) + 3) / 4;
    KernelDispatch copy;
    copy.name = fusion.name + ".dus_copy";
    copy.summary = "result = operand";
    copy.bindings = bindings;
    copy.grid = {static_cast<uint32_t>((words + wg - 1) / wg), 1, 1};
    copy.skip_in_place = true;
    ShaderPrelude prelude;
    copy.glsl = AssembleShader(prelude, bindings, wg, "dynamic_update_slice copy " + fusion.name,
                               fmt::format("  uint i = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + "
                                           "gl_LocalInvocationID.x;\n  if (i < {}u) in1[i] = in0[i];\n",
                                           wg, words));
    kernel.dispatches.push_back(std::move(copy));
  }

  // Dispatch 2: the update's elements. Binds every input but the operand, then the result.
  std::vector<KernelBuffer> bindings;
  ShaderPrelude prelude;
  std::unordered_map<const ir::Value*, InputBinding> loads;
  for (const ir::Value* v : fusion.inputs) {
    if (v == operand) continue;
    loads[v] = InputBinding{static_cast<int>(bindings.size()), v->type().element_type()};
    bindings.push_back(KernelBuffer::Read(v));
  }
  const size_t out = bindings.size();
  bindings.push_back(KernelBuffer::Write(op.result(0)));
  ElementalEmitter em(target, prelude, [&](const ir::Value* v) -> std::optional<InputBinding> {
    auto it = loads.find(v);
    if (it == loads.end()) return std::nullopt;
    return it->second;
  });
  em.set_source_name(options.source_name);
  const int64_t total = update->type().num_elements();
  em.Line(fmt::format("uint i = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x;", wg));
  em.Line(fmt::format("if (i >= {}) return;", UintLiteral(static_cast<uint64_t>(std::max<int64_t>(total, 0)))));
  const Index update_index = Index::Linear(ud, "i");
  std::vector<std::string> u = em.Multi(update_index);
  std::vector<std::string> full(od.size());
  for (size_t d = 0; d < od.size(); ++d) {
    if (ud[d] > od[d]) return em.OpError(op, "has an update larger than its operand");
    VKHLO_ASSIGN_OR_RETURN(Expr start, em.Operand(op, d + 2, Index::Scalar()));
    VKHLO_ASSIGN_OR_RETURN(std::string clamped, ClampedIndex(em, op, start, od[d] - ud[d]));
    full[d] = em.Var("int", fmt::format("{} + {}", clamped, u[d]));
  }
  const std::string t = em.Linear(Index::Multi(od, full));
  VKHLO_ASSIGN_OR_RETURN(Expr value, em.Operand(op, 1, update_index));
  const Expr raw = em.Raw(value);
  const std::string word = em.Var(std::string(facts.raw_glsl), raw.code);
  if (facts.storage_bits < 32) {
    const int per = 32 / facts.storage_bits;
    const std::string mask = fmt::format("{}u", (1u << facts.storage_bits) - 1);
    const std::string shift = em.Var("uint", fmt::format("uint({} % {}) * {}u", t, per, facts.storage_bits));
    const std::string at = em.Var("uint", fmt::format("uint({} / {})", t, per));
    em.Line(fmt::format("atomicAnd(in{}[{}], ~({} << {}));", out, at, mask, shift));
    em.Line(fmt::format("atomicOr(in{}[{}], ({} & {}) << {});", out, at, word, mask, shift));
  } else if (facts.storage_bits == 32) {
    em.Line(fmt::format("in{}[{}] = {};", out, t, word));
  } else {
    const int words = facts.storage_bits / 32;
    for (int w = 0; w < words; ++w) {
      em.Line(fmt::format("in{}[{}u * uint({}) + {}u] = {}[{}];", out, words, t, w, word, w));
    }
  }
  VKHLO_RETURN_IF_ERROR(em.sticky_error());
  KernelDispatch apply;
  apply.name = fusion.name + ".dus_update";
  apply.summary = "one invocation per update element";
  apply.bindings = bindings;
  apply.grid = {static_cast<uint32_t>((static_cast<uint64_t>(std::max<int64_t>(total, 0)) + wg - 1) / wg), 1, 1};
  apply.glsl = AssembleShader(prelude, bindings, wg,
                              fmt::format("dynamic_update_slice {} over {} update elements", fusion.name, total),
                              em.body());
  kernel.dispatches.push_back(std::move(apply));
  kernel.in_place.push_back(InPlaceOutput{0, operand_input, StorageByteSize(element, total)});
  return kernel;
}

bool AcceptsInPlace(const Operation& op) { return DynamicUpdateSliceRunsInPlace(op); }

}  // namespace

void RegisterDynamicUpdateSliceInPlaceKernels(DeviceKernelTable& table) {
  table.Register(ir::OpCode::kDynamicUpdateSlice, {&EmitDynamicUpdateSliceInPlace, &AcceptsInPlace});
}

}  // namespace vkhlo::codegen
