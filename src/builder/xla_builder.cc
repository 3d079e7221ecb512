// XlaBuilder itself: construction, parameters, and Build(), which turns the scratch program
// into a verified module (see builder_state.h).
#include "vkhlo/xla_builder.h"

#include <fmt/format.h>

#include <algorithm>

#include "builder/builder_state.h"
#include "builder/type_conversion.h"
#include "ir/walk.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using internal::BuilderState;
using ir::OpCode;

// Removes tuple and get_tuple_element ops nothing uses (left over from flattening tuples).
void RemoveDeadTupleOps(ir::Function& function) {
  ir::Block& block = function.body().front();
  for (bool changed = true; changed;) {
    changed = false;
    const auto uses = ir::CountUses(function.body());
    for (size_t i = block.operations().size(); i-- > 0;) {
      const ir::Operation& op = *block.operations()[i];
      if (op.code() != OpCode::kTuple && op.code() != OpCode::kGetTupleElement) continue;
      if (uses.count(op.result(0)) != 0) continue;
      block.Remove(i);
      changed = true;
    }
  }
}

}  // namespace

XlaBuilder::XlaBuilder(const std::string& computation_name) : state_(std::make_unique<BuilderState>()) {
  state_->name = computation_name;
  state_->self = this;
  state_->module = std::make_unique<ir::Module>();
  state_->function = state_->module->AddFunction(std::make_unique<ir::Function>("main", ir::FunctionType{}));
  state_->block = &state_->function->body().AddBlock();
}

XlaBuilder::~XlaBuilder() = default;

const std::string& XlaBuilder::name() const { return state_->name; }

Status XlaBuilder::first_error() const { return state_->status; }

void XlaBuilder::ReportError(const Status& error) {
  if (!error.ok()) state_->Fail(error);
}

XlaOp XlaBuilder::ReportErrorOrReturn(const StatusOr<XlaOp>& op) {
  if (!op.ok()) {
    ReportError(op.status());
    return internal::BuilderAccess::MakeOp(-1, this);
  }
  return *op;
}

std::unique_ptr<XlaBuilder> XlaBuilder::CreateSubBuilder(const std::string& computation_name) {
  return std::make_unique<XlaBuilder>(computation_name);
}

StatusOr<Shape> XlaBuilder::GetShape(XlaOp op) const {
  if (op.builder() != this) return InvalidArgumentError("the op was not built by XlaBuilder '" + name() + "'");
  if (!op.valid() || op.handle() >= static_cast<int64_t>(state_->values.size())) {
    return InvalidArgumentError("the op is the result of a failed operation");
  }
  return internal::FromIrType(state_->value(op)->type());
}

StatusOr<XlaComputation> XlaBuilder::Build() {
  if (!state_->status.ok()) return state_->status;
  if (state_->values.empty()) {
    return InvalidArgumentError("XlaBuilder '" + name() + "' has no operations: there is no root to build");
  }
  return Build(internal::BuilderAccess::MakeOp(static_cast<int64_t>(state_->values.size()) - 1, this));
}

StatusOr<XlaComputation> XlaBuilder::Build(XlaOp root) {
  BuilderState& state = *state_;
  if (!state.status.ok()) return state.status;
  if (root.builder() != this) {
    return InvalidArgumentError(fmt::format("Build: the root was built by XlaBuilder '{}', not '{}'",
                                            root.builder() == nullptr ? "(none)" : root.builder()->name(), name()));
  }
  if (!root.valid() || root.handle() >= static_cast<int64_t>(state.values.size())) {
    return InvalidArgumentError("Build: the root of '" + name() + "' is not a value of the builder");
  }

  std::vector<const internal::ParameterInfo*> parameters;
  for (const auto& p : state.parameters) parameters.push_back(&p);
  std::sort(parameters.begin(), parameters.end(), [](auto* a, auto* b) { return a->number < b->number; });
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i]->number != static_cast<int64_t>(i)) {
      return InvalidArgumentError(fmt::format("XlaBuilder '{}': parameter numbers must be 0..{}, but parameter {} is "
                                              "missing",
                                              name(), parameters.size() - 1, i));
    }
  }

  auto module = std::make_unique<ir::Module>();
  module->set_name(name());
  for (const auto& function : state.module->functions()) {
    if (function.get() == state.function) continue;
    auto copy = std::make_unique<ir::Function>(function->name(), function->type());
    copy->set_visibility("private");
    ir::ValueMap mapping;
    ir::CloneRegionInto(function->body(), copy->body(), mapping);
    module->AddFunction(std::move(copy));
  }

  auto main_owned = std::make_unique<ir::Function>("main", ir::FunctionType{});
  ir::Function* main = module->AddFunction(std::move(main_owned));
  ir::Block& block = main->body().AddBlock();
  ir::ValueMap mapping;
  ir::FunctionType type;
  ProgramShape program_shape;
  for (const internal::ParameterInfo* p : parameters) {
    mapping[p->value] = block.AddArgument(p->value->type(), p->name);
    type.inputs.push_back(p->value->type());
    program_shape.AddParameter(p->shape, p->name);
  }
  for (const auto& op : state.block->operations()) block.Append(ir::CloneOp(*op, mapping));

  ir::Value* root_value = mapping.at(state.value(root));
  VKHLO_ASSIGN_OR_RETURN(std::vector<ir::Value*> results, internal::FlattenTuple(state, block, root_value));
  for (const ir::Value* value : results) type.results.push_back(value->type());
  main->set_type(type);
  VKHLO_RETURN_IF_ERROR(internal::EmitTyped(state, block, OpCode::kFuncReturn, results, {}).status());
  VKHLO_ASSIGN_OR_RETURN(*program_shape.mutable_result(), internal::FromIrType(root_value->type()));
  RemoveDeadTupleOps(*main);

  if (Status verified = verify::VerifyModule(*module); !verified.ok()) {
    return InternalError("XlaBuilder '" + name() + "' built a module the verifier rejects: " + verified.message());
  }
  return internal::ComputationAccess::Make(name(), std::shared_ptr<const ir::Module>(std::move(module)),
                                           std::move(program_shape), state.function_origins);
}

XlaOp Parameter(XlaBuilder* builder, int64_t parameter_number, const Shape& shape, const std::string& name) {
  internal::OpCall call("Parameter", builder, {});
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  if (parameter_number < 0) {
    return call.Fail(InvalidArgumentError(fmt::format("parameter number {} is negative", parameter_number)));
  }
  for (const auto& p : state.parameters) {
    if (p.number == parameter_number) {
      return call.Fail(InvalidArgumentError(
          fmt::format("parameter {} is already declared (named '{}')", parameter_number, p.name)));
    }
  }
  StatusOr<ir::Type> type = internal::ToIrType(shape);
  if (!type.ok()) return call.Fail(type.status());
  ir::Value* value = state.block->AddArgument(*type, name);
  state.parameters.push_back({parameter_number, name, shape, value});
  return call.Finish(value);
}

}  // namespace vkhlo
