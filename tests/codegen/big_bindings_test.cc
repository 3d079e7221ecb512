// codegen/big_bindings: storage blocks rewritten into buffer references, text in, checked text
// and valid SPIR-V out (several views of one binding, qualifiers, instance names, atomics).
#include "codegen/big_bindings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

// --- Several descriptors (windows), for devices without bufferDeviceAddress ---

constexpr const char* kWindowKernel = R"(#version 450
// in0[i] = 1;  (a comment: untouched)
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Buffer0 { uint in0[]; };
layout(set = 0, binding = 0) readonly buffer Buffer0v { uvec4 in0v[]; };
layout(set = 0, binding = 1) restrict buffer Buffer1 { uint out1[]; };
layout(set = 0, binding = 2) buffer Buffer2 { uvec2 out2[]; };
layout(std430, binding = 3) coherent buffer Counters { uint count[]; } counters;
layout(set = 0, binding = 4) readonly buffer Buffer4 { uint small[]; };
layout(push_constant) uniform Push { uvec4 vkhlo_workgroup_base; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint lut[2] = uint[2](0u, 1u);
  out1[i] = in0[i] + in0v[(i / 4u)].x + small[in0[lut[(i & 1u)]]];
  out1[in0[i + 1u] + (i * 2u)] += 3u;
  if (i == 0u) out2[i].y = in0v[i][2];
  else out2[i] = uvec2(in0[i], 1u);
  for (uint k = 0u; k < 2u; ++k) { out1[k] ^= 1u; }
  atomicAdd(counters.count[in0[i]], 1u);
  uint old = atomicCompSwap(out1[i + 1u], 2u, in0[i]);
  atomicMax(out1[i], old);
}
)";

