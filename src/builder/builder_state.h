// What an XlaBuilder holds, and the machinery every op function shares.
//
// The builder's program under construction is a scratch ir::Module: a function "main" whose
// block receives ops as they are added (parameters are its block arguments, in the order they
// were declared), plus the private functions imported from computations used by Call. An XlaOp
// is an index into `values`. Build() copies the scratch function into a fresh module with the
// parameters in parameter order (builder.cc).
//
// An op function runs as an OpCall: it finds the builder, checks the operands (same builder,
// valid), and turns any failure into the builder's sticky error, worded
//   "<Op>(<operand shapes>) in XlaBuilder '<name>': <what failed>"
// Ops are emitted with Emit*, which infer result types with the verifier's shape functions
// (verify::InferResultTypes) and check every new op with verify::VerifyOperation: the builder
// has no shape inference of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "vkhlo/xla_builder.h"

namespace vkhlo::internal {

struct ParameterInfo {
  int64_t number = 0;
  std::string name;
  Shape shape;
  ir::Value* value = nullptr;
};

// A computation whose functions were copied into a builder's module.
struct ImportedComputation {
  std::shared_ptr<const ir::Module> module;  // keeps the key alive
  std::map<std::string, std::string> renamed;  // function name there -> name here
};

struct BuilderState {
  std::string name;
  XlaBuilder* self = nullptr;
  std::unique_ptr<ir::Module> module;
  ir::Function* function = nullptr;
  ir::Block* block = nullptr;
  std::vector<ir::Value*> values;  // by XlaOp handle
  std::vector<ParameterInfo> parameters;
  Status status;
  std::map<const ir::Module*, ImportedComputation> imports;
  // Functions copied from computations: name here -> the computation whose main it is, and
  // back (see XlaComputation::function_origins_).
  std::map<std::string, std::shared_ptr<const ir::Module>> function_origins;
  std::map<const ir::Module*, std::string> origin_names;

  XlaOp Register(ir::Value* value);
  ir::Value* value(XlaOp op) const { return values[static_cast<size_t>(op.handle())]; }
  void Fail(Status error);
  // A function name not yet used in the module, made of `base` (characters a symbol cannot hold
// become '_').
  std::string UniqueFunctionName(const std::string& base) const;
};

struct BuilderAccess {
  static BuilderState& State(XlaBuilder& builder) { return *builder.state_; }
  static XlaOp MakeOp(int64_t handle, XlaBuilder* builder) { return XlaOp(handle, builder); }
};

struct ComputationAccess {
  static const std::shared_ptr<const ir::Module>& Module(const XlaComputation& computation) {
    return computation.module_;
  }
  static const ProgramShape& Signature(const XlaComputation& computation) { return computation.program_shape_; }
  static const std::map<std::string, std::shared_ptr<const ir::Module>>& Origins(const XlaComputation& computation) {
    return computation.function_origins_;
  }
  static XlaComputation Make(std::string name, std::shared_ptr<const ir::Module> module, ProgramShape shape,
                             std::map<std::string, std::shared_ptr<const ir::Module>> origins) {
    XlaComputation computation;
    computation.name_ = std::move(name);
    computation.module_ = std::move(module);
    computation.program_shape_ = std::move(shape);
    computation.function_origins_ = std::move(origins);
    return computation;
  }
};

// The public shape of an IR value (XLA notation in messages); an invalid Shape for types XLA
// has no shape for.
Shape ShapeOfValue(const ir::Value* value);

// One call of a public op function (see the top of this file).
class OpCall {
 public:
  // `builder` is the op's builder when the function takes one; otherwise it is the first
  // operand's.
  OpCall(std::string_view op_name, XlaBuilder* builder, const std::vector<XlaOp>& operands);
  OpCall(std::string_view op_name, const std::vector<XlaOp>& operands) : OpCall(op_name, nullptr, operands) {}

  // False when nothing is to be built: no builder, an earlier error, or an operand that is
  // invalid or from another builder (the error is recorded).
  bool ok() const { return ok_; }
  BuilderState& state() const { return *state_; }
  ir::Block& block() const { return *state_->block; }
  ir::Value* value(size_t i) const { return values_[i]; }
  const std::vector<ir::Value*>& values() const { return values_; }
  const ir::Type& type(size_t i) const { return values_[i]->type(); }

  // The op's result: registers `result`'s value, or records its error. Returns the XlaOp.
  XlaOp Finish(const StatusOr<ir::Value*>& result);
  // Records `error` (worded as above) and returns an invalid op.
  XlaOp Fail(const Status& error);
  // The invalid op of this call's builder (or an uninitialized one when there is none).
  XlaOp Invalid() const;

