// XlaBuilder and XlaOp: building computations in C++, as XLA's client API does
// (xla_overview.md's axpy example):
//
//   vkhlo::XlaBuilder b("axpy");
//   auto alpha = vkhlo::Parameter(&b, 0, vkhlo::ShapeUtil::MakeShape(vkhlo::F32, {}), "alpha");
//   auto x = vkhlo::Parameter(&b, 1, vkhlo::ShapeUtil::MakeShape(vkhlo::F32, {4}), "x");
//   auto y = vkhlo::Parameter(&b, 2, vkhlo::ShapeUtil::MakeShape(vkhlo::F32, {4}), "y");
//   vkhlo::Add(vkhlo::Mul(alpha, x), y);
//   vkhlo::StatusOr<vkhlo::XlaComputation> axpy = b.Build();
//
// The operations are free functions (vkhlo/xla_ops.h, included here). Each adds StableHLO ops
// to the builder's program; result shapes come from the same shape inference and constraint
// checks that verify parsed StableHLO text.
//
// Errors are sticky: an op that cannot be built (incompatible shapes, a bad dimension number,
// an operand from another builder) records the first error in its builder and returns an
// invalid XlaOp; ops on invalid XlaOps do nothing; Build() returns the first error. Its message
// names the op and the shapes involved:
//   "Add(f32[2], f32[3]) in XlaBuilder 'axpy': shapes are not compatible for broadcasting: ..."
//
// An XlaBuilder is not thread-safe; build from one thread at a time. XlaOps refer to their
// builder, which must outlive them (it is neither copyable nor movable).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "vkhlo/literal.h"
#include "vkhlo/shape.h"
#include "vkhlo/status.h"
#include "vkhlo/xla_computation.h"
#include "vkhlo/xla_data.h"

namespace vkhlo {

class XlaBuilder;
namespace internal {
struct BuilderState;
struct BuilderAccess;
}  // namespace internal

// A value in a computation under construction: a handle into its builder.
class XlaOp {
 public:
  // An uninitialized op (no builder).
  XlaOp() = default;

  XlaBuilder* builder() const { return builder_; }
  bool IsUninitialized() const { return builder_ == nullptr; }
  // False for uninitialized ops and for the results of ops that failed.
  bool valid() const { return builder_ != nullptr && handle_ >= 0; }
  int64_t handle() const { return handle_; }
  bool IsIdenticalTo(const XlaOp& other) const { return handle_ == other.handle_ && builder_ == other.builder_; }

 private:
  friend struct internal::BuilderAccess;
  XlaOp(int64_t handle, XlaBuilder* builder) : handle_(handle), builder_(builder) {}
  int64_t handle_ = -1;
  XlaBuilder* builder_ = nullptr;
};

class XlaBuilder {
 public:
  explicit XlaBuilder(const std::string& computation_name);
  ~XlaBuilder();
  XlaBuilder(const XlaBuilder&) = delete;
  XlaBuilder& operator=(const XlaBuilder&) = delete;

  const std::string& name() const;

  // Builds the computation whose result is the last op added (Build()) or `root`. Parameters
  // must be numbered 0..n-1. Returns the first error recorded while building, if any. The
  // builder stays usable: more ops may be added and built again.
  StatusOr<XlaComputation> Build();
  StatusOr<XlaComputation> Build(XlaOp root);

  // The first error recorded (OK when none).
  Status first_error() const;
  Status GetCurrentStatus() const { return first_error(); }
  // The shape of an op of this builder.
  StatusOr<Shape> GetShape(XlaOp op) const;

  // Records `error` as this builder's error when it has none yet (for helpers built on the
  // op functions).
  void ReportError(const Status& error);
  // `op`'s value, or records its error and returns an invalid op.
  XlaOp ReportErrorOrReturn(const StatusOr<XlaOp>& op);

  // A builder for a sub-computation (reducer, loop body, ...) named `computation_name`. XLA's
  // convenience: a computation from any builder can be used in any other.
  std::unique_ptr<XlaBuilder> CreateSubBuilder(const std::string& computation_name);

 private:
  friend struct internal::BuilderAccess;
  std::unique_ptr<internal::BuilderState> state_;
};

}  // namespace vkhlo

#include "vkhlo/xla_ops.h"
