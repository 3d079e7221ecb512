#include "builder/builder_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "builder/type_conversion.h"
#include "ir/walk.h"
#include "verify/verifier.h"

namespace vkhlo::internal {
namespace {

using ir::OpCode;
using ir::Value;

// The verifier's message without its "error: " lead (the builder adds its own context).
std::string Detail(const Status& status) {
  std::string message = status.message();
  constexpr std::string_view kLead = "error: ";
  if (message.rfind(kLead, 0) == 0) message.erase(0, kLead.size());
  return message;
}

std::string ShapeText(const ir::Type& type) {
  StatusOr<Shape> shape = FromIrType(type);
  return shape.ok() ? shape->ToString() : type.ToString();
}

// Appends `op` to `block` and verifies it; a rejected op is removed again.
StatusOr<ir::Operation*> Append(ir::Block& block, std::unique_ptr<ir::Operation> op) {
  ir::Operation* raw = block.Append(std::move(op));
  if (Status verified = verify::VerifyOperation(*raw); !verified.ok()) {
    block.Remove(block.operations().size() - 1);
    return verified;
  }
  return raw;
}

// Attributes sorted by name, as the parser stores them (MLIR keeps dictionaries sorted), so a
// built op and its printed-and-parsed copy are equal.
std::vector<ir::NamedAttribute> Sorted(std::vector<ir::NamedAttribute> attributes) {
  std::stable_sort(attributes.begin(), attributes.end(),
                   [](const ir::NamedAttribute& a, const ir::NamedAttribute& b) { return a.first < b.first; });
  return attributes;
}

std::vector<ir::Type> TypesOf(const std::vector<Value*>& values) {
  std::vector<ir::Type> types;
  types.reserve(values.size());
  for (const Value* value : values) types.push_back(value->type());
  return types;
}

// Points func.call ops in and under `op` at the renamed functions.
void RenameCallees(ir::Operation& op, const std::map<std::string, std::string>& renamed) {
  auto rename = [&](ir::Operation& o) {
    if (o.code() != OpCode::kCall) return;
    const ir::Attribute* callee = o.attribute("callee");
    const ir::SymbolRef* symbol = callee == nullptr ? nullptr : callee->as<ir::SymbolRef>();
    if (symbol == nullptr) return;
    auto it = renamed.find(symbol->name);
    if (it != renamed.end()) o.SetAttribute("callee", ir::Attribute::Symbol(it->second));
  };
  rename(op);
  for (size_t i = 0; i < op.num_regions(); ++i) WalkOps(op.region(i), rename);
}

StatusOr<const ir::Function*> MainOf(const XlaComputation& computation) {
  if (computation.IsNull()) return InvalidArgumentError("the computation is empty (a default-constructed XlaComputation)");
  const ir::Function* main = ComputationAccess::Module(computation)->FindFunction("main");
  if (main == nullptr || main->body().empty()) {
    return InternalError("computation '" + computation.name() + "' has no main function");
  }
  return main;
}

// Copies `function` into the builder's module as a private function named `name`.
void CopyFunction(BuilderState& state, const ir::Function& function, const std::string& name,
                  const std::map<std::string, std::string>& renamed) {
  auto copy = std::make_unique<ir::Function>(name, function.type());
  copy->set_visibility("private");
  ir::ValueMap mapping;
  ir::CloneRegionInto(function.body(), copy->body(), mapping);
  for (const auto& block : copy->body().blocks()) {
    for (const auto& op : block->operations()) RenameCallees(*op, renamed);
  }
  state.module->AddFunction(std::move(copy));
}

// Imports the functions of `computation` other than main (reusing copies of the same
// computations already here); returns the record of the import.
StatusOr<ImportedComputation*> ImportFunctions(BuilderState& state, const XlaComputation& computation) {
  const std::shared_ptr<const ir::Module>& module = ComputationAccess::Module(computation);
  auto found = state.imports.find(module.get());
  if (found != state.imports.end()) return &found->second;
  const auto& origins = ComputationAccess::Origins(computation);
  ImportedComputation imported;
  imported.module = module;
  std::vector<const ir::Function*> to_copy;
  for (const auto& function : module->functions()) {
    if (function->name() == "main") continue;
    auto origin = origins.find(function->name());
    if (origin != origins.end()) {
      auto existing = state.origin_names.find(origin->second.get());
      if (existing != state.origin_names.end()) {
        imported.renamed[function->name()] = existing->second;
        continue;
      }
    }
    const std::string name = state.UniqueFunctionName(function->name());
    imported.renamed[function->name()] = name;
    // Reserve the name now so that later picks differ.
    state.module->AddFunction(std::make_unique<ir::Function>(name, ir::FunctionType{}));
    if (origin != origins.end()) {
      state.origin_names[origin->second.get()] = name;
      state.function_origins[name] = origin->second;
    }
    to_copy.push_back(function.get());
  }
  for (const ir::Function* function : to_copy) {
    const std::string& name = imported.renamed[function->name()];
    state.module->RemoveFunction(name);
    CopyFunction(state, *function, name, imported.renamed);
  }
  return &state.imports.emplace(module.get(), std::move(imported)).first->second;
}

}  // namespace

XlaOp BuilderState::Register(Value* value) {
  values.push_back(value);
  return BuilderAccess::MakeOp(static_cast<int64_t>(values.size()) - 1, self);
}

void BuilderState::Fail(Status error) {
  if (status.ok()) status = std::move(error);
}

std::string BuilderState::UniqueFunctionName(const std::string& base) const {
  std::string clean;
  for (char c : base) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-';
    clean += keep ? c : '_';
  }
  if (clean.empty() || std::isdigit(static_cast<unsigned char>(clean[0])) || clean[0] == '-') clean = "_" + clean;
  std::string name = clean;
  for (int suffix = 1; name == "main" || module->FindFunction(name) != nullptr; ++suffix) {
    name = fmt::format("{}_{}", clean, suffix);
  }
  return name;
}

