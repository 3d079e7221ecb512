// sort: sorts variadic tensors together along `dimension` with a comparator region.
//
// Every sort is stable (a bottom-up merge sort that takes the right element only when the
// comparator says it is strictly before the left one), which satisfies both is_stable values.
// The merge sort is O(n log n) comparator calls per row and stays in bounds whatever the
// comparator answers (it need not be a strict weak order).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "interp/data_movement.h"
#include "interp/shape_util.h"

namespace vkhlo::interp {
namespace {

using ir::Literal;
using ir::Operation;

// Stable merge sort of `order` with less(a, b) -> StatusOr<bool>.
template <typename Less>
Status MergeSort(std::vector<int64_t>& order, Less&& less) {
  const size_t n = order.size();
  std::vector<int64_t> buffer(n);
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      const size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      size_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) {
        VKHLO_ASSIGN_OR_RETURN(bool right_first, less(order[j], order[i]));
        buffer[o++] = right_first ? order[j++] : order[i++];
      }
      while (i < mid) buffer[o++] = order[i++];
      while (j < hi) buffer[o++] = order[j++];
    }
    order.swap(buffer);
  }
  return OkStatus();
}

StatusOr<InterpValues> EvalSort(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1, /*at_least=*/true));
  if (op.num_regions() != 1) return context.OpError(op, "needs one comparator region");
  const size_t n = operands.size();
  std::vector<const Literal*> inputs(n);
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(inputs[k], TensorOperand(context, op, operands, k));
  }
  const Dims& dims = inputs[0]->type().dims();
  const int64_t rank = inputs[0]->type().rank();
  for (size_t k = 1; k < n; ++k) {
    if (inputs[k]->type().dims() != dims) {
      return context.OpError(op, fmt::format("input {} ({}) must have the shape of input 0 ({})", k,
                                             inputs[k]->type().ToString(), inputs[0]->type().ToString()));
    }
  }
  int64_t dimension = -1;
  if (op.attribute("dimension") != nullptr) {
    VKHLO_ASSIGN_OR_RETURN(dimension, I64Attr(context, op, "dimension"));
  }
  if (dimension < -rank || dimension >= rank) {
    return context.OpError(op, fmt::format("dimension {} is outside [{}, {})", dimension, -rank, rank));
  }
  if (dimension < 0) dimension += rank;
  if (op.num_results() != n) return context.OpError(op, fmt::format("must have {} results", n));

  std::vector<Literal> results;
  std::vector<std::span<uint8_t>> out;
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, k, dims, inputs[k]->element_type()));
    VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
    results.push_back(std::move(result));
  }
  for (Literal& r : results) {
    VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> raw, r.mutable_raw());
    out.push_back(raw);
  }
  if (NumElements(dims) == 0) {
    InterpValues empty;
    for (Literal& r : results) empty.push_back(InterpValue::Tensor(std::move(r)));
    return empty;
  }

  const ir::Region& comparator = op.region(0);
  const ir::ElementType kBool[] = {ir::ElementType::kI1};
  std::vector<ElementReader> readers;
  for (const Literal* input : inputs) readers.emplace_back(*input);
  const int64_t size = dims[dimension];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dimension; ++d) outer *= dims[d];
  for (int64_t d = dimension + 1; d < rank; ++d) inner *= dims[d];

  // One row: the `size` elements at base + i * inner. Their rank-0 values are made once per row.
  std::vector<InterpValues> row(n, InterpValues(static_cast<size_t>(size)));
  InterpValues args(2 * n);
  std::vector<int64_t> order(static_cast<size_t>(size));
  auto less = [&](int64_t a, int64_t b) -> StatusOr<bool> {
    for (size_t k = 0; k < n; ++k) {
      args[2 * k] = row[k][a];
      args[2 * k + 1] = row[k][b];
    }
    VKHLO_ASSIGN_OR_RETURN(InterpValues result,
                           EvaluateScalarRegion(context, op, comparator, args, kBool, "comparator"));
    return result[0].literal().GetInt(0) != 0;
  };
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t r = 0; r < inner; ++r) {
      const int64_t base = o * size * inner + r;
      for (size_t k = 0; k < n; ++k) {
        for (int64_t i = 0; i < size; ++i) {
          VKHLO_ASSIGN_OR_RETURN(row[k][i], ScalarValue(inputs[k]->type(), readers[k].at(base + i * inner)));
        }
      }
      std::iota(order.begin(), order.end(), 0);
      VKHLO_RETURN_IF_ERROR(MergeSort(order, less));
      for (size_t k = 0; k < n; ++k) {
        const int64_t eb = readers[k].element_bytes();
        for (int64_t i = 0; i < size; ++i) {
          std::memcpy(out[k].data() + (base + i * inner) * eb, readers[k].at(base + order[i] * inner), eb);
        }
      }
    }
  }
  InterpValues values;
  for (Literal& r : results) values.push_back(InterpValue::Tensor(std::move(r)));
  return values;
}

}  // namespace

void RegisterSortOps(OpRegistry& r) { r.Register(ir::OpCode::kSort, EvalSort); }

}  // namespace vkhlo::interp
