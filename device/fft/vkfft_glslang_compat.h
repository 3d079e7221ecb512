// Compatibility shim between Debian's vkFFT.h (1.2.26) and Debian's glslang 12.
//
// vkFFT.h builds a `glslang_resource_t` with a positional initializer written for glslang
// before 12: 93 ints (MaxLights .. maxMeshViewCountNV, then maxDualSourceDrawBuffersEXT) and
// the `limits` struct. glslang 12 inserted nine mesh-shader fields (max_mesh_*_ext,
// max_task_*_ext, max_mesh_view_count_ext) before the dual-source field, so the old initializer
// no longer compiles: its `limits` braces land on an int.
//
// Rather than an edited copy of vkFFT.h, the one translation unit that includes it
// (vkfft_app.cc) includes this header first. It renames, for vkFFT.h's code only:
//   glslang_resource_t -> VkfftLegacyResource  (the old layout, so the initializer compiles;
//                                               the compiler checks its count both ways)
//   glslang_input_t    -> VkfftLegacyInput     (glslang_input_t pointing at the old layout)
//   glslang_shader_create / _preprocess / _parse -> wrappers that build a real
//     glslang_resource_t: glslang's default resource limits, overwritten by every value
//     VkFFT gave (the mesh-shader EXT fields, which VkFFT does not know, keep the defaults).
//   glslang_shader_delete -> a wrapper that also frees what the create wrapper kept: glslang's
//     shader keeps a pointer into the input it was created with (setStrings(&input->code)),
//     so the converted input lives as long as the shader.
// Every other glslang call VkFFT makes (program link, SPIR-V generation) is unchanged.
//
// Built with VKHLO_VKFFT_WITHOUT_GLSLANG (the runtime-only library, which loads VkFFT's kernels
// from a plan and never compiles any), every other glslang function VkFFT names is renamed too,
// to a stub that fails (vkfft_glslang_absent.cc): the objects then refer to no glslang symbol.
//
// Include this header only immediately before <vkFFT.h>; undo it with
// vkfft_glslang_compat_end.h afterwards.
#pragma once

#ifdef VKHLO_VKFFT_WITHOUT_GLSLANG
#define glslang_initialize_process vkhlo_vkfft_absent_initialize_process
#define glslang_finalize_process vkhlo_vkfft_absent_finalize_process
#define glslang_shader_get_info_log vkhlo_vkfft_absent_shader_get_info_log
#define glslang_program_create vkhlo_vkfft_absent_program_create
#define glslang_program_delete vkhlo_vkfft_absent_program_delete
#define glslang_program_add_shader vkhlo_vkfft_absent_program_add_shader
#define glslang_program_link vkhlo_vkfft_absent_program_link
#define glslang_program_SPIRV_generate vkhlo_vkfft_absent_program_SPIRV_generate
#define glslang_program_SPIRV_get_size vkhlo_vkfft_absent_program_SPIRV_get_size
#define glslang_program_SPIRV_get_ptr vkhlo_vkfft_absent_program_SPIRV_get_ptr
#define glslang_program_SPIRV_get_messages vkhlo_vkfft_absent_program_SPIRV_get_messages
#define glslang_program_get_info_log vkhlo_vkfft_absent_program_get_info_log
#endif

#include <glslang/Include/glslang_c_interface.h>

#ifdef __cplusplus
extern "C" {
#endif

// glslang_resource_t as vkFFT.h 1.2.26 spells it positionally.
enum { kVkfftLegacyResourceInts = 93 };
typedef struct VkfftLegacyResource {
  int values[kVkfftLegacyResourceInts];  // max_lights .. max_mesh_view_count_nv, dual source
  glslang_limits_t limits;
} VkfftLegacyResource;

// glslang_input_t with the resource pointer of the old layout (field order unchanged).
typedef struct VkfftLegacyInput {
  glslang_source_t language;
  glslang_stage_t stage;
  glslang_client_t client;
  glslang_target_client_version_t client_version;
  glslang_target_language_t target_language;
  glslang_target_language_version_t target_language_version;
  const char* code;
  int default_version;
  glslang_profile_t default_profile;
  int force_default_version_and_profile;
  int forward_compatible;
  glslang_messages_t messages;
  const VkfftLegacyResource* resource;
} VkfftLegacyInput;

glslang_shader_t* vkhlo_vkfft_shader_create(const VkfftLegacyInput* input);
int vkhlo_vkfft_shader_preprocess(glslang_shader_t* shader, const VkfftLegacyInput* input);
int vkhlo_vkfft_shader_parse(glslang_shader_t* shader, const VkfftLegacyInput* input);
void vkhlo_vkfft_shader_delete(glslang_shader_t* shader);

#ifdef __cplusplus
}
#endif

#define glslang_resource_t VkfftLegacyResource
#define glslang_input_t VkfftLegacyInput
#define glslang_shader_create vkhlo_vkfft_shader_create
#define glslang_shader_preprocess vkhlo_vkfft_shader_preprocess
#define glslang_shader_parse vkhlo_vkfft_shader_parse
#define glslang_shader_delete vkhlo_vkfft_shader_delete
