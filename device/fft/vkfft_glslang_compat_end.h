// Ends the renames of vkfft_glslang_compat.h (see there).
#undef glslang_resource_t
#undef glslang_input_t
#undef glslang_shader_create
#undef glslang_shader_preprocess
#undef glslang_shader_parse
#undef glslang_shader_delete
#ifdef VKHLO_VKFFT_WITHOUT_GLSLANG
#undef glslang_initialize_process
#undef glslang_finalize_process
#undef glslang_shader_get_info_log
#undef glslang_program_create
#undef glslang_program_delete
#undef glslang_program_add_shader
#undef glslang_program_link
#undef glslang_program_SPIRV_generate
#undef glslang_program_SPIRV_get_size
#undef glslang_program_SPIRV_get_ptr
#undef glslang_program_SPIRV_get_messages
#undef glslang_program_get_info_log
#endif