TEST(BigWindows, RewritesReadsWritesAndAtomicsAndCompiles) {
  // Windows of 64 bytes: in0 (160 bytes) has 3, out1 (100) 2, out2 (64) 1, counters (130) 3.
  auto out = BindThroughWindows(kWindowKernel, {{0, 160}, {1, 100}, {2, 64}, {3, 130}}, 64);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const std::string& g = out->glsl;
  ASSERT_EQ(out->windowed.size(), 4u);
  EXPECT_EQ(out->windowed[0].window_bindings, (std::vector<uint32_t>{0, 5, 6})) << g;
  EXPECT_EQ(out->windowed[1].window_bindings, (std::vector<uint32_t>{1, 7})) << g;
  EXPECT_EQ(out->windowed[2].window_bindings, (std::vector<uint32_t>{2})) << g;
  EXPECT_EQ(out->windowed[3].window_bindings, (std::vector<uint32_t>{3, 8, 9})) << g;
  EXPECT_EQ(out->windowed[0].window_bytes, 64u);
  // Each view is declared once per window, at the binding's windows.
  EXPECT_NE(g.find("layout(set = 0, binding = 0, std430) readonly buffer Buffer0_w0 { uint in0_w0[]; };"), std::string::npos) << g;
  EXPECT_NE(g.find("layout(set = 0, binding = 6, std430) readonly buffer Buffer0_w2 { uint in0_w2[]; };"), std::string::npos) << g;
  EXPECT_NE(g.find("layout(set = 0, binding = 5, std430) readonly buffer Buffer0v_w1 { uvec4 in0v_w1[]; };"), std::string::npos) << g;
  EXPECT_NE(g.find("layout(set = 0, binding = 7, std430) restrict buffer Buffer1_w1 { uint out1_w1[]; };"), std::string::npos) << g;
  // Reads: a function choosing the window by constant bounds (in elements: 64 bytes = 16 uints = 4 uvec4s).
  EXPECT_NE(g.find("uint in0_at(uint i) { return i < 16u ? in0_w0[i] : i < 32u ? in0_w1[i - 16u] : in0_w2[i - 32u]; }"),
            std::string::npos) << g;
  EXPECT_NE(g.find("uvec4 in0v_at(uint i) { return i < 4u ? in0v_w0[i] : i < 8u ? in0v_w1[i - 4u] : in0v_w2[i - 8u]; }"),
            std::string::npos) << g;
  // Nested brackets and reads inside indices.
  EXPECT_NE(g.find("out1_w0[vkhlo_i] = (in0_at(uint(i)) + in0v_at(uint((i / 4u))).x + small[in0_at(uint(lut[(i & 1u)]))]);"),
            std::string::npos) << g;
  EXPECT_NE(g.find("{ uint vkhlo_i = uint(i); if (vkhlo_i < 16u) out1_w0[vkhlo_i] = ("), std::string::npos) << g;
  // Compound assignment with a read in the index.
  EXPECT_NE(g.find("{ uint vkhlo_i = uint(in0_at(uint(i + 1u)) + (i * 2u)); if (vkhlo_i < 16u) out1_w0[vkhlo_i] += (3u); "
                   "else out1_w1[vkhlo_i - 16u] += (3u); }"),
            std::string::npos) << g;
  // Component writes, under if / else; a component read by index; a one-window binding.
  EXPECT_NE(g.find("if (i == 0u) { uint vkhlo_i = uint(i); out2_w0[vkhlo_i].y = (in0v_at(uint(i))[2]); }"), std::string::npos) << g;
  EXPECT_NE(g.find("else { uint vkhlo_i = uint(i); out2_w0[vkhlo_i] = (uvec2(in0_at(uint(i)), 1u)); }"), std::string::npos) << g;
  EXPECT_NE(g.find("{ { uint vkhlo_i = uint(k); if (vkhlo_i < 16u) out1_w0[vkhlo_i] ^= (1u); else out1_w1[vkhlo_i - 16u] ^= (1u); } }"),
            std::string::npos) << g;
  // Atomics through wrappers (an instance-named block too).
  EXPECT_NE(g.find("count_atomicAdd(uint(in0_at(uint(i))), 1u);"), std::string::npos) << g;
  EXPECT_NE(g.find("uint count_atomicAdd(uint i, uint v) { if (i < 16u) return atomicAdd(count_w0[i], v); if (i < 32u) return "
                   "atomicAdd(count_w1[i - 16u], v); return atomicAdd(count_w2[i - 32u], v); }"),
            std::string::npos) << g;
  EXPECT_NE(g.find("uint old = out1_atomicCompSwap(uint(i + 1u), 2u, in0_at(uint(i)));"), std::string::npos) << g;
  EXPECT_NE(g.find("uint out1_atomicCompSwap(uint i, uint v, uint w) { if (i < 16u) return atomicCompSwap(out1_w0[i], v, w); "
                   "return atomicCompSwap(out1_w1[i - 16u], v, w); }"),
            std::string::npos) << g;
  EXPECT_NE(g.find("out1_atomicMax(uint(i), old);"), std::string::npos) << g;
  // Every window stays in the interface, however the optimizer folds indices.
  EXPECT_NE(g.find("void main() {\n  if (gl_NumWorkGroups.x == 0u && (in0_w0.length() + in0_w1.length() + in0_w2.length() + "
                   "out1_w0.length() + out1_w1.length() + out2_w0.length() + count_w0.length() + count_w1.length() + "
                   "count_w2.length()) == 12345) return;\n"),
            std::string::npos) << g;
  // Untouched: the comment, a binding not asked for.
  EXPECT_NE(g.find("// in0[i] = 1;  (a comment: untouched)"), std::string::npos) << g;
  EXPECT_NE(g.find("layout(set = 0, binding = 4) readonly buffer Buffer4 { uint small[]; };"), std::string::npos) << g;
  // No access of a windowed array is left.
  const std::string body = g.substr(g.find("void main()"));
  for (const char* name : {"in0[", "in0v[", "out1[", "out2[", "count["}) {
    EXPECT_EQ(body.find(std::string(" ") + name), std::string::npos) << name << "\n" << g;
    EXPECT_EQ(body.find(std::string("(") + name), std::string::npos) << name << "\n" << g;
  }

  GlslCompiler compiler("");
  auto spirv = compiler.Compile(g, {.name = "windows"});
  ASSERT_TRUE(spirv.ok()) << spirv.status().ToString() << "\n" << g;
  EXPECT_TRUE(ValidateSpirv(**spirv).ok());
}

TEST(BigWindows, NothingAskedOrUndeclaredLeavesTheTextAlone) {
  auto out = BindThroughWindows(kWindowKernel, {}, 64);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->glsl, kWindowKernel);
  out = BindThroughWindows(kWindowKernel, {{9, 1000}}, 64);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->glsl, kWindowKernel);
  EXPECT_TRUE(out->windowed.empty());
}

TEST(BigWindows, TexelBindingsAreLeftAlone) {
  const char* k = "#version 450\nlayout(set = 0, binding = 0, r32f) readonly uniform imageBuffer t;\n"
                  "layout(set = 0, binding = 1) buffer B { float o[]; };\nvoid main() { o[0] = imageLoad(t, 0).x; }\n";
  auto out = BindThroughWindows(k, {{0, 1000}, {1, 100}}, 64);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->texel, (std::set<uint32_t>{0}));
  ASSERT_EQ(out->windowed.size(), 1u);
  EXPECT_EQ(out->windowed[0].window_bindings, (std::vector<uint32_t>{1, 2}));
  GlslCompiler compiler("");
  EXPECT_TRUE(compiler.Compile(out->glsl, {.name = "t"}).ok()) << out->glsl;
}

