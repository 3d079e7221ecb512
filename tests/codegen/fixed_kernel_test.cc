// The fixed kernels' assembly (codegen/fixed_kernel.h): shaders/ files with their includes
// expanded once, and the parts of a dispatch's GLSL in their order. No device needed; the
// kernels themselves are tested against the interpreter (sort_test, linalg_test, rng_test, ...).
#include "codegen/fixed_kernel.h"

#include <gtest/gtest.h>

#include <string>

#include "shader_sources.h"

namespace vkhlo::codegen {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(FixedKernelTest, IncludesOfShaderFilesAreExpandedOnce) {
  // top_k.comp includes sort/sort_order.glsl; the order's functions appear once, the directive not.
  StatusOr<std::string> text = ExpandedShaderSource("sort/top_k.comp");
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(Count(*text, "bool vkhlo_sort_before("), 1u);
  EXPECT_EQ(Count(*text, "#include \"sort/"), 0u);
  // triangular_solve.comp includes linalg_types.glsl, and register_tile.glsl inside main().
  text = ExpandedShaderSource("linalg/triangular_solve.comp");
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(Count(*text, "T t_zero() {"), 1u);
  EXPECT_EQ(Count(*text, "#define TILE_STEP(lane, k)"), 1u);
}

TEST(FixedKernelTest, EveryShaderSourceExpands) {
  // A kernel file's include of another shaders/ file that is not embedded would be left for
  // the GLSL compiler, which would not find it: every include with a directory must resolve.
  for (const shaders::ShaderSourceFile& file : shaders::AllShaderSources()) {
    StatusOr<std::string> text = ExpandedShaderSource(file.name);
    ASSERT_TRUE(text.ok()) << file.name << ": " << text.status().ToString();
    for (size_t at = text->find("#include \""); at != std::string::npos; at = text->find("#include \"", at + 1)) {
      const std::string name = text->substr(at + 10, text->find('"', at + 10) - at - 10);
      EXPECT_EQ(name.find('/'), std::string::npos) << file.name << " includes " << name;
    }
  }
}

TEST(FixedKernelTest, MissingFileIsAnErrorNamingIt) {
  StatusOr<std::string> text = ExpandedShaderSource("sort/no_such_kernel.comp");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("shaders/sort/no_such_kernel.comp"), std::string::npos)
      << text.status().ToString();
  EXPECT_NE(ShaderSourceText("sort/no_such_kernel.comp").find("#error"), std::string::npos);
}

TEST(FixedKernelTest, VariantDefinesFollowTheGeneratedCode) {
  // The defines come after the generated code (and the GLSL library it includes), so that a
  // define such as N or T never renames an identifier there; binding names come before it.
  FixedKernelSource source;
  source.file = "random/philox.glsl";
  source.NameBinding("in0", 0).DefineUint("N", 12).DefineFlag("WIDE", true).Define("T", "float");
  source.generated = "uint generated_code(uint N) { return in0[N]; }\n";
  StatusOr<std::string> glsl = FixedKernelGlsl({KernelBuffer::Scratch(0, true)}, {64, 1, 1}, "", {}, source);
  ASSERT_TRUE(glsl.ok()) << glsl.status().ToString();
  const size_t name = glsl->find("#define in0 b0\n"), generated = glsl->find("uint generated_code(");
  const size_t n = glsl->find("#define N 12u\n"), keep = glsl->find("#define VKHLO_KEEP_BINDINGS ");
  const size_t file = glsl->find("uvec4 philox4x32(");
  ASSERT_NE(name, std::string::npos);
  ASSERT_NE(n, std::string::npos);
  EXPECT_LT(name, generated);
  EXPECT_LT(generated, n);
  EXPECT_NE(glsl->find("#define WIDE 1\n"), std::string::npos);
  EXPECT_NE(glsl->find("#define T float\n"), std::string::npos);
  EXPECT_LT(n, keep);
  EXPECT_LT(keep, file);
}

}  // namespace
}  // namespace vkhlo::codegen
