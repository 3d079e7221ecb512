// Ends the renames of vkfft_glslang_compat.h (see there).
#undef glslang_resource_t
#undef glslang_input_t
#undef glslang_shader_create
#undef glslang_shader_preprocess
#undef glslang_shader_parse
#undef glslang_shader_delete
