// Bindings larger than maxStorageBufferRange, reached through buffer device addresses.
//
// A storage-buffer descriptor covers at most maxStorageBufferRange bytes (128 MiB on lavapipe
// and many phones); a tensor beyond it cannot be bound as one. On devices with
// bufferDeviceAddress the runtime instead binds, at the same binding, a small buffer holding
// the 64-bit address of the tensor's view (device/command_list.h, Binding through
// ShaderBinding::device_address), and the kernel reaches the tensor through
// GL_EXT_buffer_reference. The rewrite works on the finished GLSL of any kernel family, so no
// emitter knows about it: every storage block declared at a chosen binding,
//
//   layout(set = 0, binding = 3) readonly restrict buffer Buffer3 { uint in3[]; };
//
// becomes a buffer-reference block type with the same qualifiers and members, the binding's
// descriptor becomes a block holding the address (uvec2: no shaderInt64 needed), which main()
// copies first into a private variable, and each member name (or the instance name, for blocks
// that have one) becomes a macro, so every access `in3[i]` (loads, stores, atomics) compiles
// unchanged:
//
//   layout(buffer_reference, std430, buffer_reference_align = 4) readonly restrict buffer Buffer3_ref { uint in3[]; };
//   layout(set = 0, binding = 3, std430) readonly restrict buffer VkhloAddress3 { uvec2 vkhlo_address_3; };
//   uvec2 vkhlo_a3;
//   #define in3 (Buffer3_ref(vkhlo_a3).in3)
//   ...
//   void main() {
//     vkhlo_a3 = vkhlo_address_3;
//
// Several views of one binding (`uint in0[]` and `uvec4 in0v[]`) share the address. Texel
// bindings (`uniform imageBuffer`) are left alone: their limit is maxTexelBufferElements, which
// the emitters check.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "vkhlo/status.h"

namespace vkhlo::codegen {

struct AddressedGlsl {
  std::string glsl;
  std::set<uint32_t> rewritten;  // the bindings now bound through an address
  std::set<uint32_t> texel;      // asked for, but declared as texel buffers (left alone)
};

// Rewrites every storage block at one of `bindings` (set 0). A binding the shader does not
// declare is ignored. Errors: a block of an unexpected form at one of them; no `void main()`.
StatusOr<AddressedGlsl> BindThroughAddresses(std::string_view glsl, const std::set<uint32_t>& bindings);

}  // namespace vkhlo::codegen
