#include "embedded_shaders.h"

namespace vkhlo::shaders {

const EmbeddedShader* FindShader(std::string_view name) {
  for (const EmbeddedShader& shader : AllShaders()) {
    if (shader.name == name) return &shader;
  }
  return nullptr;
}

}  // namespace vkhlo::shaders
