// Which fusion inputs of a reduce kernel may be read as `uvec4` (4 consecutive words at once):
// those whose every read in the kernel is at the reduce input's own element (the input itself
// or an operand of element-wise producers of the same shape, or of reshapes, whose linear index
// is the element's), with 32-bit storage. A kernel that loads 4 consecutive elements binds such
// an input to the words of one vector load; other inputs (broadcasts, inputs the epilogue reads)
// are still loaded word by word at each element's index.
#pragma once

#include <vector>

#include "codegen/fusion.h"
#include "codegen/target.h"

namespace vkhlo::codegen::reduction {

// Per fusion input; `num_operands`: the reduce's N (operands 0..N-1 are the reduced inputs).
std::vector<bool> VectorInputs(const Fusion& fusion, const ir::Operation& reduce, size_t num_operands,
                               const TargetInfo& target);

}  // namespace vkhlo::codegen::reduction
