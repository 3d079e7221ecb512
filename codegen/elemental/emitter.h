// The elemental emitter: GLSL that computes one element of a value at an index, by composing
// per-op generators (XLA's elemental IR emitter, emitting GLSL text).
//
// Each op's generator (op_emitters.h) produces its output element at an Index from its
// operands' elements at derived indices, asking the emitter for those (Operand). The emitter
// memoizes (value, index) -> variable within the current scope, so a value used twice at the
// same index is computed once, and a value read at different indices (a broadcast, a stencil of
// slices) is recomputed at each: that is what fusing a producer into several consumers means.
//
// Values are either "raw" (storage bits, what loads give and stores take) or "compute" (the type
// the element computes in, types.h). Generators ask for the form they need; data movement passes
// raw values through and so needs no arithmetic feature. Asking for the compute form of a type the
// target cannot compute in is the compile error "stablehlo.add on tensor<4xf64> needs
// shaderFloat64, which <device> lacks".
//
// Scopes: code emitted under a condition (pad, concatenate, select-free branches) opens a GLSL
// block; values memoized inside it are forgotten when it closes.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/elemental/types.h"
#include "codegen/shader_writer.h"
#include "codegen/target.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen {

// A GLSL expression for one element: a variable or a literal, of `type`, raw or compute.
struct Expr {
  std::string code;
  ir::ElementType type = ir::ElementType::kF32;
  bool raw = false;
};

// A position in a tensor of `dims`: known as a row-major linear index (uint), as one int per
// dimension, or both. Either form is derived from the other on demand. Tensors of more than
// 2^32 - 1 elements (fused values that are never stored: an iota or broadcast reduced to a small
// result) have only the per-dimension form (each dimension is below 2^31); asking for their
// linear index is a compile error (FitsLinearIndex).
struct Index {
  std::vector<int64_t> dims;
  std::string linear;              // empty: unknown
  std::vector<std::string> multi;  // meaningful when has_multi
  bool has_multi = false;

  static Index Linear(std::vector<int64_t> dims, std::string linear);
  static Index Multi(std::vector<int64_t> dims, std::vector<std::string> multi);
  static Index Scalar();  // rank 0
};

// Whether positions in a tensor of `dims` fit a uint (at most 2^32 - 1 elements).
inline bool FitsLinearIndex(const std::vector<int64_t>& dims) {
  for (int64_t d : dims) {
    if (d == 0) return true;  // no element
  }
  uint64_t n = 1;
  for (int64_t d : dims) {
    if (static_cast<uint64_t>(d) > 0xffffffffull) return false;
    n *= static_cast<uint64_t>(d);  // both factors below 2^32: no overflow
    if (n > 0xffffffffull) return false;
  }
  return true;
}

// Where a kernel input lives: its binding and element type (the emitter loads from it).
struct InputBinding {
  int binding = 0;
  ir::ElementType type = ir::ElementType::kF32;
};

class ElementalEmitter {
 public:
  using InputLookup = std::function<std::optional<InputBinding>(const ir::Value*)>;

  ElementalEmitter(const TargetInfo& target, ShaderPrelude& prelude, InputLookup inputs);
  // The lookup of a kernel whose bindings in0, in1, ... are `inputs` in order (the usual
  // layout: a fusion's inputs first).
  static InputLookup InputsInOrder(const std::vector<const ir::Value*>& inputs);

  // The element of `value` at `index` (a position in value's shape).
  StatusOr<Expr> Emit(const ir::Value* value, const Index& index);
  // Operand `i` of `op` at `index`.
  StatusOr<Expr> Operand(const ir::Operation& op, size_t i, const Index& index) {
    return Emit(op.operand(i), index);
  }

  // Forms. Compute() fails with the missing-feature error when the target cannot compute in
  // the type (naming the op being emitted).
  StatusOr<Expr> Compute(const Expr& e);
  Expr Raw(const Expr& e);
  const TypeFacts& Facts(ir::ElementType type);

  // Declares `glsl_type name = init;` and returns the name.
  std::string Var(std::string_view glsl_type, const std::string& init);
  // A compute value of `type` from `code`: rounded/wrapped to the type and held in a variable.
  Expr Result(ir::ElementType type, const std::string& code);
  // A compute value that needs no rounding (already exact in the type), held in a variable.
  Expr Exact(ir::ElementType type, const std::string& code);
  // Appends a statement line.
  void Line(const std::string& text);
  // Opens `header {` (e.g. "if (c)") / "} else {" / closes "}", with memo scopes.
  void Open(const std::string& header);
  void Else();
  void Close();
  // A memo scope without a GLSL block (values computed under other bindings, e.g. a map's
  // region evaluated at another index).
  void PushScope() { memo_.emplace_back(); }
  void PopScope() { memo_.pop_back(); }
  void Unbind(const ir::Value* value) { bound_.erase(value); }

  // The element at `index` of a packed array of words named `array` (a binding or a constant
  // array), as a raw value of `type`.
  Expr LoadWords(const std::string& array, ir::ElementType type, const Index& index);

  // Index arithmetic (emitted once per distinct index).
  std::string Linear(const Index& index);
  std::vector<std::string> Multi(const Index& index);

  // Needs a GLSL library file (and the include extension).
  void Include(const std::string& file);
  // The GLSL library's math for a real or complex compute type ("float" -> hlo_math_f32.glsl).
  void IncludeMath(ComputeKind kind);
  ShaderPrelude& prelude() { return prelude_; }
  const TargetInfo& target() const { return target_; }

  // The op being emitted (innermost), for messages.
  const ir::Operation* current_op() const { return op_stack_.empty() ? nullptr : op_stack_.back(); }
  // "stablehlo.foo on tensor<..> at file:line:col" pieces for errors.
  Status OpError(const ir::Operation& op, const std::string& what) const;
  // Values bound by an enclosing construct (map's region arguments) to expressions.
  void Bind(const ir::Value* value, Expr expr);

  const std::string& body() const { return body_; }
  // The first error met where no status could be returned (a compute type the target lacks).
  const Status& sticky_error() const { return sticky_; }
  void set_source_name(std::string name) { source_name_ = std::move(name); }
  void set_indent(int indent) { indent_ = indent; }

 private:
  StatusOr<Expr> EmitUncached(const ir::Value* value, const Index& index);
  std::string MemoKey(const ir::Value* value, const Index& index);
  const std::string* Lookup(const std::string& key) const;
  void Remember(const std::string& key, const std::string& value);

  const TargetInfo& target_;
  ShaderPrelude& prelude_;
  InputLookup inputs_;
  std::string body_;
  int indent_ = 1;
  int next_var_ = 0;
  std::string source_name_;
  // Memo scopes: (value, index) -> "<var>|<raw 0/1>|<type>", and index derivations.
  std::vector<std::unordered_map<std::string, std::string>> memo_;
  std::vector<const ir::Operation*> op_stack_;
  std::map<int, TypeFacts> facts_;
  std::unordered_map<const ir::Value*, Expr> bound_;
  Status sticky_;
  // Fails (stickily) when the target cannot compute in `type`; adds the extensions it needs.
  void RequireCompute(ir::ElementType type);
  Status MissingFeature(ir::ElementType type, std::string_view feature) const;
};

// "file:line:col" of an op for messages ("" when unknown).
std::string OpLocation(const ir::Operation& op, const std::string& source_name);

}  // namespace vkhlo::codegen
