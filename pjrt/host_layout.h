// Host memory layouts of the PJRT plugin's transfers. vkhlo keeps tensors dense and row-major;
// host arrays come with byte strides (numpy's, possibly negative or zero: a transposed or
// broadcast view) and go back in the layout the framework asks for (row-major for JAX, or any
// dimension order given as minor_to_major, or explicit byte strides). Copies are element by
// element with a contiguous inner run copied at once.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "vkhlo/status.h"
#include "xla/pjrt/c/pjrt_c_api.h"

namespace vkhlo::pjrt {

// Byte strides of the dense row-major layout of `dims`.
std::vector<int64_t> RowMajorByteStrides(std::span<const int64_t> dims, int64_t element_bytes);

// The byte strides a PJRT layout describes: null is row-major; a tiled layout must have no
// tiles and a minor_to_major that is a permutation of the dimensions; strides are taken as
// given (one per dimension). UNIMPLEMENTED for tiled layouts with tiles.
StatusOr<std::vector<int64_t>> ByteStridesOf(const PJRT_Buffer_MemoryLayout* layout, std::span<const int64_t> dims,
                                             int64_t element_bytes, std::string_view function);

// Whether `strides` lay `dims` out densely row-major (dimensions of extent 1 may have any
// stride; an empty array is always dense).
bool IsDenseRowMajor(std::span<const int64_t> strides, std::span<const int64_t> dims, int64_t element_bytes);

// Copies a strided host array into dense row-major `dst` (num_elements * element_bytes).
void CopyStridedToRowMajor(const uint8_t* src, std::span<const int64_t> strides, std::span<const int64_t> dims,
                           int64_t element_bytes, uint8_t* dst);
// Copies dense row-major `src` into a strided host array.
void CopyRowMajorToStrided(const uint8_t* src, std::span<const int64_t> dims, int64_t element_bytes, uint8_t* dst,
                           std::span<const int64_t> strides);

// Bytes a strided array with `strides` spans past its first element's address, and before it
// (negative strides), so that a destination's size can be checked.
struct StridedExtent {
  int64_t before = 0;  // bytes before the base address
  int64_t after = 0;   // bytes from the base address to the end of the last element
};
StridedExtent ExtentOf(std::span<const int64_t> strides, std::span<const int64_t> dims, int64_t element_bytes);

}  // namespace vkhlo::pjrt
