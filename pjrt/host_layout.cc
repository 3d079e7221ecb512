#include "pjrt/host_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace vkhlo::pjrt {
namespace {

// One recursive walk for both directions: `strided` moves by `strides`, `dense` by row-major
// steps; `to_dense` says which one is read.
void Walk(const uint8_t* read, uint8_t* write, std::span<const int64_t> strides, std::span<const int64_t> dims,
          size_t dim, int64_t element_bytes, bool to_dense, int64_t& dense_offset, const uint8_t* strided_read,
          uint8_t* strided_write) {
  const int64_t extent = dims[dim];
  const int64_t stride = strides[dim];
  if (dim + 1 == dims.size()) {
    if (stride == element_bytes) {  // a contiguous row: one copy
      const size_t bytes = static_cast<size_t>(extent * element_bytes);
      if (to_dense) {
        std::memcpy(write + dense_offset, strided_read, bytes);
      } else {
        std::memcpy(strided_write, read + dense_offset, bytes);
      }
      dense_offset += extent * element_bytes;
      return;
    }
    for (int64_t i = 0; i < extent; ++i) {
      if (to_dense) {
        std::memcpy(write + dense_offset, strided_read + i * stride, static_cast<size_t>(element_bytes));
      } else {
        std::memcpy(strided_write + i * stride, read + dense_offset, static_cast<size_t>(element_bytes));
      }
      dense_offset += element_bytes;
    }
    return;
  }
  for (int64_t i = 0; i < extent; ++i) {
    Walk(read, write, strides, dims, dim + 1, element_bytes, to_dense, dense_offset,
         strided_read == nullptr ? nullptr : strided_read + i * stride,
         strided_write == nullptr ? nullptr : strided_write + i * stride);
  }
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
  int64_t offset = 0;
  Walk(nullptr, dst, strides, dims, 0, element_bytes, /*to_dense=*/true, offset, src, nullptr);
}

void CopyRowMajorToStrided(const uint8_t* src, std::span<const int64_t> dims, int64_t element_bytes, uint8_t* dst,
                           std::span<const int64_t> strides) {
  if (NumElements(dims) == 0) return;
  if (dims.empty()) {
    std::memcpy(dst, src, static_cast<size_t>(element_bytes));
    return;
  }
  int64_t offset = 0;
  Walk(src, nullptr, strides, dims, 0, element_bytes, /*to_dense=*/false, offset, nullptr, dst);
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