Shape ShapeOfValue(const ir::Value* value) {
  StatusOr<Shape> shape = FromIrType(value->type());
  return shape.ok() ? *shape : Shape();
}

OpCall::OpCall(std::string_view op_name, XlaBuilder* builder, const std::vector<XlaOp>& operands)
    : op_name_(op_name), builder_(builder), operands_(operands) {
  if (builder_ == nullptr) {
    for (const XlaOp& op : operands) {
      if (op.builder() != nullptr) {
        builder_ = op.builder();
        break;
      }
    }
  }
  if (builder_ == nullptr) return;  // nowhere to build or to report to
  state_ = &BuilderAccess::State(*builder_);
  if (!state_->status.ok()) return;
  for (size_t i = 0; i < operands.size(); ++i) {
    const XlaOp& op = operands[i];
    if (op.IsUninitialized()) {
      Fail(InvalidArgumentError(fmt::format("operand {} is an uninitialized XlaOp", i)));
      return;
    }
    if (op.builder() != builder_) {
      Fail(InvalidArgumentError(fmt::format("operand {} was built by XlaBuilder '{}', not by this one", i,
                                            op.builder()->name())));
      return;
    }
    if (!op.valid() || op.handle() >= static_cast<int64_t>(state_->values.size())) {
      Fail(InvalidArgumentError(fmt::format("operand {} is not a value of this builder", i)));
      return;
    }
    values_.push_back(state_->value(op));
  }
  ok_ = true;
}

XlaOp OpCall::Invalid() const { return builder_ == nullptr ? XlaOp() : BuilderAccess::MakeOp(-1, builder_); }

