// NumPy .npy files (format version 1.0/2.0/3.0, C order) to and from Literals, for vkhlo-run's
// inputs and outputs. Supported dtypes: bool, int8..int64, uint8..uint64, float16, float32,
// float64, complex64, complex128 (little-endian). Other element types (bf16, f8, sub-byte ints)
// have no standard .npy dtype: reading or writing them is an error naming the type.
#pragma once

#include <string>

#include "ir/literal.h"
#include "vkhlo/status.h"

namespace vkhlo::tools {

StatusOr<ir::Literal> ReadNpy(const std::string& path);
Status WriteNpy(const std::string& path, const ir::Literal& literal);

}  // namespace vkhlo::tools
