#include "codegen/indexing/scatter_by_updates.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/index_util.h"
#include "codegen/in_place.h"
#include "codegen/indexing/element_dispatch.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }
int64_t Position(const std::vector<int64_t>& v, int64_t x) {
  return static_cast<int64_t>(std::find(v.begin(), v.end(), x) - v.begin());
}

// "atomicAdd", "atomicMin" or "atomicMax" when the update computation is that op on its two
// arguments over a 32-bit integer type; "" otherwise.
std::string AtomicFunction(const Operation& op) {
  if (op.num_operands() != 3 || op.num_regions() != 1 || op.region(0).blocks().size() != 1) return "";
  const ir::ElementType type = op.operand(0)->type().element_type();
  if (!ir::IsInteger(type) || ir::BitWidth(type) != 32) return "";
  const ir::Block& block = op.region(0).front();
  if (block.num_arguments() != 2 || block.operations().size() != 2) return "";
  const ir::Operation& combine = *block.operations().front();
  const ir::Operation& ret = *block.operations().back();
  if (ret.num_operands() != 1 || ret.operand(0) != combine.result(0) || combine.num_operands() != 2) return "";
  const bool args = (combine.operand(0) == block.argument(0) && combine.operand(1) == block.argument(1)) ||
                    (combine.operand(0) == block.argument(1) && combine.operand(1) == block.argument(0));
  if (!args) return "";
  switch (combine.code()) {
    case ir::OpCode::kAdd: return "atomicAdd";
    case ir::OpCode::kMinimum: return "atomicMin";
    case ir::OpCode::kMaximum: return "atomicMax";
    default: return "";
  }
}

bool UniqueIndices(const Operation& op) {
  const ir::Attribute* a = op.attribute("unique_indices");
  return a != nullptr && a->AsBool().value_or(false);
}

}  // namespace

