// Shape refinement across calls and control flow (refiner.h): a call to a polymorphic function
// goes to a copy specialised for the call's argument types and constant scalar arguments (JAX
// passes the values of the symbolic dimensions that way); while/if/case regions are refined
// with the static types of what flows into them.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/literal.h"
#include "ir/walk.h"
#include "passes/constant_values.h"
#include "passes/op_builder.h"
#include "passes/op_properties.h"
#include "passes/shapes/refiner.h"
#include "verify/op_context.h"

namespace vkhlo::passes::shapes {
namespace {

using ir::OpCode;
using ir::Type;

const std::string* CalleeName(const ir::Operation& call) {
  const ir::Attribute* callee = call.attribute("callee");
  const ir::SymbolRef* symbol = callee ? callee->as<ir::SymbolRef>() : nullptr;
  return symbol ? &symbol->name : nullptr;
}

// A scalar integer (or boolean) constant's value (JAX's dimension arguments, and the
// predicates computed from them), or nullopt.
std::optional<int64_t> ScalarConstant(const ir::Value* value) {
  const ir::Literal* literal = ConstantLiteral(value);
  if (literal == nullptr || literal->type().rank() != 0 || literal->type().is_quantized() ||
      !(ir::IsInteger(literal->element_type()) || ir::IsBoolean(literal->element_type()))) {
    return std::nullopt;
  }
  return literal->GetInt(0);
}

std::string TypesText(const std::vector<Type>& types) {
  std::string s;
  for (const Type& t : types) s += t.ToString() + ",";
  return s;
}

std::vector<Type> ReturnedTypes(const ir::Region& region) {
  std::vector<Type> types;
  if (region.empty() || region.front().back() == nullptr) return types;
  for (const ir::Value* v : region.front().back()->operands()) types.push_back(v->type());
  return types;
}

}  // namespace

bool Refiner::IsFunctionPolymorphic(const ir::Function& function) {
  auto it = polymorphic_.find(function.name());
  if (it != polymorphic_.end()) return it->second;
  polymorphic_[function.name()] = false;  // provisional: mutual recursion ends here
  bool dynamic = false;
  for (const auto* types : {&function.type().inputs, &function.type().results}) {
    for (const Type& t : *types) dynamic |= !t.is_static();
  }
  ir::WalkOps(function.body(), [&](ir::Operation& op) {
    for (size_t i = 0; i < op.num_results(); ++i) dynamic |= !op.result(i)->type().is_static();
    // Calls to polymorphic functions need the constants too; their callees say so themselves.
    if (op.code() == OpCode::kCall) {
      const std::string* name = CalleeName(op);
      const ir::Function* callee = name ? module_.FindFunction(*name) : nullptr;
      if (callee != nullptr && callee != &function && !active_.contains(callee->name())) {
        dynamic |= IsFunctionPolymorphic(*callee);
      }
    }
  });
  polymorphic_[function.name()] = dynamic;
  return dynamic;
}

StatusOr<ir::Function*> Refiner::Specialization(const ir::Function& callee, const ir::Operation& call) {
  std::vector<Type> types;
  for (const ir::Value* v : call.operands()) types.push_back(v->type());
  std::string key = callee.name() + "(" + TypesText(types) + ")";
  std::vector<std::optional<int64_t>> constants;
  for (size_t i = 0; i < call.num_operands(); ++i) {
    constants.push_back(ScalarConstant(call.operand(i)));
    key += constants.back() ? fmt::format("{}={};", i, *constants.back()) : "";
  }
  auto known = specialized_.find(key);
  if (known != specialized_.end()) return module_.FindFunction(known->second);
  if (active_.contains(callee.name())) {
    return OpError(call, fmt::format("calls @{} recursively: recursion through functions with dynamic shapes cannot "
                                     "be specialised", callee.name()),
                   module_.source_name());
  }
  if (types.size() != callee.type().inputs.size()) {
    return OpError(call, fmt::format("passes {} arguments to @{}, which takes {}", types.size(), callee.name(),
                                     callee.type().inputs.size()),
                   module_.source_name());
  }
  std::string name;
  for (int n = static_cast<int>(specialized_.size());; ++n) {
    name = fmt::format("{}_specialized_{}", callee.name(), n);
    if (module_.FindFunction(name) == nullptr) break;
  }
  std::unique_ptr<ir::Function> copy = ir::CloneFunction(callee, name);
  copy->set_visibility("private");
  ir::FunctionType type = copy->type();
  ir::Block& body = copy->body().front();
  ir::ValueMap substituted;
  OpBuilder builder(body, 0, callee.location());
  for (size_t i = 0; i < types.size(); ++i) {
    if (!types[i].is_static() || !verify::CompatibleExact(types[i], type.inputs[i].WithBounds({}))) {
      return OpError(call, fmt::format("passes {} as argument {} of @{}, which takes {}", types[i].ToString(), i,
                                       callee.name(), type.inputs[i].ToString()),
                     module_.source_name());
    }
    type.inputs[i] = types[i];
    body.argument(i)->set_type(types[i]);
    if (constants[i]) {
      VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ir::Literal::Create(types[i]));
      literal.SetInt(0, *constants[i]);
      substituted[body.argument(i)] = builder.Constant(std::move(literal));
    }
  }
  VKHLO_RETURN_IF_ERROR(builder.status());
  ir::ReplaceUses(copy->body(), substituted);
  copy->set_type(type);
  ir::Function* added = module_.AddFunction(std::move(copy));
  specialized_[key] = name;
  polymorphic_[name] = false;
  VKHLO_RETURN_IF_ERROR(RefineFunction(*added));
  return added;
}

