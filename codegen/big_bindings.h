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
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

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

// Bindings larger than maxStorageBufferRange on devices WITHOUT bufferDeviceAddress: several
// descriptors ("windows") of the same buffer. Binding b of B bytes becomes K = ceil(B / S)
// windows; window k covers bytes [k*S, min((k+1)*S, B)) and is bound at binding
// window_bindings[k] (window 0 at b itself, the others at new numbers after the kernel's
// highest binding, in order of b). S is a multiple of 16 (and of the caller's offset
// alignment), so an element of 1, 2, 4, 8 or 16 bytes never straddles two windows. Every
// storage block at b (each view: `uint in0[]`, `uvec4 in0v[]`) is declared once per window
// (`Buffer0_w1 { uint in0_w1[]; }`) and every access of its array is rewritten so that each
// descriptor is indexed by a constant (no dynamic descriptor indexing):
//
//   reads        in0[e]              -> in0_at(uint(e))   (i < L1 ? in0_w0[i] : in0_w1[i - L1])
//   writes       in0[e].x += v;      -> { uint vkhlo_i = uint(e); if (vkhlo_i < L1) in0_w0[vkhlo_i].x += (v);
//                                         else in0_w1[vkhlo_i - L1].x += (v); }
//   atomics      atomicAdd(in0[e], v) -> in0_atomicAdd(uint(e), v)   (a generated wrapper)
//
// Anything else that names such an array (`in0.length()`, passing it to a function,
// `in0[i]++`, an assignment inside an expression or a preprocessor line) is an error: the
// rewrite never emits code it cannot vouch for.
struct WindowedBinding {
  uint32_t binding = 0;
  uint64_t window_bytes = 0;               // S
  std::vector<uint32_t> window_bindings;   // K entries, [0] == binding
};

struct WindowedGlsl {
  std::string glsl;
  std::vector<WindowedBinding> windowed;   // sorted by binding; only bindings the shader declares
  std::set<uint32_t> texel;                // asked for, but declared as texel buffers (left alone)
};

// `bytes` maps each binding to rewrite to its size; `window_bytes` (S) must be a positive
// multiple of 16.
StatusOr<WindowedGlsl> BindThroughWindows(std::string_view glsl, const std::map<uint32_t, uint64_t>& bytes,
                                          uint64_t window_bytes);

}  // namespace vkhlo::codegen
