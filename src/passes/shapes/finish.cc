// Shape refinement, end to end (refine.h): the refined entry keeps only what it reaches,
// `index` tensors become i64 (the same 64-bit integers; the compiler knows no `index`), every
// type must be static, and the result is verified. Also the `refine-shapes` pass.
#include <fmt/format.h>

#include <deque>
#include <unordered_set>

#include "ir/walk.h"
#include "passes/op_properties.h"
#include "passes/shapes/refine.h"
#include "passes/shapes/refiner.h"
#include "verify/verifier.h"

namespace vkhlo::passes::shapes {
namespace {

void CollectSymbols(const ir::Attribute& attribute, std::vector<std::string>& out) {
  if (const auto* symbol = attribute.as<ir::SymbolRef>()) out.push_back(symbol->name);
  if (const auto* array = attribute.as<ir::Attribute::Array>()) {
    for (const ir::Attribute& element : *array) CollectSymbols(element, out);
  }
}

// Keeps `entry` and the functions it refers to, transitively (calls, called_computations, a
// composite's decomposition); the rest (the generic copies of specialised callees, other
// public functions) goes.
void DropUnreachable(ir::Module& module, std::string_view entry) {
  std::unordered_set<std::string> reached = {std::string(entry)};
  std::deque<std::string> work = {std::string(entry)};
  while (!work.empty()) {
    const ir::Function* function = module.FindFunction(work.front());
    work.pop_front();
    if (function == nullptr) continue;
    ir::WalkOps(function->body(), [&](ir::Operation& op) {
      std::vector<std::string> names;
      for (const ir::NamedAttribute& a : op.attributes()) CollectSymbols(a.second, names);
      for (std::string& name : names) {
        if (reached.insert(name).second) work.push_back(std::move(name));
      }
    });
  }
  std::vector<std::string> dropped;
  for (const auto& function : module.functions()) {
    if (!reached.contains(function->name())) dropped.push_back(function->name());
  }
  for (const std::string& name : dropped) module.RemoveFunction(name);
}

ir::Type WithoutIndex(const ir::Type& type) {
  if (type.is_tuple()) {
    std::vector<ir::Type> elements;
    for (const ir::Type& e : type.tuple_elements()) elements.push_back(WithoutIndex(e));
    return ir::Type::Tuple(std::move(elements));
  }
  return type.is_index() ? type.WithElementType(ir::ElementType::kS64) : type;
}

Status IndexToI64(ir::Module& module) {
  Status status = OkStatus();
  const auto retype = [](ir::Value* v) { v->set_type(WithoutIndex(v->type())); };
  for (const auto& function : module.functions()) {
    ir::FunctionType type = function->type();
    for (ir::Type& t : type.inputs) t = WithoutIndex(t);
    for (ir::Type& t : type.results) t = WithoutIndex(t);
    function->set_type(std::move(type));
    for (const auto& block : function->body().blocks()) {
      for (const auto& argument : block->arguments()) retype(argument.get());
    }
    ir::WalkOps(function->body(), [&](ir::Operation& op) {
      for (size_t i = 0; i < op.num_results(); ++i) retype(op.result(i));
      for (size_t r = 0; r < op.num_regions(); ++r) {
        for (const auto& block : op.region(r).blocks()) {
          for (const auto& argument : block->arguments()) retype(argument.get());
        }
      }
      const ir::Attribute* value = op.code() == ir::OpCode::kConstant ? op.attribute("value") : nullptr;
      const ir::Literal* literal = value ? value->AsDenseElements() : nullptr;
      if (literal != nullptr && literal->type().is_index() && status.ok()) {
        auto plain = ir::Literal::FromBytes(WithoutIndex(literal->type()),
                                            std::vector<uint8_t>(literal->raw().begin(), literal->raw().end()));
        if (!plain.ok()) {
          status = plain.status();
          return;
        }
        op.SetAttribute("value", ir::Attribute::Dense(std::move(*plain)));
      }
    });
  }
  return status;
}

// The first value whose type is still dynamic: an error naming its op.
Status RequireStatic(const ir::Module& module) {
  Status status = OkStatus();
  for (const auto& function : module.functions()) {
    for (const auto* types : {&function->type().inputs, &function->type().results}) {
      for (const ir::Type& t : *types) {
        if (!t.is_static()) {
          return InvalidArgumentError(fmt::format("{}: error: @{} still has the dynamic type {} after shape "
                                                  "refinement", module.source_name(), function->name(), t.ToString()));
        }
      }
    }
    ir::WalkOps(function->body(), [&](ir::Operation& op) {
      for (size_t i = 0; i < op.num_results() && status.ok(); ++i) {
        if (!op.result(i)->type().is_static()) {
          status = InvalidArgumentError(fmt::format(
              "{}error: '{}' result {} still has the dynamic type {} after shape refinement",
              ir::FormatLocation(module.source_name(), op.location()) + ": ",
              op.name(), i, op.result(i)->type().ToString()));
        }
      }
    });
    VKHLO_RETURN_IF_ERROR(status);
  }
  return OkStatus();
}

class RefineShapesPass : public Pass {
 public:
  std::string_view name() const override { return "refine-shapes"; }
  StatusOr<bool> Run(ir::Module& module) override {
    if (!NeedsRefinement(module)) return false;
    VKHLO_RETURN_IF_ERROR(RefineShapes(module, "main"));
    return true;
  }
};

}  // namespace

Status RefineShapes(ir::Module& module, std::string_view entry) {
  ir::Function* function = module.FindFunction(entry);
  if (function == nullptr || function->body().empty()) {
    return NotFoundError(fmt::format("{}: no function @{} to refine", module.source_name(), entry));
  }
  for (size_t i = 0; i < function->type().inputs.size(); ++i) {
    if (!function->type().inputs[i].is_static()) {
      return InvalidArgumentError(fmt::format("{}: error: argument {} of @{} has the dynamic type {}: shapes are "
                                              "refined from static argument types (give them first)",
                                              module.source_name(), i, entry,
                                              function->type().inputs[i].ToString()));
    }
  }
  Refiner refiner(module);
  VKHLO_RETURN_IF_ERROR(refiner.RefineFunction(*function));
  DropUnreachable(module, entry);
  // The folded shape arithmetic leaves constants nobody reads.
  for (const auto& f : module.functions()) RemoveUnusedPureOps(f->body());
  VKHLO_RETURN_IF_ERROR(IndexToI64(module));
  VKHLO_RETURN_IF_ERROR(RequireStatic(module));
  Status verified = verify::VerifyModule(module);
  if (!verified.ok()) {
    return Status(verified.code(), std::string(verified.message()) + " (after shape refinement)");
  }
  return OkStatus();
}

StatusOr<std::unique_ptr<ir::Module>> Specialize(const ir::Module& module, std::string_view entry,
                                                 const RefinementInputs& inputs) {
  std::unique_ptr<ir::Module> copy = ir::CloneModule(module);
  VKHLO_RETURN_IF_ERROR(RefineArguments(*copy, entry, inputs));
  VKHLO_RETURN_IF_ERROR(RefineShapes(*copy, entry));
  return copy;
}

std::unique_ptr<Pass> CreateRefineShapesPass() { return std::make_unique<RefineShapesPass>(); }

}  // namespace vkhlo::passes::shapes