Status Refiner::RefineCall(ir::Operation& call) {
  const std::string* name = CalleeName(call);
  ir::Function* callee = name ? module_.FindFunction(*name) : nullptr;
  if (callee == nullptr) return OkStatus();  // the verifier names the missing function
  bool needs_copy = IsFunctionPolymorphic(*callee);
  if (!needs_copy) {
    for (size_t i = 0; i < call.num_operands() && i < callee->type().inputs.size(); ++i) {
      needs_copy |= call.operand(i)->type() != callee->type().inputs[i];
    }
  }
  if (!needs_copy) {
    // Sizes computed by a static function from constant sizes (JAX's floor_divide of a
    // dimension): a copy with the constants folds, and its integer results with it.
    bool constant_argument = false, integer_result = false;
    for (const ir::Value* v : call.operands()) constant_argument |= ScalarConstant(v).has_value();
    for (size_t i = 0; i < call.num_results(); ++i) {
      const Type& t = call.result(i)->type();
      integer_result |= t.is_tensor() && !t.is_quantized() && t.num_elements() >= 0 && t.num_elements() <= 1024 &&
                        (ir::IsInteger(t.element_type()) || ir::IsBoolean(t.element_type()));
    }
    needs_copy = constant_argument && integer_result;
  }
  if (!needs_copy) return OkStatus();
  VKHLO_ASSIGN_OR_RETURN(ir::Function* specialized, Specialization(*callee, call));
  const std::vector<Type>& results = specialized->type().results;
  if (results.size() != call.num_results()) {
    return OpError(call, fmt::format("expects {} results from @{}, which returns {}", call.num_results(), *name,
                                     results.size()),
                   module_.source_name());
  }
  VKHLO_RETURN_IF_ERROR(TakeResultTypes(call, results));
  call.SetAttribute("callee", ir::Attribute::Symbol(specialized->name()));
  return OkStatus();
}

Status Refiner::FoldCallResults(ir::Block& block, size_t index) {
  ir::Operation& call = *block.operations()[index];
  const std::string* name = CalleeName(call);
  const ir::Function* callee = name ? module_.FindFunction(*name) : nullptr;
  if (callee == nullptr || callee->body().empty()) return OkStatus();
  const ir::Operation* ret = callee->body().front().back();
  if (ret == nullptr || ret->num_operands() != call.num_results()) return OkStatus();
  OpBuilder builder(block, index + 1, call.location());
  for (size_t i = 0; i < call.num_results(); ++i) {
    const ir::Literal* literal = ConstantLiteral(ret->operand(i));
    const Type& type = call.result(i)->type();
    if (literal == nullptr || literal->type() != type || type.is_quantized() || type.num_elements() > 1024 ||
        !(ir::IsInteger(type.element_type()) || ir::IsBoolean(type.element_type()))) {
      continue;
    }
    replaced_[call.result(i)] = builder.Constant(*literal);
  }
  return builder.status();
}

Status Refiner::RefineWhile(ir::Operation& op) {
  if (op.num_regions() != 2) return OkStatus();  // the verifier says what is wrong
  std::vector<Type> state;
  for (const ir::Value* v : op.operands()) state.push_back(v->type());
  for (size_t r = 0; r < 2; ++r) {
    if (op.region(r).empty()) return OkStatus();
    ir::Block& block = op.region(r).front();
    if (block.num_arguments() != state.size()) return OkStatus();
    for (size_t i = 0; i < state.size(); ++i) block.argument(i)->set_type(state[i]);
    VKHLO_RETURN_IF_ERROR(RefineBlock(block));
  }
  const std::vector<Type> next = ReturnedTypes(op.region(1));
  if (next != state) {
    std::vector<std::string> a, b;
    for (const Type& t : state) a.push_back(t.ToString());
    for (const Type& t : next) b.push_back(t.ToString());
    return OpError(op, fmt::format("body changes the types of the loop state for these argument shapes: it takes ({}) "
                                   "and returns ({}); a loop whose state changes shape cannot be compiled",
                                   fmt::join(a, ", "), fmt::join(b, ", ")),
                   module_.source_name());
  }
  return TakeResultTypes(op, state);
}

Status Refiner::RefineBranches(ir::Operation& op) {
  std::vector<Type> first;
  for (size_t r = 0; r < op.num_regions(); ++r) {
    if (op.region(r).empty()) return OkStatus();
    VKHLO_RETURN_IF_ERROR(RefineBlock(op.region(r).front()));
    const std::vector<Type> returned = ReturnedTypes(op.region(r));
    if (r == 0) {
      first = returned;
    } else if (returned != first) {
      return OpError(op, fmt::format("branches 0 and {} return different types for these argument shapes: ({}) and ({})",
                                     r, TypesText(first), TypesText(returned)),
                     module_.source_name());
    }
  }
  return TakeResultTypes(op, first);
}

Status Refiner::TakeResultTypes(ir::Operation& op, const std::vector<Type>& types) {
  for (size_t i = 0; i < op.num_results() && i < types.size(); ++i) {
    if (!verify::CompatibleExact(types[i], op.result(i)->type().WithBounds({}))) {
      return OpError(op, fmt::format("result {} is {} for these argument shapes, but its type is {}", i,
                                     types[i].ToString(), op.result(i)->type().ToString()),
                     module_.source_name());
    }
    op.result(i)->set_type(types[i]);
  }
  return OkStatus();
}

}  // namespace vkhlo::passes::shapes
