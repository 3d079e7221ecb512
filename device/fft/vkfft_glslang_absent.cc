// glslang as VkFFT sees it in the runtime-only library (vkfft_glslang_compat.h with
// VKHLO_VKFFT_WITHOUT_GLSLANG): every entry point fails, so VkFFT can load kernels a plan
// carries but never compile one. VkfftApp::Create refuses to compile before VkFFT gets here;
// these only keep the objects free of glslang's symbols.
#ifndef VKHLO_VKFFT_WITHOUT_GLSLANG
#define VKHLO_VKFFT_WITHOUT_GLSLANG
#endif
#include "device/fft/vkfft_glslang_compat.h"

extern "C" {

int glslang_initialize_process() { return 1; }  // nothing to set up
void glslang_finalize_process() {}
const char* glslang_shader_get_info_log(glslang_shader_t*) { return "glslang is not linked"; }
glslang_program_t* glslang_program_create() { return nullptr; }
void glslang_program_delete(glslang_program_t*) {}
void glslang_program_add_shader(glslang_program_t*, glslang_shader_t*) {}
int glslang_program_link(glslang_program_t*, int) { return 0; }
void glslang_program_SPIRV_generate(glslang_program_t*, glslang_stage_t) {}
size_t glslang_program_SPIRV_get_size(glslang_program_t*) { return 0; }
unsigned int* glslang_program_SPIRV_get_ptr(glslang_program_t*) { return nullptr; }
const char* glslang_program_SPIRV_get_messages(glslang_program_t*) { return "glslang is not linked"; }
const char* glslang_program_get_info_log(glslang_program_t*) { return "glslang is not linked"; }

glslang_shader_t* vkhlo_vkfft_shader_create(const VkfftLegacyInput*) { return nullptr; }
int vkhlo_vkfft_shader_preprocess(glslang_shader_t*, const VkfftLegacyInput*) { return 0; }
int vkhlo_vkfft_shader_parse(glslang_shader_t*, const VkfftLegacyInput*) { return 0; }
void vkhlo_vkfft_shader_delete(glslang_shader_t*) {}

}  // extern "C"
