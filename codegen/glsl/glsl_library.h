// The GLSL runtime library (shaders/library/*.glsl), embedded in the binary at build time.
//
// Generated shaders include these files by name (`#include "hlo_math_f32.glsl"`); the code
// generator's glslang includer resolves such names with FindGlslLibraryFile. Files whose name
// ends in _f64 need the Float64 capability (shaderFloat64); the others need only GLSL 4.50 core
// (32-bit types), so every Vulkan device can run them. A source written once for both precisions
// (hlo_complex.glsl) is found here too, for its instances hlo_complex_f32/f64.glsl to include;
// kernels include the instances. See docs/design.md, "GLSL runtime library".
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace vkhlo::codegen {

// The text of the library file `name` ("hlo_math_f32.glsl"), or nullopt if there is none.
std::optional<std::string_view> FindGlslLibraryFile(std::string_view name);

// Every library file name, sorted.
std::span<const std::string_view> GlslLibraryFileNames();

}  // namespace vkhlo::codegen
