// Index maps: where a logical matmul index (a batch, row, column or contraction index) lands in
// an operand's row-major element order, as a mixed-radix sum of strides. This is how dot_general
// operands with batching and contracting dimensions anywhere are read in place: no transpose, no
// copy, just offset arithmetic baked into the kernel as constants.
//
//   AxisMap{{{4, 12}, {3, 1}}}: index i in [0, 12) -> (i / 3) * 12 + (i % 3) * 1
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vkhlo::codegen::library {

struct AxisPart {
  int64_t size = 1;
  int64_t stride = 0;  // in elements
  bool operator==(const AxisPart&) const = default;
};

// A logical axis made of operand dimensions, outermost first (row-major order of the parts).
struct AxisMap {
  std::vector<AxisPart> parts;

  int64_t size() const;
  // Drops size-1 parts and merges neighbours that are contiguous (outer stride = inner stride *
  // inner size), so a plain row-major axis becomes one part.
  AxisMap Simplified() const;
  // A single part of stride `stride` (after simplification), or the axis is empty/size 1.
  bool IsUnitStride() const;
  bool IsStride(int64_t stride) const;
  // Every part's stride is a multiple of `n` (true for an axis of size 1).
  bool StridesMultipleOf(int64_t n) const;
  // The element offset of index `i` (a GLSL uint expression), as GLSL with constants.
  std::string Offset(const std::string& i) const;
  // The offset of index `i`, on the host.
  int64_t OffsetOf(int64_t i) const;
  std::string ToString() const;  // "[4:12, 3:1]"
  bool operator==(const AxisMap&) const = default;
};

// Builds the map of `dims` (operand dimension numbers, outermost first) of an operand of shape
// `shape`, row-major.
AxisMap MapOfDims(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims);

}  // namespace vkhlo::codegen::library
