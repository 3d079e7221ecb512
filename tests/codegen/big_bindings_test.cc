// codegen/big_bindings: storage blocks rewritten into buffer references, text in, checked text
// and valid SPIR-V out (several views of one binding, qualifiers, instance names, atomics).
#include "codegen/big_bindings.h"

#include <gtest/gtest.h>

#include <string>

#include "codegen/glsl_compiler.h"

namespace vkhlo::codegen {
namespace {

constexpr const char* kKernel = R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// layout(set = 0, binding = 0) readonly buffer Fake { uint nothing[]; };  (a comment: untouched)
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Buffer0 { uint in0[]; };
layout(set = 0, binding = 0) readonly buffer Buffer0v { uvec4 in0v[]; };
layout(set = 0, binding = 1) writeonly restrict buffer Buffer1 { uint in1[]; };
layout(std430, binding = 2) coherent buffer Counters { uint count[]; } counters;
layout(set = 0, binding = 3) restrict buffer Buffer3 { float16_t in3[]; };
layout(set = 0, binding = 4, rgba32f) readonly uniform imageBuffer in4t;
layout(push_constant) uniform Push { uvec4 vkhlo_workgroup_base; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  in1[i] = in0[i] + in0v[i / 4u].x + uint(in3[i]) + floatBitsToUint(imageLoad(in4t, int(i)).x);
  atomicAdd(counters.count[0], 1u);
  atomicOr(in1[i + 1u], 2u);
}
)";

TEST(BigBindings, NothingAskedLeavesTheTextAlone) {
  auto out = BindThroughAddresses(kKernel, {});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->glsl, kKernel);
  EXPECT_TRUE(out->rewritten.empty());
}

TEST(BigBindings, RewritesEveryViewAndCompiles) {
  auto out = BindThroughAddresses(kKernel, {0, 1, 2, 3, 4, 7});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const std::string& g = out->glsl;
  EXPECT_EQ(out->rewritten, (std::set<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(out->texel, (std::set<uint32_t>{4}));
  EXPECT_EQ(g.find("#version 450\n#extension GL_EXT_buffer_reference : require\n"), 0u) << g;
  EXPECT_NE(g.find("layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Buffer0_ref { uint in0[]; };"),
            std::string::npos) << g;
  EXPECT_NE(g.find("layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Buffer0v_ref { uvec4 in0v[]; };"),
            std::string::npos) << g;
  EXPECT_NE(g.find("layout(buffer_reference, std430, buffer_reference_align = 4) writeonly restrict buffer Buffer1_ref"),
            std::string::npos) << g;
  EXPECT_NE(g.find("layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Counters_ref"),
            std::string::npos) << g;
  EXPECT_NE(g.find("buffer_reference_align = 2) restrict buffer Buffer3_ref { float16_t in3[]; };"), std::string::npos) << g;
  // One address block per binding, however many views.
  EXPECT_NE(g.find("binding = 0, std430) readonly restrict buffer VkhloAddress0 { uvec2 vkhlo_address_0; };"),
            std::string::npos) << g;
  EXPECT_EQ(g.find("VkhloAddress0", g.find("VkhloAddress0") + 1), std::string::npos) << g;
  EXPECT_NE(g.find("#define in0 (Buffer0_ref(vkhlo_a0).in0)\n"), std::string::npos) << g;
  EXPECT_NE(g.find("#define in0v (Buffer0v_ref(vkhlo_a0).in0v)\n"), std::string::npos) << g;
  EXPECT_NE(g.find("#define counters (Counters_ref(vkhlo_a2))\n"), std::string::npos) << g;
  // main() copies each address once (private copies the compiler can keep in registers).
  EXPECT_NE(g.find("void main() {\n  vkhlo_a0 = vkhlo_address_0;\n  vkhlo_a1 = vkhlo_address_1;\n  vkhlo_a2 = "
                   "vkhlo_address_2;\n  vkhlo_a3 = vkhlo_address_3;\n"),
            std::string::npos) << g;
  // The comment, the texel binding, the push constants and the accesses are untouched.
  EXPECT_NE(g.find("// layout(set = 0, binding = 0) readonly buffer Fake"), std::string::npos);
  EXPECT_NE(g.find("layout(set = 0, binding = 4, rgba32f) readonly uniform imageBuffer in4t;"), std::string::npos);
  EXPECT_NE(g.find("atomicAdd(counters.count[0], 1u);"), std::string::npos);

  GlslCompiler compiler("");
  auto spirv = compiler.Compile(g, {.name = "big"});
  ASSERT_TRUE(spirv.ok()) << spirv.status().ToString() << "\n" << g;
  EXPECT_TRUE(ValidateSpirv(**spirv).ok());
  const std::string assembly = DisassembleSpirv(**spirv);
  EXPECT_NE(assembly.find("PhysicalStorageBuffer"), std::string::npos);
}

TEST(BigBindings, SomeBindingsOnly) {
  auto out = BindThroughAddresses(kKernel, {1});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->rewritten, (std::set<uint32_t>{1}));
  EXPECT_NE(out->glsl.find("layout(set = 0, binding = 0) readonly buffer Buffer0 { uint in0[]; };"), std::string::npos);
  EXPECT_NE(out->glsl.find("#define in1 (Buffer1_ref(vkhlo_a1).in1)"), std::string::npos);
  GlslCompiler compiler("");
  auto spirv = compiler.Compile(out->glsl, {.name = "big"});
  ASSERT_TRUE(spirv.ok()) << spirv.status().ToString();
}

TEST(BigBindings, UndeclaredBindingIsIgnored) {
  auto out = BindThroughAddresses(kKernel, {9});
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->rewritten.empty());
  EXPECT_EQ(out->glsl, kKernel);
}

TEST(BigBindings, UnreadableBlockIsAnError) {
  auto out = BindThroughAddresses("#version 450\nlayout(set = 0, binding = 0) buffer B { };\n", {0});
  EXPECT_FALSE(out.ok());
}

}  // namespace
}  // namespace vkhlo::codegen
