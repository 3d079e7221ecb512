#include "tests/device/shaders/test_shaders.h"

namespace vkhlo::testing {

const shaders::EmbeddedShader* FindTestShader(std::string_view name) {
  if (const shaders::EmbeddedShader* probe = shaders::FindShaderIn(test_shaders::AllShaders(), name)) return probe;
  return shaders::FindShader(name);
}

}  // namespace vkhlo::testing