StatusOr<std::optional<DeviceKernel>> EmitScatterByUpdates(const Fusion& fusion, const TargetInfo& target,
                                                           const KernelOptions& options) {
  const Operation& op = *fusion.device_op;
  const ir::Attribute* attr = op.attribute("scatter_dimension_numbers");
  const ir::ScatterDimensionNumbers* dn = attr ? attr->as<ir::ScatterDimensionNumbers>() : nullptr;
  if (dn == nullptr) return std::optional<DeviceKernel>();
  const size_t n = (op.num_operands() - 1) / 2;
  const std::string atomic = AtomicFunction(op);
  bool unique = UniqueIndices(op);
  for (size_t k = 0; k < n; ++k) {
    unique = unique && GetTypeFacts(op.operand(k)->type().element_type(), target).storage_bits >= 32;
  }
  if (atomic.empty() && !unique) return std::optional<DeviceKernel>();
  if (fusion.outputs.size() != n) return std::optional<DeviceKernel>();

  std::unordered_map<const ir::Value*, int> input_binding;
  for (size_t i = 0; i < fusion.inputs.size(); ++i) input_binding[fusion.inputs[i]] = static_cast<int>(i);
  std::vector<KernelBuffer> bindings;
  for (const ir::Value* v : fusion.inputs) bindings.push_back(KernelBuffer::Read(v));
  for (const ir::Value* v : fusion.outputs) bindings.push_back(KernelBuffer::Write(v));
  const uint32_t wg = ChooseLoopConfig(target, 1).workgroup_size;
  const size_t first_output = fusion.inputs.size();

  DeviceKernel kernel;
  kernel.summary = atomic.empty() ? "scatter (unique indices): copy, then one invocation per update element"
                                  : "scatter (" + atomic + "): copy, then one invocation per update element";
  // Dispatch 1: results = inputs, word by word.
  {
    uint64_t max_words = 0;
    std::string body;
    for (size_t k = 0; k < n; ++k) {
      const ir::Type& type = op.operand(k)->type();
      const uint64_t words = (StorageByteSize(type.element_type(), type.num_elements()) + 3) / 4;
      max_words = std::max(max_words, words);
      body += fmt::format("  if (i < {}u) in{}[i] = in{}[i];\n", words, first_output + k, input_binding.at(op.operand(k)));
    }
    KernelDispatch copy;
    copy.skip_in_place = true;  // when every result takes its input's buffer (below)
    copy.name = fusion.name + ".scatter_copy";
    copy.summary = "results = inputs";
    copy.bindings = bindings;
    copy.grid = {static_cast<uint32_t>((max_words + wg - 1) / wg), 1, 1};
    ShaderPrelude prelude;
    copy.glsl = AssembleShader(prelude, bindings, wg, "scatter copy " + fusion.name,
                               fmt::format("  uint i = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + "
                                           "gl_LocalInvocationID.x;\n{}",
                                           wg, body));
    kernel.dispatches.push_back(std::move(copy));
  }

  // Dispatch 2: one invocation per update element.
  const ir::Value* indices = op.operand(n);
  const std::vector<int64_t>& od = op.operand(0)->type().dims();
  const std::vector<int64_t>& id = indices->type().dims();
  const std::vector<int64_t>& ud = op.operand(n + 1)->type().dims();
  const int64_t ivd = dn->index_vector_dim;
  const int64_t total = op.operand(n + 1)->type().num_elements();
  std::vector<int64_t> update_scatter_dims, window_input_dims;
  for (int64_t d = 0; d < static_cast<int64_t>(ud.size()); ++d) {
    if (!Contains(dn->update_window_dims, d)) update_scatter_dims.push_back(d);
  }
  for (int64_t d = 0; d < static_cast<int64_t>(od.size()); ++d) {
    if (!Contains(dn->inserted_window_dims, d) && !Contains(dn->input_batching_dims, d)) window_input_dims.push_back(d);
  }
  ShaderPrelude prelude;
  ElementalEmitter em(target, prelude, ElementalEmitter::InputsInOrder(fusion.inputs));
  em.set_source_name(options.source_name);
  em.Line(fmt::format("uint i = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x;", wg));
  em.Line(fmt::format("if (i >= {}) return;", UintLiteral(static_cast<uint64_t>(std::max<int64_t>(total, 0)))));
  const Index update_index = Index::Linear(ud, "i");
  std::vector<std::string> u = em.Multi(update_index);
  auto indices_index = [&](int64_t component) {
    std::vector<std::string> m;
    for (int64_t d = 0, b = 0; d < static_cast<int64_t>(id.size()); ++d) {
      m.push_back(d == ivd ? std::to_string(component)
                           : u[static_cast<size_t>(update_scatter_dims[static_cast<size_t>(b++)])]);
    }
    return Index::Multi(id, m);
  };
  std::vector<std::string> full(od.size()), conditions;
  for (int64_t d = 0; d < static_cast<int64_t>(od.size()); ++d) {
    std::string start = "0";
    if (Contains(dn->scatter_dims_to_operand_dims, d)) {
      VKHLO_ASSIGN_OR_RETURN(Expr value,
                             em.Operand(op, n, indices_index(Position(dn->scatter_dims_to_operand_dims, d))));
      VKHLO_ASSIGN_OR_RETURN(start, SaturatedIndex(em, op, value));
    }
    std::string& f = full[static_cast<size_t>(d)];
    if (Contains(dn->input_batching_dims, d)) {
      const int64_t s = dn->scatter_indices_batching_dims[static_cast<size_t>(Position(dn->input_batching_dims, d))];
      f = u[static_cast<size_t>(update_scatter_dims[static_cast<size_t>(s < ivd ? s : s - 1)])];
    } else if (Contains(dn->inserted_window_dims, d)) {
      f = start;
    } else {
      const int64_t w = dn->update_window_dims[static_cast<size_t>(Position(window_input_dims, d))];
      f = em.Var("int", fmt::format("{} + {}", start, u[static_cast<size_t>(w)]));
    }
    conditions.push_back(fmt::format("uint({}) < {}u", f, od[static_cast<size_t>(d)]));
  }
  em.Open(fmt::format("if ({})", conditions.empty() ? "true" : fmt::format("{}", fmt::join(conditions, " && "))));
  const Index target_index = Index::Multi(od, full);
  const std::string t = em.Linear(target_index);
  std::vector<std::string> word_types;
  if (!atomic.empty()) {
    VKHLO_ASSIGN_OR_RETURN(Expr update, em.Operand(op, n + 1, update_index));
    const Expr raw = em.Raw(update);
    const bool is_signed = ir::IsSignedInteger(op.operand(0)->type().element_type()) && atomic != "atomicAdd";
    if (is_signed) {
      word_types.assign(bindings.size(), "");
      word_types[first_output] = "int";
    }
    em.Line(fmt::format("{}(in{}[{}], {}({}));", atomic, first_output, t, is_signed ? "int" : "uint", raw.code));
  } else {
    std::vector<Expr> arguments;
    for (size_t k = 0; k < n; ++k) {
      arguments.push_back(em.LoadWords(fmt::format("in{}", first_output + k), op.operand(k)->type().element_type(),
                                       Index::Linear(od, t)));
    }
    for (size_t k = 0; k < n; ++k) {
      VKHLO_ASSIGN_OR_RETURN(Expr update, em.Operand(op, n + 1 + k, update_index));
      arguments.push_back(update);
    }
    VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> results, EvaluateRegion(em, op, op.region(0), arguments));
    if (results.size() != n) return em.OpError(op, "has an update computation that does not return one value per input");
    for (size_t k = 0; k < n; ++k) {
      const int words = GetTypeFacts(results[k].type, target).storage_bits / 32;
      if (words == 1) {
        em.Line(fmt::format("in{}[{}] = {};", first_output + k, t, results[k].code));
      } else {
        for (int w = 0; w < words; ++w) {
          em.Line(fmt::format("in{}[{}u * {} + {}u] = {}[{}];", first_output + k, words, t, w, results[k].code, w));
        }
      }
    }
  }
  em.Close();
  VKHLO_RETURN_IF_ERROR(em.sticky_error());
  KernelDispatch apply;
  apply.name = fusion.name + ".scatter_updates";
  apply.summary = "one invocation per update element";
  apply.bindings = bindings;
  apply.grid = {static_cast<uint32_t>((static_cast<uint64_t>(std::max<int64_t>(total, 0)) + wg - 1) / wg), 1, 1};
  apply.glsl = AssembleShader(prelude, bindings, wg,
                              fmt::format("scatter {} over {} update elements", fusion.name, total), em.body(),
                              word_types);
  kernel.dispatches.push_back(std::move(apply));
  // In place (codegen/in_place.h): each input that dies here may hold its result, and then
  // only the updated elements are written.
  for (size_t k = 0; k < n; ++k) {
    auto it = input_binding.find(op.operand(k));
    bool distinct = true;  // an input given twice cannot become two results
    for (size_t j = 0; j < n; ++j) distinct = distinct && (j == k || op.operand(j) != op.operand(k));
    if (it == input_binding.end() || !distinct || !OperandDiesAt(op, k)) continue;
    const ir::Type& update_type = op.operand(n + 1 + k)->type();
    kernel.in_place.push_back(InPlaceOutput{static_cast<int>(k), it->second,
                                            StorageByteSize(update_type.element_type(), update_type.num_elements())});
  }
  return std::optional<DeviceKernel>(std::move(kernel));
}

}  // namespace vkhlo::codegen
