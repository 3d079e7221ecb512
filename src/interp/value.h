// Runtime values of the reference interpreter: a tensor (an ir::Literal), a tuple of values, or
// a token. Cheap to copy: tensors are shared, immutable once made.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/literal.h"
#include "ir/type.h"

namespace vkhlo::interp {

class InterpValue {
 public:
  InterpValue() = default;  // a token
  static InterpValue Tensor(ir::Literal literal);
  static InterpValue Tuple(std::vector<InterpValue> elements);
  static InterpValue Token() { return InterpValue(); }

  bool is_tensor() const { return literal_ != nullptr; }
  bool is_tuple() const { return tuple_ != nullptr; }
  bool is_token() const { return !is_tensor() && !is_tuple(); }

  const ir::Literal& literal() const { return *literal_; }
  const std::vector<InterpValue>& tuple() const { return *tuple_; }
  ir::Type type() const;
  // "dense<[1, 2]> : tensor<2xi32>", "(v0, v1)", "token".
  std::string ToString() const;

 private:
  std::shared_ptr<const ir::Literal> literal_;
  std::shared_ptr<const std::vector<InterpValue>> tuple_;
};

using InterpValues = std::vector<InterpValue>;

}  // namespace vkhlo::interp