 private:
  std::string op_name_;
  XlaBuilder* builder_ = nullptr;
  BuilderState* state_ = nullptr;
  std::vector<ir::Value*> values_;
  std::vector<XlaOp> operands_;
  bool ok_ = false;
};

// ---- Emitting ops (at the end of `block`) ----

// An op whose result types the verifier infers from operands and attributes.
StatusOr<ir::Operation*> EmitInferred(BuilderState& state, ir::Block& block, ir::OpCode code,
                                      std::vector<ir::Value*> operands, std::vector<ir::NamedAttribute> attributes = {});
// An op with given result types (ops whose results are not implied: reshape, iota, ...).
StatusOr<ir::Operation*> EmitTyped(BuilderState& state, ir::Block& block, ir::OpCode code,
                                   std::vector<ir::Value*> operands, std::vector<ir::Type> result_types,
                                   std::vector<ir::NamedAttribute> attributes = {});
// An op with regions: `fill` builds region i's body; result types are given or inferred once
// the regions exist (then `num_results` says how many there are).
using RegionFiller = std::function<Status(ir::Operation& op)>;
StatusOr<ir::Operation*> EmitWithRegions(BuilderState& state, ir::Block& block, ir::OpCode code,
                                         std::vector<ir::Value*> operands, std::vector<ir::NamedAttribute> attributes,
                                         int num_regions, size_t num_results, const RegionFiller& fill,
                                         std::optional<std::vector<ir::Type>> result_types = std::nullopt);

// Several values as one: the value itself when there is one, else a stablehlo.tuple of them.
StatusOr<ir::Value*> EmitTupleOf(BuilderState& state, ir::Block& block, const std::vector<ir::Value*>& values);
// The elements of a tuple value (its tuple op's operands, or get_tuple_element ops); a
// non-tuple value is its own single element.
StatusOr<std::vector<ir::Value*>> FlattenTuple(BuilderState& state, ir::Block& block, ir::Value* value);
// A constant holding `literal`.
StatusOr<ir::Value*> EmitConstant(BuilderState& state, ir::Block& block, ir::Literal literal);
// A scalar constant of `element` with `value` (floats rounded, integers wrapped).
StatusOr<ir::Value*> EmitScalar(BuilderState& state, ir::Block& block, ir::ElementType element, double value);
// broadcast_in_dim of `value` to `dims`.
StatusOr<ir::Value*> EmitBroadcastInDim(BuilderState& state, ir::Block& block, ir::Value* value,
                                        const std::vector<int64_t>& dims,
                                        const std::vector<int64_t>& broadcast_dimensions);

// ---- Attributes ----
ir::Attribute I64Array(const std::vector<int64_t>& values);
ir::Attribute I64Attr(int64_t value);
ir::Attribute BoolAttr(bool value);
ir::Attribute EnumAttr(std::string kind, std::string value);
// dense<...> : tensor<rows x cols x i64>.
ir::Attribute I64Matrix(const std::vector<std::vector<int64_t>>& rows, int64_t cols);
// An XLA precision config as StableHLO's (absent when the config is null or empty).
void AddPrecisionConfig(std::vector<ir::NamedAttribute>& attributes, const PrecisionConfig* config,
                        size_t num_operands);

// ---- Sub-computations ----

// Appends `computation`'s main body to `block` with its parameters bound to `arguments` (one
// value per parameter), and returns what its root returns, flattened (a tuple root gives its
// elements). Functions it calls are imported into the builder's module.
StatusOr<std::vector<ir::Value*>> InlineComputation(BuilderState& state, ir::Block& block,
                                                    const XlaComputation& computation,
                                                    const std::vector<ir::Value*>& arguments);
// Fills `region` (empty) with `computation` as a region body: block arguments of
// `argument_types`, then the computation with its parameters bound to them (a tuple parameter
// receives a tuple made of consecutive arguments when `tuple_parameters` is set), ending in
// stablehlo.return of its flattened root.
Status BuildRegion(BuilderState& state, ir::Region& region, const XlaComputation& computation,
                   const std::vector<ir::Type>& argument_types, bool tuple_parameters);
// The types a computation's parameters take as region arguments (a tuple parameter contributes
// its elements when `tuple_parameters`).
StatusOr<std::vector<ir::Type>> ParameterTypes(const XlaComputation& computation, bool tuple_parameters);
// Imports `computation`'s functions into the builder's module and returns the name its main
// function has there.
StatusOr<std::string> ImportComputation(BuilderState& state, const XlaComputation& computation);

}  // namespace vkhlo::internal
