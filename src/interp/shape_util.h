// Shape, index and element helpers shared by the interpreter's op groups (data movement,
// reductions, control flow): row-major strides, strided walks over index spaces, element access
// by raw storage bytes (so one code path serves every element type, splats included), attribute
// readers that report bad values as op errors, and rank-0 values for region arguments.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "interp/eval_context.h"
#include "ir/literal.h"
#include "ir/module.h"

namespace vkhlo::interp {

using Dims = std::vector<int64_t>;

// Row-major strides (in elements) of `dims`; the last dimension has stride 1.
using ir::RowMajorStrides;
// Product of `dims` (0 when any is 0).
int64_t NumElements(std::span<const int64_t> dims);
// "[2, 3]" for messages.
std::string DimsToString(std::span<const int64_t> dims);

// Calls fn(a, b) for every index of `dims` in row-major order, with
//   a = base_a + sum(index[d] * strides_a[d]),  b = base_b + sum(index[d] * strides_b[d]).
// Strides may be zero (broadcast) or negative (reverse). Linear in the number of indices.
// When fn returns bool, returning false stops the walk.
template <typename Fn>
void ForEachIndex(std::span<const int64_t> dims, int64_t base_a, std::span<const int64_t> strides_a, int64_t base_b,
                  std::span<const int64_t> strides_b, Fn&& fn) {
  const int64_t count = NumElements(dims);
  if (count == 0) return;
  const size_t rank = dims.size();
  std::vector<int64_t> index(rank, 0);
  int64_t a = base_a, b = base_b;
  for (int64_t i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<std::invoke_result_t<Fn&, int64_t, int64_t>, bool>) {
      if (!fn(a, b)) return;
    } else {
      fn(a, b);
    }
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < dims[d]) {
        a += strides_a[d];
        b += strides_b[d];
        break;
      }
      index[d] = 0;
      a -= strides_a[d] * (dims[d] - 1);
      b -= strides_b[d] * (dims[d] - 1);
    }
  }
}

// Calls fn(index) with the multi-index of every element of `dims`, in row-major order (when fn
// returns bool, false stops the walk).
template <typename Fn>
void ForEachMultiIndex(std::span<const int64_t> dims, Fn&& fn) {
  const int64_t count = NumElements(dims);
  if (count == 0) return;
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<std::invoke_result_t<Fn&, std::span<const int64_t>>, bool>) {
      if (!fn(std::span<const int64_t>(index))) return;
    } else {
      fn(std::span<const int64_t>(index));
    }
    for (size_t d = dims.size(); d-- > 0;) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
}

// Read access to a literal's elements by linear index, as storage bytes (splats read their
// one element at every index).
class ElementReader {
 public:
  explicit ElementReader(const ir::Literal& literal)
      : data_(literal.raw().data()), bytes_(ir::StorageBytes(literal.element_type())), splat_(literal.is_splat()) {}
  const uint8_t* at(int64_t index) const { return splat_ ? data_ : data_ + index * bytes_; }
  int64_t element_bytes() const { return bytes_; }
  bool is_splat() const { return splat_; }

 private:
  const uint8_t* data_;
  int64_t bytes_;
  bool splat_;
};

// Copies elements: for every index of `dims`, dst[dst_offset] = src[src_offset] with the offsets
// of ForEachIndex. Contiguous innermost runs are copied with memcpy.
void StridedCopy(const ElementReader& src, int64_t src_base, std::span<const int64_t> src_strides, uint8_t* dst,
                 int64_t dst_base, std::span<const int64_t> dst_strides, std::span<const int64_t> dims);

// Fills every element of `dst` (num_elements elements) with the one element at `element`.
void FillElements(uint8_t* dst, int64_t num_elements, const uint8_t* element, int64_t element_bytes);

// --- operands, attributes and results, with op errors for bad input ---

// Operand `i` as a tensor (an error naming the op if it is a tuple or token).
StatusOr<const ir::Literal*> TensorOperand(EvalContext& context, const ir::Operation& op, const InterpValues& operands,
                                           size_t i);
// Requires exactly `count` operands (or at least `count` when `at_least`).
Status CheckOperandCount(EvalContext& context, const ir::Operation& op, const InterpValues& operands, size_t count,
                         bool at_least = false);

// Integer-list attribute (dense array, array, or dense elements), required.
StatusOr<Dims> I64VectorAttr(EvalContext& context, const ir::Operation& op, std::string_view name);
// The same, or `fallback` when the attribute is absent.
StatusOr<Dims> I64VectorAttrOr(EvalContext& context, const ir::Operation& op, std::string_view name, Dims fallback);
// Integer attribute, required.
StatusOr<int64_t> I64Attr(EvalContext& context, const ir::Operation& op, std::string_view name);

// An integer element as an index: signed types sign-extend, unsigned types zero-extend and
// saturate at INT64_MAX (so clamping treats huge unsigned values as huge).
int64_t IndexValue(const ir::Literal& literal, int64_t index);
// All elements of an integer tensor operand as int64s (for the dynamic_* ops' shape operands).
StatusOr<Dims> IntegerTensorValues(EvalContext& context, const ir::Operation& op, const ir::Literal& literal,
                                   std::string_view what);

// The type of result `i` when it is a tensor of `dims` whose element type is `element`'s
// storage type; an op error naming the expected and declared types otherwise.
StatusOr<ir::Type> ResultTensorType(EvalContext& context, const ir::Operation& op, size_t i,
                                    std::span<const int64_t> dims, ir::ElementType element);

// The declared type of result 0 when it is a tensor (an op error otherwise), for ops whose
// result shape comes from the program rather than from the operands (reshape, iota, ...).
StatusOr<const ir::Type*> DeclaredTensorResult(EvalContext& context, const ir::Operation& op);

// Checks that `dims` lists distinct dimensions in [0, rank) (and, when `sorted`, ascending).
Status CheckDimensionList(EvalContext& context, const ir::Operation& op, std::string_view what,
                          std::span<const int64_t> dims, int64_t rank, bool sorted = false);

// --- regions on scalars ---

// A rank-0 tensor of `tensor_type`'s element type (quantization kept) holding the element at
// `element`.
StatusOr<InterpValue> ScalarValue(const ir::Type& tensor_type, const uint8_t* element);

// Evaluates `region` on `arguments` and checks that it returns one rank-0 tensor per entry of
// `result_types`, each with that element type. `what` names the region in messages.
StatusOr<InterpValues> EvaluateScalarRegion(EvalContext& context, const ir::Operation& op, const ir::Region& region,
                                            const InterpValues& arguments,
                                            std::span<const ir::ElementType> result_types, std::string_view what);

// The storage bytes of a rank-0 tensor value (one element).
inline const uint8_t* ScalarBytes(const InterpValue& value) { return value.literal().raw().data(); }

// The boolean in a rank-0 i1 tensor returned by a region (an op error otherwise).
StatusOr<bool> ScalarPredicate(EvalContext& context, const ir::Operation& op, const InterpValue& value,
                               std::string_view what);

}  // namespace vkhlo::interp