// `#define in0 b0` (the sort kernels' input names): accesses through the alias are rewritten.
TEST(BigWindows, AliasesThroughDefines) {
  const char* k = "#version 450\nlayout(set = 0, binding = 0) readonly buffer B0 { uint b0[]; };\n"
                  "layout(set = 0, binding = 1) buffer B1 { uint b1[]; };\n#define in0 b0\n"
                  "uint key(uint i) { return in0[i]; }\nvoid main() { b1[0] = key(1u) + in0[2]; }\n";
  auto out = BindThroughWindows(k, {{0, 100}}, 64);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_NE(out->glsl.find("uint key(uint i) { return b0_at(uint(i)); }"), std::string::npos) << out->glsl;
  EXPECT_NE(out->glsl.find("b1[0] = key(1u) + b0_at(uint(2));"), std::string::npos) << out->glsl;
  GlslCompiler compiler("");
  EXPECT_TRUE(compiler.Compile(out->glsl, {.name = "alias"}).ok()) << out->glsl;
}

// A kernel file with one main per pass under #if (shaders/sort/sort.comp): whichever main the
// preprocessor keeps starts by copying the addresses / touching the windows; a write right after
// a directive is a statement of its own.
constexpr const char* kPassesKernel = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer B0 { uint b0[]; };
layout(set = 0, binding = 1) buffer B1 { uint b1[]; };
#define PASS_TWO 1
#if PASS_ONE
void main() { b1[gl_GlobalInvocationID.x] = b0[0]; }
#endif
#if PASS_TWO
void main() {
  uint i = gl_GlobalInvocationID.x;
#if PASS_TWO
  b1[i] = b0[i] + 1u;
#endif
}
#endif
)";

TEST(BigBindings, EveryMainOfAFileWithPassesCopiesTheAddresses) {
  auto out = BindThroughAddresses(kPassesKernel, {0, 1});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const std::string copies = "{\n  vkhlo_a0 = vkhlo_address_0;\n  vkhlo_a1 = vkhlo_address_1;";
  const size_t first = out->glsl.find(copies);
  ASSERT_NE(first, std::string::npos) << out->glsl;
  EXPECT_NE(out->glsl.find(copies, first + 1), std::string::npos) << out->glsl;
  GlslCompiler compiler("");
  EXPECT_TRUE(compiler.Compile(out->glsl, {.name = "passes"}).ok()) << out->glsl;
}

TEST(BigWindows, EveryMainOfAFileWithPassesTouchesTheWindows) {
  auto out = BindThroughWindows(kPassesKernel, {{0, 100}, {1, 100}}, 64);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const std::string touch = "if (gl_NumWorkGroups.x == 0u && (";
  const size_t first = out->glsl.find(touch);
  ASSERT_NE(first, std::string::npos) << out->glsl;
  EXPECT_NE(out->glsl.find(touch, first + 1), std::string::npos) << out->glsl;
  // The write after `#if PASS_TWO` goes through the windows.
  EXPECT_EQ(out->glsl.find("b1[i] ="), std::string::npos) << out->glsl;
  GlslCompiler compiler("");
  EXPECT_TRUE(compiler.Compile(out->glsl, {.name = "passes"}).ok()) << out->glsl;
}

// What the rewrite cannot follow is an error, never wrong code.
TEST(BigWindows, UnsafeUsesAreErrors) {
  const std::string head =
      "#version 450\nlayout(set = 0, binding = 0) buffer B { uint a[]; };\nuint f(uint x) { return x; }\nvoid main() {\n";
  for (const char* body : {"  uint n = a.length();\n", "  a[0]++;\n", "  ++a[0];\n", "  uint x = a[0] = 1u;\n",
                           "  uint x = (a[0] += 1u);\n", "  for (uint k = 0u; k < 2u; a[k] = 1u) {}\n",
                           "  a[0] = 1u, a[1] = 2u;\n", "  uint x = atomicLoad(a[0], 4, 0, 0);\n",
                           "  f(a);\n", "  a [0].x = atomicOr(a[1].x, 1u);\n"}) {
    auto out = BindThroughWindows(head + body + "}\n", {{0, 100}}, 64);
    EXPECT_FALSE(out.ok()) << body << "\n" << out->glsl;
    if (!out.ok()) {
      EXPECT_NE(out.status().message().find("'a'"), std::string::npos) << out.status().ToString();
    }
  }
  // Blocks of another form.
  EXPECT_FALSE(BindThroughWindows("#version 450\nlayout(set = 0, binding = 0) buffer B { uint n; uint a[]; };\n", {{0, 100}}, 64).ok());
  EXPECT_FALSE(BindThroughWindows("#version 450\nlayout(set = 0, binding = 0) buffer B { vec3 a[]; };\n", {{0, 100}}, 64).ok());
  EXPECT_FALSE(BindThroughWindows("#version 450\n", {{0, 100}}, 60).ok());
}

}  // namespace
}  // namespace vkhlo::codegen
