// Storage sizes of tensor types, and the check that a program's tensors could fit in memory:
// a program whose tensors cannot exist on the machine (tensor<9223372036854775807xi8>, a splat
// constant as large) fails with a clear error before it runs, on the interpreter and on the
// device, rather than looping over 2^63 elements or allocating until the process is killed.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::ir {

// Bytes of `type`'s elements at StorageBytes() each (tuples: the sum; tokens: 0), or nullopt
// when that overflows int64 (the verifier rejects such types).
std::optional<uint64_t> TensorStorageBytes(const Type& type);

// RESOURCE_EXHAUSTED at the first function argument or result, op result or region argument
// of `module` that needs more than `limit_bytes`:
//   "<file>:<line>:<col>: error: 'stablehlo.iota' result of type tensor<...> needs N bytes,
//    more than the M bytes of <memory>"
// `memory` names the memory ("host memory vkhlo may use (VKHLO_HOST_MEMORY_LIMIT)", "device
// memory of '<name>'"). Linear in the module's size.
//
// `checked_later` (optional): op results it returns true for are skipped here, for a caller that
// checks them once it knows which are stored (the Vulkan compile: fused values never are).
Status CheckTensorsFit(const Module& module, uint64_t limit_bytes, std::string_view memory,
                       const std::function<bool(const Operation&, const Type&)>& checked_later = nullptr);

}  // namespace vkhlo::ir