XlaOp OpCall::Fail(const Status& error) {
  if (state_ == nullptr) return Invalid();
  std::vector<std::string> shapes;
  for (const XlaOp& op : operands_) {
    if (op.valid() && op.builder() == builder_ && op.handle() < static_cast<int64_t>(state_->values.size())) {
      shapes.push_back(ShapeText(state_->value(op)->type()));
    } else {
      shapes.push_back("?");
    }
  }
  state_->Fail(Status(error.code(), fmt::format("{}({}) in XlaBuilder '{}': {}", op_name_, fmt::join(shapes, ", "),
                                                state_->name, Detail(error))));
  ok_ = false;
  return Invalid();
}

XlaOp OpCall::Finish(const StatusOr<Value*>& result) {
  if (!ok_) return Invalid();
  if (!result.ok()) return Fail(result.status());
  return state_->Register(*result);
}

StatusOr<ir::Operation*> EmitInferred(BuilderState& state, ir::Block& block, OpCode code,
                                      std::vector<Value*> operands, std::vector<ir::NamedAttribute> attributes) {
  (void)state;
  VKHLO_ASSIGN_OR_RETURN(std::vector<ir::Type> results, verify::InferResultTypes(code, TypesOf(operands), attributes));
  return Append(block, ir::Operation::Create(code, std::move(operands), results, Sorted(std::move(attributes))));
}

StatusOr<ir::Operation*> EmitTyped(BuilderState& state, ir::Block& block, OpCode code, std::vector<Value*> operands,
                                   std::vector<ir::Type> result_types, std::vector<ir::NamedAttribute> attributes) {
  (void)state;
  return Append(block, ir::Operation::Create(code, std::move(operands), result_types, Sorted(std::move(attributes))));
}

StatusOr<ir::Operation*> EmitWithRegions(BuilderState& state, ir::Block& block, OpCode code,
                                         std::vector<Value*> operands, std::vector<ir::NamedAttribute> attributes,
                                         int num_regions, size_t num_results, const RegionFiller& fill,
                                         std::optional<std::vector<ir::Type>> result_types) {
  (void)state;
  const std::vector<ir::Type> operand_types = TypesOf(operands);
  std::vector<ir::Type> initial = result_types ? *result_types : std::vector<ir::Type>(num_results);
  attributes = Sorted(std::move(attributes));
  auto op = ir::Operation::Create(code, std::move(operands), initial, attributes, num_regions);
  VKHLO_RETURN_IF_ERROR(fill(*op));
  if (!result_types) {
    std::vector<const ir::Region*> regions;
    for (size_t i = 0; i < op->num_regions(); ++i) regions.push_back(&op->region(i));
    VKHLO_ASSIGN_OR_RETURN(std::vector<ir::Type> inferred,
                           verify::InferResultTypes(code, operand_types, attributes, regions));
    if (inferred.size() != op->num_results()) {
      return InternalError(fmt::format("'{}' was expected to give {} results, its operands imply {}",
                                       ir::GetOpInfo(code).name, op->num_results(), inferred.size()));
    }
    for (size_t i = 0; i < inferred.size(); ++i) op->result(i)->set_type(inferred[i]);
  }
  return Append(block, std::move(op));
}

StatusOr<Value*> EmitTupleOf(BuilderState& state, ir::Block& block, const std::vector<Value*>& values) {
  if (values.size() == 1) return values[0];
  VKHLO_ASSIGN_OR_RETURN(ir::Operation * op, EmitInferred(state, block, OpCode::kTuple, values));
  return op->result(0);
}

StatusOr<std::vector<Value*>> FlattenTuple(BuilderState& state, ir::Block& block, Value* value) {
  if (!value->type().is_tuple()) return std::vector<Value*>{value};
  if (value->defining_op() != nullptr && value->defining_op()->code() == OpCode::kTuple) {
    return value->defining_op()->operands();
  }
  std::vector<Value*> elements;
  for (size_t i = 0; i < value->type().tuple_elements().size(); ++i) {
    VKHLO_ASSIGN_OR_RETURN(ir::Operation * op,
                           EmitInferred(state, block, OpCode::kGetTupleElement, {value},
                                        {{"index", ir::Attribute::Int(static_cast<int64_t>(i), ir::ElementType::kS32)}}));
    elements.push_back(op->result(0));
  }
  return elements;
}

