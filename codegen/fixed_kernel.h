// Fixed kernels: GLSL files under shaders/ (linalg/, sort/, random/) that codegen specialises at
// run time. A kernel family's C++ chooses the variant (defines), the bindings, push constants and
// dispatch sizes; the algorithm is the file's. The GLSL of one dispatch is
//   DeviceKernelHeader(bindings, workgroup, push fields, extensions, header facts)
//   #define in0 b0 ...              (names of bindings, which generated code may use)
//   generated                       (element functions from the elemental emitter, if any, with
//                                    their includes of the GLSL runtime library)
//   #define NAME value ...          (the variant: sizes, types, directions; after the generated
//                                    code and the library, whose identifiers they must not rename)
//   #define VKHLO_KEEP_BINDINGS ... (the statement main() starts with; device_kernel.h)
//   the file, with its `#include`s of other shaders/ files expanded in place
// Includes of the GLSL runtime library (hlo_*.glsl) are left to the compiler. Why not compile
// them at build time: their sizes are compile-time constants (the loops and tiles are unrolled
// around them) and their element loads, stores and comparators come from the elemental emitter,
// so their variants are not a finite set. See docs/codegen.md, "Fixed kernels".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codegen/device_kernel.h"

namespace vkhlo::codegen {

struct FixedKernelSource {
  std::string file;  // below shaders/, e.g. "linalg/cholesky.comp"
  std::vector<std::pair<std::string, std::string>> binding_names;
  std::vector<std::pair<std::string, std::string>> defines;
  std::string generated;  // GLSL placed before the file
  KernelHeaderFacts header;  // the kernel's header: name, variant and why, op (device_kernel.h)

  // `#define name b<binding>`.
  FixedKernelSource& NameBinding(std::string name, size_t binding);
  // `#define name value` as written.
  FixedKernelSource& Define(std::string name, std::string value);
  // An unsigned constant: "12u" (for GLSL expressions).
  FixedKernelSource& DefineUint(std::string name, uint64_t value);
  // A plain integer: "12" (for `#if` tests and int contexts).
  FixedKernelSource& DefineInt(std::string name, int64_t value);
  // 1 or 0 (for `#if` tests).
  FixedKernelSource& DefineFlag(std::string name, bool value);
  // The header's name and op (with its location in `source_name`).
  FixedKernelSource& Describe(std::string name, const ir::Operation& op, std::string source_name);
  // A `config:` / `why:` line of the header.
  FixedKernelSource& Config(std::string line);
  FixedKernelSource& Why(std::string line);
};

// The GLSL of a dispatch (see above), or an internal error naming a missing shaders/ file.
StatusOr<std::string> FixedKernelGlsl(const std::vector<KernelBuffer>& bindings, std::array<uint32_t, 3> workgroup_size,
                                      const std::string& push_fields, const std::vector<std::string>& extensions,
                                      const FixedKernelSource& source);

// The text of shaders/`name` with its includes of other shaders/ files expanded (each once).
StatusOr<std::string> ExpandedShaderSource(std::string_view name);

// The same for writers that return text: a missing file becomes an `#error` line naming it, so
// the kernel's compile fails with that message.
std::string ShaderSourceText(std::string_view name);

}  // namespace vkhlo::codegen
