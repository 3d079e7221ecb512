#include "codegen/reduction/vector_inputs.h"

#include <unordered_set>

#include "codegen/elemental/types.h"
#include "ir/walk.h"

namespace vkhlo::codegen::reduction {

std::vector<bool> VectorInputs(const Fusion& fusion, const ir::Operation& reduce, size_t num_operands,
                               const TargetInfo& target) {
  // Users come after their operands in program order, so walking the ops backwards judges every
  // read of a value before the value's own operands. `own`: values read only at the element's
  // own index (linear, in the reduce input's index space); every other read marks `scattered`.
  std::unordered_set<const ir::Value*> read, scattered, own;
  for (auto it = fusion.ops.rbegin(); it != fusion.ops.rend(); ++it) {
    const ir::Operation& op = **it;
    const bool is_reduce = &op == &reduce;
    bool result_own = !is_reduce && op.num_results() == 1 && own.count(op.result(0)) != 0 &&
                      scattered.count(op.result(0)) == 0;
    for (size_t k = 0; k < op.num_operands(); ++k) {
      const ir::Value* v = op.operand(k);
      read.insert(v);
      bool same_index = false;
      if (is_reduce) {
        same_index = k < num_operands;
      } else if (result_own) {
        same_index = op.code() == ir::OpCode::kReshape ||
                     (op.info().kind == ir::OpKind::kElementwise && v->type().dims() == op.result(0)->type().dims());
      }
      if (same_index) {
        own.insert(v);
      } else {
        scattered.insert(v);
      }
    }
    // A value used inside a region (not through the op's operands) is read at another index.
    for (size_t r = 0; r < op.num_regions(); ++r) {
      ir::WalkOps(op.region(r), [&](ir::Operation& inner) {
        for (const ir::Value* v : inner.operands()) scattered.insert(v);
      });
    }
  }
  std::vector<bool> vector;
  for (const ir::Value* in : fusion.inputs) {
    vector.push_back(read.count(in) != 0 && own.count(in) != 0 && scattered.count(in) == 0 &&
                     GetTypeFacts(in->type().element_type(), target).storage_bits == 32);
  }
  return vector;
}

}  // namespace vkhlo::codegen::reduction
