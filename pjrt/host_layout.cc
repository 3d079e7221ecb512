#include "pjrt/host_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace vkhlo::pjrt {
namespace {

// Visits the elements of a strided array in row-major order, calling `copy(strided, bytes)` once
// per contiguous run (a whole innermost row when its stride is the element size, else one
// element): `strided` points at the run in the strided array.
template <typename Copy>
void ForEachRun(uint8_t* strided, std::span<const int64_t> strides, std::span<const int64_t> dims, size_t dim,
                int64_t element_bytes, const Copy& copy) {
  const int64_t extent = dims[dim];
  const int64_t stride = strides[dim];
  if (dim + 1 == dims.size()) {
    if (stride == element_bytes) {
      copy(strided, extent * element_bytes);
      return;
    }
    for (int64_t i = 0; i < extent; ++i) copy(strided + i * stride, element_bytes);
    return;
  }
  for (int64_t i = 0; i < extent; ++i) ForEachRun(strided + i * stride, strides, dims, dim + 1, element_bytes, copy);
}

int64_t NumElements(std::span<const int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

}  // namespace

std::vector<int64_t> RowMajorByteStrides(std::span<const int64_t> dims, int64_t element_bytes) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = element_bytes;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(dims[i], 1);
  }
  return strides;
}

StatusOr<std::vector<int64_t>> ByteStridesOf(const PJRT_Buffer_MemoryLayout* layout, std::span<const int64_t> dims,
                                             int64_t element_bytes, std::string_view function) {
  if (layout == nullptr) return RowMajorByteStrides(dims, element_bytes);
  if (layout->type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    const PJRT_Buffer_MemoryLayout_Strides& s = layout->strides;
    if (s.num_byte_strides != dims.size() || (s.num_byte_strides > 0 && s.byte_strides == nullptr)) {
      return InvalidArgumentError(fmt::format("{}: the layout has {} byte strides for {} dimensions", function,
                                              s.num_byte_strides, dims.size()));
    }
    return std::vector<int64_t>(s.byte_strides, s.byte_strides + s.num_byte_strides);
  }
  if (layout->type != PJRT_Buffer_MemoryLayout_Type_Tiled) {
    return InvalidArgumentError(fmt::format("{}: unknown layout type {}", function, static_cast<int>(layout->type)));
  }
  const PJRT_Buffer_MemoryLayout_Tiled& tiled = layout->tiled;
  if (tiled.num_tiles > 0) {
    return UnimplementedError(fmt::format("{}: tiled layouts are not supported by the vkhlo plugin "
                                          "(vkhlo keeps tensors dense; ask for a layout without tiles)", function));
  }
  if (tiled.minor_to_major_size != dims.size() || (tiled.minor_to_major_size > 0 && tiled.minor_to_major == nullptr)) {
    return InvalidArgumentError(fmt::format("{}: minor_to_major has {} entries for {} dimensions", function,
                                            tiled.minor_to_major_size, dims.size()));
  }
  std::vector<int64_t> strides(dims.size(), -1);
  int64_t stride = element_bytes;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = tiled.minor_to_major[i];
    if (d < 0 || d >= static_cast<int64_t>(dims.size()) || strides[static_cast<size_t>(d)] != -1) {
      return InvalidArgumentError(fmt::format("{}: minor_to_major is not a permutation of the {} dimensions", function,
                                              dims.size()));
    }
    strides[static_cast<size_t>(d)] = stride;
    stride *= std::max<int64_t>(dims[static_cast<size_t>(d)], 1);
  }
  return strides;
}

bool IsDenseRowMajor(std::span<const int64_t> strides, std::span<const int64_t> dims, int64_t element_bytes) {
  if (NumElements(dims) == 0) return true;
  const std::vector<int64_t> dense = RowMajorByteStrides(dims, element_bytes);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != 1 && strides[i] != dense[i]) return false;
  }
  return true;
}

void CopyStridedToRowMajor(const uint8_t* src, std::span<const int64_t> strides, std::span<const int64_t> dims,
                           int64_t element_bytes, uint8_t* dst) {
  if (NumElements(dims) == 0) return;
  if (dims.empty()) {
    std::memcpy(dst, src, static_cast<size_t>(element_bytes));
    return;
  }
  uint8_t* dense = dst;
  ForEachRun(const_cast<uint8_t*>(src), strides, dims, 0, element_bytes, [&](uint8_t* run, int64_t bytes) {
    std::memcpy(dense, run, static_cast<size_t>(bytes));  // only read: the cast spares a second walker
    dense += bytes;
  });
}

void CopyRowMajorToStrided(const uint8_t* src, std::span<const int64_t> dims, int64_t element_bytes, uint8_t* dst,
                           std::span<const int64_t> strides) {
  if (NumElements(dims) == 0) return;
  if (dims.empty()) {
    std::memcpy(dst, src, static_cast<size_t>(element_bytes));
    return;
  }
  const uint8_t* dense = src;
  ForEachRun(dst, strides, dims, 0, element_bytes, [&](uint8_t* run, int64_t bytes) {
    std::memcpy(run, dense, static_cast<size_t>(bytes));
    dense += bytes;
  });
}

StridedExtent ExtentOf(std::span<const int64_t> strides, std::span<const int64_t> dims, int64_t element_bytes) {
  StridedExtent extent;
  if (NumElements(dims) == 0) return extent;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t span = (dims[i] - 1) * strides[i];
    if (span < 0) extent.before -= span;
    else extent.after += span;
  }
  extent.after += element_bytes;
  return extent;
}

}  // namespace vkhlo::pjrt
