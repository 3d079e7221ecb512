// stablehlo.rng_bit_generator as a device kernel, bit-exact with the interpreter
// (src/interp/random_ops.cc, which is XLA's RngBitGeneratorExpander): THREE_FRY (Threefry-2x32,
// 20 rounds), PHILOX (Philox-4x32, 10 rounds; a 2-element state uses the key as the counter's
// high word) and DEFAULT (= PHILOX, as the interpreter), every integer and float output type.
// Element i is a pure function of the state and i (the interpreter's layout: THREE_FRY outputs
// of 32 bits or fewer pair elements along one dimension, ir/threefry_layout.h; PHILOX four
// 32-bit or two 64-bit values per block), so each invocation computes its own elements — whole output words,
// so packed narrow elements never share a word between invocations. All arithmetic is 32-bit
// (64-bit counters carry by hand; Philox's high products by umulExtended): no shaderInt64.
// Invocation 0 also writes the new state.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/device_kernel.h"
#include "codegen/elemental/types.h"
#include "codegen/random/philox_glsl.h"
#include "codegen/random/rng_kernels.h"
#include "ir/threefry_layout.h"

namespace vkhlo::codegen {
namespace {

constexpr uint32_t kGroup = 64;

std::string Algorithm(const ir::Operation& op) {
  std::string algorithm = "DEFAULT";
  if (const ir::Attribute* a = op.attribute("rng_algorithm")) algorithm = a->AsEnum("rng_algorithm").value_or(algorithm);
  return algorithm == "DEFAULT" ? "PHILOX" : algorithm;
}

bool AcceptsRngBitGenerator(const ir::Operation& op) {
  if (op.num_operands() != 1 || op.num_results() != 2) return false;
  const ir::Type& state = op.operand(0)->type();
  const ir::ElementType out = op.result(1)->type().element_type();
  if (state.rank() != 1 || state.element_type() != ir::ElementType::kU64) return false;
  if (ir::IsComplex(out) || ir::BitWidth(out) > 64) return false;
  const std::string algorithm = Algorithm(op);
  const int64_t size = state.dims()[0];
  return (algorithm == "THREE_FRY" && size == 2) || (algorithm == "PHILOX" && (size == 2 || size == 3));
}

constexpr const char* kGenerators = R"(
uvec2 add64(uvec2 a, uint b) { uint lo = a.x + b; return uvec2(lo, a.y + (lo < a.x ? 1u : 0u)); }
uint rotl(uint v, uint d) { return (v << d) | (v >> (32u - d)); }
uvec2 threefry(uvec2 key, uvec2 x) {
  const uint rot[8] = uint[8](13u, 15u, 26u, 6u, 17u, 29u, 16u, 24u);
  uint ks[3] = uint[3](key.x, key.y, 0x1BD11BDAu ^ key.x ^ key.y);
  x.x += ks[0];
  x.y += ks[1];
  for (uint g = 0u; g < 5u; ++g) {
    for (uint i = 0u; i < 4u; ++i) {
      x.x += x.y;
      x.y = rotl(x.y, rot[(g % 2u) * 4u + i]);
      x.y ^= x.x;
    }
    x.x += ks[(g + 1u) % 3u];
    x.y += ks[(g + 2u) % 3u] + g + 1u;
  }
  return x;
}
uvec2 state_at(uint k) { return uvec2(b0[2u * k], b0[2u * k + 1u]); }
// Philox block i: the 128-bit counter (state[1], high) + i.
uvec4 philox_block(uint i) {
  uvec2 lo = state_at(1u), hi = STATE_SIZE > 2u ? state_at(2u) : state_at(0u);
  uvec2 c = add64(lo, i);
  bool carry = c.y < lo.y || (c.y == lo.y && c.x < lo.x);
  uvec2 h = carry ? add64(hi, 1u) : hi;
  return philox4x32(uvec4(c, h), state_at(0u));
}
// Element i's bits (low word, high word).
uvec2 element(uint i) {
#if THREE_FRY
  uvec2 key = state_at(0u), counter = state_at(1u);
  if (WIDE) return threefry(key, add64(counter, i));
  uint c = i / SPLIT_INNER % SPLIT_DIM;
  uint block = (i / (SPLIT_DIM * SPLIT_INNER) * ((SPLIT_DIM + 1u) / 2u) + c / 2u) * SPLIT_INNER + i % SPLIT_INNER;
  uvec2 r = threefry(key, add64(counter, block));
  return uvec2((c & 1u) == 0u ? r.x : r.y, 0u);
#else
  if (WIDE) { uvec4 r = philox_block(i / 2u); return (i % 2u) == 0u ? r.xy : r.zw; }
  uvec4 r = philox_block(i / 4u);
  return uvec2(r[i % 4u], 0u);
#endif
}
)";

StatusOr<DeviceKernel> EmitRngBitGenerator(const Fusion& fusion, const TargetInfo& target, const KernelOptions&) {
  const ir::Operation& op = *fusion.device_op;
  const std::string algorithm = Algorithm(op);
  const int64_t state_size = op.operand(0)->type().dims()[0];
  const ir::ElementType et = op.result(1)->type().element_type();
  const int width = ir::BitWidth(et);
  const int storage = GetTypeFacts(et, target).storage_bits;
  const int64_t n = op.result(1)->type().num_elements();
  const bool wide = width > 32;
  const bool three_fry = algorithm == "THREE_FRY";
  // Blocks consumed: the counter advance.
  const ir::ThreeFryLayout split = ir::ThreeFryLayoutOf(op.result(1)->type().dims());
  const int64_t advance = three_fry ? (wide ? n : split.blocks) : (wide ? (n + 1) / 2 : (n + 3) / 4);
  const uint32_t per = storage < 32 ? static_cast<uint32_t>(32 / storage) : 1;
  const int64_t items = (n + per - 1) / per;

  DeviceKernel k;
  k.summary = fmt::format("rng_bit_generator {} of {} x {} bits", algorithm, n, width);
  KernelDispatch d;
  d.name = fusion.name + ".rng_bit_generator";
  d.summary = k.summary;
  d.bindings = {KernelBuffer::Read(fusion.inputs.at(0)), KernelBuffer::Write(fusion.outputs.at(0)),
                KernelBuffer::Write(fusion.outputs.at(1))};
  d.grid = {static_cast<uint32_t>(std::max<int64_t>(1, (items + kGroup - 1) / kGroup)), 1, 1};
  // Storage bits of an element from its value bits: narrower than storage (i1, 4-bit types)
  // keeps the low `width` bits, sign-extended for signed integers (as the interpreter stores).
  std::string fit = "v.x";
  if (width < 32) {
    const uint32_t mask = (1u << width) - 1u;
    const uint32_t storage_mask = storage >= 32 ? 0xffffffffu : (1u << storage) - 1u;
    if (ir::IsSignedInteger(et) && width < storage) {
      fit = fmt::format("((((v.x & {0}u) >> {1}u) & 1u) != 0u ? (v.x | ~{0}u) : (v.x & {0}u)) & {2}u", mask, width - 1,
                        storage_mask);
    } else {
      fit = fmt::format("v.x & {}u", mask);
    }
  }
  std::string store;
  if (storage == 64) {
    store = "  uvec2 v = element(id);\n  b2[2u * id] = v.x;\n  b2[2u * id + 1u] = v.y;\n";
  } else if (storage == 32) {
    store = "  uvec2 v = element(id);\n  b2[id] = " + fit + ";\n";
  } else {
    store = fmt::format(
        "  uint acc = 0u;\n"
        "  for (uint e = 0u; e < {0}u; ++e) {{\n"
        "    uint i = id * {0}u + e;\n"
        "    if (i >= N) break;\n"
        "    uvec2 v = element(i);\n"
        "    acc |= ({1}) << (e * {2}u);\n"
        "  }}\n"
        "  b2[id] = acc;\n",
        per, fit, storage);
  }
  // The new state (interpreter: key, counter + advance[, the high word with its carry]).
  std::string new_state =
      "    uvec2 lo = state_at(1u), nlo = add64(lo, ADVANCE);\n"
      "    b1[0] = b0[0]; b1[1] = b0[1]; b1[2] = nlo.x; b1[3] = nlo.y;\n";
  if (!three_fry && state_size > 2) {
    new_state +=
        "    bool carry = nlo.y < lo.y || (nlo.y == lo.y && nlo.x < lo.x);\n"
        "    uvec2 h = carry ? add64(state_at(2u), 1u) : state_at(2u);\n"
        "    b1[4] = h.x; b1[5] = h.y;\n";
  }
  d.glsl = DeviceKernelHeader(d.bindings, {kGroup, 1, 1}) +
           fmt::format("#define THREE_FRY {}\n#define WIDE {}\n#define N {}u\n#define STATE_SIZE {}u\n#define ADVANCE {}u\n",
                       three_fry ? 1 : 0, wide ? "true" : "false", n, state_size, static_cast<uint32_t>(advance)) +
           fmt::format("#define SPLIT_DIM {}u\n#define SPLIT_INNER {}u\n", std::max<int64_t>(1, split.dim),
                       split.inner) +
           kPhilox4x32Glsl + kGenerators +
           "void main() {\n  " + KeepBindingsStatement(d.bindings.size()) + "\n" +
           fmt::format("  uint id = vkhlo_workgroup_id(pc).x * {}u + gl_LocalInvocationID.x;\n", kGroup) +
           "  if (id == 0u) {\n" + new_state + "  }\n" +
           fmt::format("  if (id >= {}u) return;\n", items) + store + "}\n";
  k.dispatches.push_back(std::move(d));
  return k;
}

}  // namespace

void RegisterRandomKernels(DeviceKernelTable& table) {
  table.Register(ir::OpCode::kRngBitGenerator, {&EmitRngBitGenerator, &AcceptsRngBitGenerator});
  RegisterRngKernel(table);
}

}  // namespace vkhlo::codegen
