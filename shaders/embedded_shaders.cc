#include "embedded_shaders.h"

namespace vkhlo::shaders {

const EmbeddedShader* FindShaderIn(std::span<const EmbeddedShader> shaders, std::string_view name) {
  for (const EmbeddedShader& shader : shaders) {
    if (shader.name == name) return &shader;
  }
  return nullptr;
}

const EmbeddedShader* FindShader(std::string_view name) { return FindShaderIn(AllShaders(), name); }

}  // namespace vkhlo::shaders