StatusOr<Value*> EmitConstant(BuilderState& state, ir::Block& block, ir::Literal literal) {
  ir::Type type = literal.type();
  VKHLO_ASSIGN_OR_RETURN(ir::Operation * op, EmitTyped(state, block, OpCode::kConstant, {}, {type},
                                                       {{"value", ir::Attribute::Dense(std::move(literal))}}));
  return op->result(0);
}

StatusOr<Value*> EmitScalar(BuilderState& state, ir::Block& block, ir::ElementType element, double value) {
  VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ir::Literal::Create(ir::Type::Scalar(element)));
  if (ir::IsComplex(element)) {
    literal.SetComplex(0, {value, 0.0});
  } else if (ir::IsFloat(element)) {
    literal.SetFloat(0, value);
  } else {
    literal.SetInt(0, static_cast<int64_t>(value));
  }
  return EmitConstant(state, block, std::move(literal));
}

StatusOr<Value*> EmitBroadcastInDim(BuilderState& state, ir::Block& block, Value* value,
                                    const std::vector<int64_t>& dims,
                                    const std::vector<int64_t>& broadcast_dimensions) {
  if (!value->type().is_tensor()) {
    return InvalidArgumentError("only arrays can be broadcast, not " + ShapeText(value->type()));
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Operation * op,
                         EmitTyped(state, block, OpCode::kBroadcastInDim, {value}, {value->type().WithDims(dims)},
                                   {{"broadcast_dimensions", I64Array(broadcast_dimensions)}}));
  return op->result(0);
}

ir::Attribute I64Array(const std::vector<int64_t>& values) { return ir::Attribute::I64Array(values); }
ir::Attribute I64Attr(int64_t value) { return ir::Attribute::Int(value, ir::ElementType::kS64); }
ir::Attribute BoolAttr(bool value) { return ir::Attribute::Bool(value); }
ir::Attribute EnumAttr(std::string kind, std::string value) {
  return ir::Attribute::Enum("stablehlo", std::move(kind), std::move(value));
}

ir::Attribute I64Matrix(const std::vector<std::vector<int64_t>>& rows, int64_t cols) {
  const int64_t count = static_cast<int64_t>(rows.size());
  StatusOr<ir::Literal> literal = ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kS64, {count, cols}));
  int64_t i = 0;
  for (const auto& row : rows) {
    for (int64_t c = 0; c < cols; ++c, ++i) {
      literal->SetInt(i, c < static_cast<int64_t>(row.size()) ? row[static_cast<size_t>(c)] : -1);
    }
  }
  return ir::Attribute::Dense(std::move(*literal));
}

void AddPrecisionConfig(std::vector<ir::NamedAttribute>& attributes, const PrecisionConfig* config,
                        size_t num_operands) {
  (void)num_operands;
  if (config == nullptr || config->operand_precision_size() == 0) return;
  ir::Attribute::Array precisions;
  for (PrecisionConfig::Precision precision : config->operand_precision()) {
    const char* name = precision == PrecisionConfig::HIGHEST ? "HIGHEST"
                       : precision == PrecisionConfig::HIGH  ? "HIGH"
                                                             : "DEFAULT";
    precisions.push_back(EnumAttr("precision", name));
  }
  attributes.emplace_back("precision_config", ir::Attribute(std::move(precisions)));
}

