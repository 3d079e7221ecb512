// Shared interface of the GLSL library test kernels: words in, words out, a grid-stride loop
// over `count` elements; the function under test is chosen by specialization constant 0, so
// each pipeline compiles only one function.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint kOp = 0u;
layout(std430, set = 0, binding = 0) readonly buffer In { uint in_words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint out_words[]; };
layout(push_constant) uniform Push { uint count; } pc;

#define FOR_EACH_ELEMENT(i) \
  for (uint i = gl_GlobalInvocationID.x; i < pc.count; i += gl_NumWorkGroups.x * 64u)
