// PJRT's element types (PJRT_Buffer_Type) against vkhlo's (TensorType's MLIR spellings), and
// the bytes one element takes in host memory. Host data is laid out as JAX's numpy arrays hold
// it, which is vkhlo's storage layout too: i1 one byte 0/1, sub-byte types (int4, uint2,
// float4_e2m1fn) one byte per element, complex as (real, imaginary) pairs, little-endian.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "vkhlo/status.h"
#include "xla/pjrt/c/pjrt_c_api.h"

namespace vkhlo::pjrt {

// "f32" for PJRT_Buffer_Type_F32; UNIMPLEMENTED for INVALID, TOKEN and values this plugin
// does not know.
StatusOr<std::string> VkhloElementType(PJRT_Buffer_Type type);
// PJRT_Buffer_Type_F32 for "f32"; nullopt for a type PJRT has no name for.
std::optional<PJRT_Buffer_Type> PjrtElementType(std::string_view vkhlo_type);
// Bytes of one element in host (and vkhlo storage) layout.
int HostElementBytes(PJRT_Buffer_Type type);
// "F32", for messages.
std::string_view PjrtElementTypeName(PJRT_Buffer_Type type);

}  // namespace vkhlo::pjrt
