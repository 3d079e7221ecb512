// Argument refinement: the entry's parameters take the static types of the arguments it will
// run with, and its shape arguments become the constants they will hold.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "ir/literal.h"
#include "ir/walk.h"
#include "passes/op_builder.h"
#include "passes/shapes/refine.h"
#include "verify/diagnostic.h"

namespace vkhlo::passes::shapes {
namespace {

// Why `given` cannot stand for `declared` ("" when it can).
std::string Mismatch(const ir::Type& declared, const ir::Type& given) {
  if (!given.is_static()) return "the argument's type must be static";
  if (declared.kind() != given.kind()) return "a different kind of type";
  if (!declared.is_tensor()) return declared == given ? "" : "a different type";
  if (declared.rank() != given.rank()) return fmt::format("rank {}, given rank {}", declared.rank(), given.rank());
  // An `index` parameter takes i64 data (the same thing: 64-bit integers).
  const ir::Type as_declared = declared.is_index() && given.element_type() == ir::ElementType::kS64 && !given.is_quantized()
                                   ? ir::Type::IndexTensor(given.dims())
                                   : given;
  if (as_declared.WithDims(declared.dims()) != declared.WithBounds({})) return "a different element type";
  for (int64_t d = 0; d < declared.rank(); ++d) {
    if (!declared.is_dynamic_dim(d) && declared.dim(d) != given.dim(d)) {
      return fmt::format("dimension {} is {}, given {}", d, declared.dim(d), given.dim(d));
    }
    const std::vector<int64_t>& bounds = declared.bounds();
    if (declared.is_dynamic_dim(d) && !bounds.empty() && !ir::IsDynamicDim(bounds[static_cast<size_t>(d)]) &&
        given.dim(d) > bounds[static_cast<size_t>(d)]) {
      return fmt::format("dimension {} is bounded by {}, given {}", d, bounds[static_cast<size_t>(d)], given.dim(d));
    }
  }
  return "";
}

// Whether `value` is representable in the integer element type of `type`.
bool Fits(const ir::Type& type, int64_t value) {
  const int bits = ir::BitWidth(type.element_type());
  if (bits >= 64) return !ir::IsUnsignedInteger(type.element_type()) || value >= 0;
  if (ir::IsUnsignedInteger(type.element_type())) return value >= 0 && value < (int64_t{1} << bits);
  return value >= -(int64_t{1} << (bits - 1)) && value < (int64_t{1} << (bits - 1));
}

}  // namespace

Status RefineArguments(ir::Module& module, std::string_view entry, const RefinementInputs& inputs) {
  ir::Function* function = module.FindFunction(entry);
  if (function == nullptr || function->body().empty()) {
    return NotFoundError(fmt::format("{}: no function @{} to specialise", module.source_name(), entry));
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> shape_arguments, ShapeArguments(module, entry));
  ir::FunctionType type = function->type();
  if (inputs.argument_types.size() != type.inputs.size()) {
    return InvalidArgumentError(fmt::format("@{} takes {} arguments, given {} argument types", entry,
                                            type.inputs.size(), inputs.argument_types.size()));
  }
  ir::Block& body = function->body().front();
  // Errors are located at the function ("file:line:col: error: argument 1 of @main: ...").
  const std::string at = verify::LocationPrefix(module.source_name(), function->location()) + "error: ";
  for (size_t i = 0; i < type.inputs.size(); ++i) {
    const ir::Type& declared = type.inputs[i];
    const ir::Type& given = inputs.argument_types[i];
    const std::string why = Mismatch(declared, given);
    if (!why.empty()) {
      return InvalidArgumentError(fmt::format("{}argument {} of @{}: expected {}, found {} ({})", at, i, entry,
                                              declared.ToString(), given.ToString(), why));
    }
    ir::Type refined = declared.is_tensor() ? declared.WithDims(given.dims()) : declared;
    type.inputs[i] = refined;
    body.argument(i)->set_type(std::move(refined));
  }
  function->set_type(type);

  for (const auto& [index, value] : inputs.argument_values) {
    if (std::find(shape_arguments.begin(), shape_arguments.end(), index) == shape_arguments.end()) {
      return InvalidArgumentError(fmt::format("{}argument {} of @{} is given a value ({}), but it does not decide "
                                              "shapes (the shape arguments are {})", at, index, entry, value,
                                              fmt::join(shape_arguments, ", ")));
    }
  }
  ir::ValueMap constants;
  OpBuilder builder(body, 0, function->location());
  for (int64_t index : shape_arguments) {
    const ir::Type& t = type.inputs[static_cast<size_t>(index)];
    auto it = inputs.argument_values.find(index);
    if (it == inputs.argument_values.end()) {
      return InvalidArgumentError(fmt::format("{}argument {} of @{} ({}) decides shapes: its value is needed to "
                                              "specialise the program", at, index, entry, t.ToString()));
    }
    if (!Fits(t, it->second)) {
      return InvalidArgumentError(fmt::format("{}argument {} of @{}: the value {} does not fit {}", at, index, entry,
                                              it->second, t.ToString()));
    }
    VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ir::Literal::Create(t));
    literal.SetInt(0, it->second);
    constants[body.argument(static_cast<size_t>(index))] = builder.Constant(std::move(literal));
  }
  VKHLO_RETURN_IF_ERROR(builder.status());
  ir::ReplaceUses(function->body(), constants);
  return OkStatus();
}

}  // namespace vkhlo::passes::shapes
