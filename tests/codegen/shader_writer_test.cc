// The shader writer (codegen/shader_writer.h): the layout every kernel gets, its header, and the
// keep-every-binding statement, checked on the text and through the GLSL compiler (glslang,
// spirv-opt, spirv-val; no device).
#include "codegen/shader_writer.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "codegen/glsl_compiler.h"

namespace vkhlo::codegen {
namespace {

// The binding numbers a SPIR-V module decorates (OpDecorate <id> Binding <n>).
std::set<uint32_t> DeclaredBindings(const SpirvWords& words) {
  constexpr uint32_t kOpDecorate = 71, kBinding = 33;
  std::set<uint32_t> bindings;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, opcode = words[i] & 0xffffu;
    if (count == 0) break;
    if (opcode == kOpDecorate && count >= 4 && words[i + 2] == kBinding) bindings.insert(words[i + 3]);
    i += count;
  }
  return bindings;
}

size_t Position(const std::string& text, const std::string& what) {
  const size_t at = text.find(what);
  EXPECT_NE(at, std::string::npos) << "missing '" << what << "' in\n" << text;
  return at;
}

TEST(ShaderWriter, LaysOutEveryPartInOneOrder) {
  ShaderWriter w("loop kernel fusion_1 of @main: 8 elements");
  w.Config("workgroup 64, 1 element(s) per invocation");
  w.prelude().Extension("GL_EXT_shader_explicit_arithmetic_types_int64");
  w.prelude().Include("hlo_i64.glsl");
  w.prelude().Helper("twice", "uint twice(uint x) { return x * 2u; }");
  w.prelude().Helper("twice", "uint twice(uint x) { return x + x; }");  // a helper is written once
  w.Workgroup(64);
  w.StorageBuffer(0, "in0", "uint", BufferAccess::kRead);
  w.StorageBuffer(0, "in0v", "uvec4", BufferAccess::kRead, false);
  w.DescribeBinding(0, "input tensor<8xui32>");
  w.StorageBuffer(1, "in1", "uint", BufferAccess::kWrite);
  w.PushWords("uint count; ");
  w.Shared("shared uint sh[64];");
  w.Global("const uint N = 8u;");
  w.Function("uint get(uint i) { return in0[i]; }");
  const std::string glsl = w.Finish("  in1[0] = twice(get(0u));\n");

  EXPECT_EQ(glsl.rfind("#version 450\n", 0), 0u);
  // Includes need the include directive, which the writer adds first when no one asked for it.
  const size_t directive = Position(glsl, "#extension GL_GOOGLE_include_directive : require\n");
  const size_t extension = Position(glsl, "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n");
  const size_t title = Position(glsl, "// vkhlo loop kernel fusion_1 of @main: 8 elements\n");
  const size_t config = Position(glsl, "// config: workgroup 64, 1 element(s) per invocation\n");
  const size_t table = Position(glsl, "// bindings:\n//   0: in0 uint[] readonly, in0v uvec4[] readonly: input tensor<8xui32>\n"
                                      "//   1: in1 uint[] writeonly\n");
  const size_t include = Position(glsl, "#include \"hlo_i64.glsl\"\n");
  const size_t local = Position(glsl, "layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;\n");
  const size_t in0 = Position(glsl, "layout(std430, set = 0, binding = 0) readonly restrict buffer Buffer_in0 { uint in0[]; };\n");
  // An aliased view carries no `restrict`.
  const size_t in0v = Position(glsl, "layout(std430, set = 0, binding = 0) readonly buffer Buffer_in0v { uvec4 in0v[]; };\n");
  const size_t in1 = Position(glsl, "layout(std430, set = 0, binding = 1) writeonly restrict buffer Buffer_in1 { uint in1[]; };\n");
  const size_t push = Position(glsl, "layout(push_constant) uniform PushConstants { uvec4 vkhlo_workgroup_base; uint count; } pc;\n");
  const size_t helper = Position(glsl, "uint twice(uint x) { return x * 2u; }\n");
  const size_t global = Position(glsl, "const uint N = 8u;\n");
  const size_t shared = Position(glsl, "shared uint sh[64];\n");
  const size_t function = Position(glsl, "uint get(uint i) { return in0[i]; }\n");
  const size_t main = Position(glsl, "void main() {\n");
  const size_t body = Position(glsl, "  in1[0] = twice(get(0u));\n}\n");
  const std::vector<size_t> order = {directive, extension, title, config, table, include, local, in0, in0v, in1,
                                     push, helper, global, shared, function, main, body};
  for (size_t i = 1; i < order.size(); ++i) EXPECT_LT(order[i - 1], order[i]) << "part " << i << " out of order in\n" << glsl;
  EXPECT_EQ(glsl.find("x + x"), std::string::npos);
}

TEST(ShaderWriter, KeepStatementReadsReadableBindingsAndStoresIntoWriteOnlyOnes) {
  ShaderWriter w("test");
  w.StorageBuffer(0, "in0", "uint", BufferAccess::kRead);
  w.StorageBuffer(1, "in1", "float", BufferAccess::kReadWrite);
  w.StorageBuffer(2, "in2", "uvec4", BufferAccess::kRead);
  w.TexelBuffer(3, "in3t", "rgba32f");
  w.StorageBuffer(4, "in4", "uint", BufferAccess::kWrite);
  w.StorageBuffer(4, "in4v", "uvec4", BufferAccess::kWrite, false);
  EXPECT_EQ(w.KeepBindingsStatement(),
            "if (pc.vkhlo_workgroup_base.w == 0xffffffffu) { uint keep = in0[0] ^ floatBitsToUint(in1[0]) ^ in2[0].x ^ "
            "floatBitsToUint(imageLoad(in3t, 0).x); in4[0] = uint(keep); }");
  // Without a write-only binding the reads decide a return, so the optimizer keeps them.
  ShaderWriter r("test");
  r.StorageBuffer(0, "b0", "uint", BufferAccess::kRead);
  r.StorageBuffer(1, "b1", "int", BufferAccess::kReadWrite);
  EXPECT_EQ(r.KeepBindingsStatement(),
            "if (pc.vkhlo_workgroup_base.w == 0xffffffffu) { uint keep = b0[0] ^ uint(b1[0]); if (keep == 0x12345678u) "
            "return; }");
  EXPECT_EQ(ShaderWriter("no bindings").KeepBindingsStatement(), "");
}

TEST(ShaderWriter, EveryDeclaredBindingIsInTheOptimizedModule) {
  // The body touches none of bindings 0, 2 and 3; the device binds every binding a dispatch
  // lists and refuses a module that lacks one. (This glslang / spirv-opt keeps unreferenced
  // blocks; the keep statement guards against a toolchain that drops them, and against reads the
  // optimizer proves dead.)
  ShaderWriter w("kernel whose body reads one binding");
  w.Workgroup(32);
  w.StorageBuffer(0, "in0", "uint", BufferAccess::kRead);
  w.StorageBuffer(1, "in1", "uint", BufferAccess::kRead);
  w.TexelBuffer(2, "in2t", "rgba32ui", "uimageBuffer");
  w.StorageBuffer(3, "in3", "uint", BufferAccess::kWrite);
  w.StorageBuffer(4, "in4", "uint", BufferAccess::kReadWrite);
  const std::string glsl = w.Finish("  in4[gl_GlobalInvocationID.x] = in1[gl_GlobalInvocationID.x];\n");
  GlslCompiler compiler("");
  auto spirv = compiler.Compile(glsl, GlslCompileOptions::ForTarget(TargetInfo::Everything(), "keep"));
  ASSERT_TRUE(spirv.ok()) << spirv.status().ToString();
  EXPECT_EQ(DeclaredBindings(**spirv), (std::set<uint32_t>{0, 1, 2, 3, 4}));
}

TEST(ShaderWriter, AddToHeaderPutsLinesRightAfterTheTitle) {
  ShaderWriter w("library kernel for stablehlo.dot_general");
  w.Config("workgroup 16x1x1");
  w.StorageBuffer(0, "a_buf", "uint", BufferAccess::kRead);
  const std::string glsl = w.Finish("");
  const std::string added = AddToHeader(glsl, {"dispatch fusion_0.regtile", "config gpu.regtile_64x64"});
  EXPECT_NE(added.find("// vkhlo library kernel for stablehlo.dot_general\n// dispatch fusion_0.regtile\n"
                       "// config gpu.regtile_64x64\n// config: workgroup 16x1x1\n"),
            std::string::npos)
      << added;
  EXPECT_EQ(added.size(), glsl.size() + std::string("// dispatch fusion_0.regtile\n// config gpu.regtile_64x64\n").size());
  // A text the writer did not write is left alone.
  EXPECT_EQ(AddToHeader("#version 450\nvoid main() {}\n", {"x"}), "#version 450\nvoid main() {}\n");
}

}  // namespace
}  // namespace vkhlo::codegen
