// Shared interface of the GLSL library test kernels: words in, words out, a grid-stride loop
// over `count` elements. The build compiles each kernel once per function under test, with
// -DKOP=<op> (tests/codegen/glsl/CMakeLists.txt): the preprocessor keeps only that function,
// so the driver compiles small shaders.
layout(local_size_x = 64) in;
const uint kOp = uint(KOP);
#define KOP_BASE (KOP % 100)
layout(std430, set = 0, binding = 0) readonly buffer In { uint in_words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint out_words[]; };
layout(push_constant) uniform Push { uint count; } pc;

#define FOR_EACH_ELEMENT(i) \
  for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += gl_NumWorkGroups.x * 64u)