StatusOr<std::vector<Value*>> InlineComputation(BuilderState& state, ir::Block& block,
                                                const XlaComputation& computation,
                                                const std::vector<Value*>& arguments) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Function* main, MainOf(computation));
  VKHLO_ASSIGN_OR_RETURN(ImportedComputation * imported, ImportFunctions(state, computation));
  const ir::Block& body = main->body().front();
  if (arguments.size() != body.num_arguments()) {
    return InvalidArgumentError(fmt::format("computation '{}' takes {} parameters, given {}", computation.name(),
                                            body.num_arguments(), arguments.size()));
  }
  ir::ValueMap mapping;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i]->type() != body.argument(i)->type()) {
      return InvalidArgumentError(fmt::format("parameter {} of computation '{}' has shape {}, given {}", i,
                                              computation.name(), ShapeText(body.argument(i)->type()),
                                              ShapeText(arguments[i]->type())));
    }
    mapping[body.argument(i)] = arguments[i];
  }
  const ir::Operation* terminator = body.back();
  for (const auto& op : body.operations()) {
    if (op.get() == terminator) break;
    std::unique_ptr<ir::Operation> clone = ir::CloneOp(*op, mapping);
    RenameCallees(*clone, imported->renamed);
    block.Append(std::move(clone));
  }
  std::vector<Value*> results;
  for (Value* value : terminator->operands()) {
    auto it = mapping.find(value);
    results.push_back(it == mapping.end() ? value : it->second);
  }
  return results;
}

StatusOr<std::vector<ir::Type>> ParameterTypes(const XlaComputation& computation, bool tuple_parameters) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Function* main, MainOf(computation));
  std::vector<ir::Type> types;
  for (const ir::Type& type : main->type().inputs) {
    if (tuple_parameters && type.is_tuple()) {
      types.insert(types.end(), type.tuple_elements().begin(), type.tuple_elements().end());
    } else {
      types.push_back(type);
    }
  }
  return types;
}

Status BuildRegion(BuilderState& state, ir::Region& region, const XlaComputation& computation,
                   const std::vector<ir::Type>& argument_types, bool tuple_parameters) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Function* main, MainOf(computation));
  ir::Block& block = region.AddBlock();
  for (const ir::Type& type : argument_types) block.AddArgument(type);
  std::vector<Value*> arguments;
  size_t next = 0;
  for (const ir::Type& parameter : main->type().inputs) {
    const size_t count = tuple_parameters && parameter.is_tuple() ? parameter.tuple_elements().size() : 1;
    if (next + count > block.num_arguments()) {
      return InvalidArgumentError(fmt::format("computation '{}' takes parameters {}, which do not match the "
                                              "operands' {}",
                                              computation.name(), ir::FunctionType{main->type().inputs, {}}.ToString(),
                                              ir::FunctionType{argument_types, {}}.ToString()));
    }
    std::vector<Value*> parts;
    for (size_t i = 0; i < count; ++i) parts.push_back(block.argument(next + i));
    next += count;
    if (tuple_parameters && parameter.is_tuple()) {
      VKHLO_ASSIGN_OR_RETURN(ir::Operation * tuple, EmitInferred(state, block, OpCode::kTuple, parts));
      arguments.push_back(tuple->result(0));
    } else {
      arguments.push_back(parts[0]);
    }
  }
  if (next != block.num_arguments()) {
    return InvalidArgumentError(fmt::format("computation '{}' takes {} parameters, the op gives it {} values",
                                            computation.name(), main->type().inputs.size(), block.num_arguments()));
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<Value*> results, InlineComputation(state, block, computation, arguments));
  VKHLO_RETURN_IF_ERROR(EmitTyped(state, block, OpCode::kReturn, results, {}).status());
  return OkStatus();
}

StatusOr<std::string> ImportComputation(BuilderState& state, const XlaComputation& computation) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Function* main, MainOf(computation));
  VKHLO_ASSIGN_OR_RETURN(ImportedComputation * imported, ImportFunctions(state, computation));
  auto it = imported->renamed.find("main");
  if (it != imported->renamed.end()) return it->second;
  const std::shared_ptr<const ir::Module>& module = ComputationAccess::Module(computation);
  auto existing = state.origin_names.find(module.get());
  if (existing != state.origin_names.end()) return existing->second;
  const std::string name = state.UniqueFunctionName(computation.name());
  imported->renamed["main"] = name;
  CopyFunction(state, *main, name, imported->renamed);
  state.origin_names[module.get()] = name;
  state.function_origins[name] = module;
  return name;
}

}  // namespace vkhlo::internal
