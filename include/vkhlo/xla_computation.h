// XlaComputation: a built, verified program, as XlaBuilder::Build() returns it.
//
// Inside it is a StableHLO module: `module @<builder name>` with a public `@main` taking the
// parameters in parameter order and returning the root; computations it calls (Call) are
// private functions of the module. A tuple-shaped root is returned as one result per tuple
// element (the way JAX-exported StableHLO returns several values); GetProgramShape().result()
// still says it is a tuple, and the runtime gives it back as a tuple Literal.
//
// Computations are immutable values; copies share the program.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "vkhlo/shape.h"
#include "vkhlo/status.h"

namespace vkhlo {

namespace ir {
class Module;
}  // namespace ir
namespace internal {
struct ComputationAccess;
}  // namespace internal

class XlaComputation {
 public:
  // An empty computation (IsNull()); using it in an op is an error.
  XlaComputation() = default;

  bool IsNull() const { return module_ == nullptr; }
  const std::string& name() const { return name_; }

  // The program as StableHLO text that vkhlo-run and vkhlo-opt read (every op in MLIR's generic
  // form). Empty for a null computation.
  std::string ToStableHlo() const;

  // Parameter shapes and names (in parameter order) and the result shape.
  StatusOr<ProgramShape> GetProgramShape() const;

 private:
  friend struct internal::ComputationAccess;
  std::string name_;
  std::shared_ptr<const ir::Module> module_;
  ProgramShape program_shape_;
  // For each private function of the module, the computation whose main it is a copy of, so
  // that a computation used by several others is imported once.
  std::map<std::string, std::shared_ptr<const ir::Module>> function_origins_;
};

}  // namespace vkhlo
