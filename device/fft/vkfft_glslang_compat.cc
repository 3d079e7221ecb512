// The wrappers of vkfft_glslang_compat.h: an old-layout glslang input becomes a real one.
#include "device/fft/vkfft_glslang_compat.h"

#include "device/fft/vkfft_glslang_compat_end.h"  // the real glslang names from here on

#include <glslang/Public/resource_limits_c.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

namespace {

// The 92 ints before the mesh-shader EXT fields have the same names and order in both layouts;
// the old layout's last int is max_dual_source_draw_buffers_ext.
constexpr int kSharedPrefixInts = kVkfftLegacyResourceInts - 1;
static_assert(offsetof(glslang_resource_t, max_mesh_view_count_nv) ==
                  (kSharedPrefixInts - 1) * sizeof(int),
              "glslang_resource_t no longer starts with VkFFT's 92 ints");
static_assert(offsetof(glslang_resource_t, max_mesh_output_vertices_ext) ==
                  kSharedPrefixInts * sizeof(int),
              "glslang_resource_t changed after max_mesh_view_count_nv");

glslang_resource_t ToCurrent(const VkfftLegacyResource& legacy) {
  glslang_resource_t resource = *glslang_default_resource();
  std::memcpy(&resource, legacy.values, kSharedPrefixInts * sizeof(int));
  resource.max_dual_source_draw_buffers_ext = legacy.values[kSharedPrefixInts];
  resource.limits = legacy.limits;
  return resource;
}

// A real glslang_input_t equal to a legacy one, with the resource it points to.
struct CurrentInput {
  glslang_resource_t resource;
  glslang_input_t input;
};

void Convert(const VkfftLegacyInput* legacy, CurrentInput& out) {
  out.resource = ToCurrent(*legacy->resource);
  glslang_input_t& input = out.input;
  input.language = legacy->language;
  input.stage = legacy->stage;
  input.client = legacy->client;
  input.client_version = legacy->client_version;
  input.target_language = legacy->target_language;
  input.target_language_version = legacy->target_language_version;
  input.code = legacy->code;
  input.default_version = legacy->default_version;
  input.default_profile = legacy->default_profile;
  input.force_default_version_and_profile = legacy->force_default_version_and_profile;
  input.forward_compatible = legacy->forward_compatible;
  input.messages = legacy->messages;
  input.resource = &out.resource;
}

// Inputs of live shaders: glslang_shader_create keeps &input->code, read again by preprocess.
std::mutex shaders_mutex;
std::map<glslang_shader_t*, std::unique_ptr<CurrentInput>>& ShaderInputs() {
  static auto* inputs = new std::map<glslang_shader_t*, std::unique_ptr<CurrentInput>>();
  return *inputs;
}

// Calls `fn` with a real glslang_input_t equal to `legacy`, for calls that keep no pointer to it.
template <typename Fn>
auto WithCurrentInput(const VkfftLegacyInput* legacy, Fn fn) {
  CurrentInput current;
  Convert(legacy, current);
  return fn(&current.input);
}

}  // namespace

extern "C" {

glslang_shader_t* vkhlo_vkfft_shader_create(const VkfftLegacyInput* input) {
  auto current = std::make_unique<CurrentInput>();
  Convert(input, *current);
  glslang_shader_t* shader = glslang_shader_create(&current->input);
  if (shader != nullptr) {
    std::lock_guard<std::mutex> lock(shaders_mutex);
    ShaderInputs()[shader] = std::move(current);
  }
  return shader;
}

void vkhlo_vkfft_shader_delete(glslang_shader_t* shader) {
  glslang_shader_delete(shader);
  std::lock_guard<std::mutex> lock(shaders_mutex);
  ShaderInputs().erase(shader);
}

int vkhlo_vkfft_shader_preprocess(glslang_shader_t* shader, const VkfftLegacyInput* input) {
  return WithCurrentInput(input, [&](const glslang_input_t* in) {
    return glslang_shader_preprocess(shader, in);
  });
}

int vkhlo_vkfft_shader_parse(glslang_shader_t* shader, const VkfftLegacyInput* input) {
  return WithCurrentInput(input, [&](const glslang_input_t* in) {
    return glslang_shader_parse(shader, in);
  });
}

}  // extern "C"
