#include "codegen/kernel.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "codegen/elemental/emitter.h"
#include "codegen/elemental/types.h"
#include "ir/walk.h"

namespace vkhlo::codegen {

LoopConfig ChooseLoopConfig(const TargetInfo& target, uint32_t min_elements_per_invocation, bool vectorizable) {
  LoopConfig config;
  uint32_t wg = std::min({256u, target.max_workgroup_invocations, target.max_workgroup_size[0]});
  const uint32_t subgroup = std::max(1u, target.subgroup_size);
  if (wg >= subgroup) wg = wg / subgroup * subgroup;
  config.workgroup_size = std::max(1u, wg);
  config.elements_per_invocation = std::max({1u, min_elements_per_invocation, vectorizable ? kVectorWidth : 1u});
  return config;
}

std::vector<bool> ContiguousInputs(const Fusion& fusion, const TargetInfo& target) {
  // Users come after their operands in program order, so walking the ops backwards sees every
  // read of a value before the value's own operands are judged.
  std::unordered_set<const ir::Value*> read, scattered;
  for (auto it = fusion.ops.rbegin(); it != fusion.ops.rend(); ++it) {
    const ir::Operation& op = **it;
    bool result_scattered = op.num_results() != 1;
    for (size_t r = 0; r < op.num_results(); ++r) result_scattered |= scattered.count(op.result(r)) != 0;
    for (size_t k = 0; k < op.num_operands(); ++k) {
      const ir::Value* v = op.operand(k);
      read.insert(v);
      const bool same_index =
          !result_scattered &&
          (op.code() == ir::OpCode::kReshape ||
           (op.info().kind == ir::OpKind::kElementwise && v->type().dims() == op.result(0)->type().dims()));
      if (!same_index) scattered.insert(v);
    }
    // A value used inside a region (not through the op's operands) is read at another index.
    for (size_t r = 0; r < op.num_regions(); ++r) {
      ir::WalkOps(op.region(r), [&](ir::Operation& inner) {
        for (const ir::Value* v : inner.operands()) scattered.insert(v);
      });
    }
  }
  // (As many elements as the index space: a scalar output's inputs, read once by invocation 0,
  // are not; kernel.cc's scalar outputs.)
  int64_t elements = 1;
  for (int64_t d : fusion.dims) elements *= d;
  std::vector<bool> contiguous;
  for (const ir::Value* in : fusion.inputs) {
    contiguous.push_back(read.count(in) != 0 && scattered.count(in) == 0 && in->type().num_elements() == elements &&
                         GetTypeFacts(in->type().element_type(), target).storage_bits == 32);
  }
  return contiguous;
}

namespace {

// Why ChooseLoopConfig and the packing chose the config (kernel headers).
std::string LoopConfigReason(const TargetInfo& target, uint32_t pack, uint32_t per, bool vectorize) {
  std::string why = fmt::format("256 invocations within maxComputeWorkGroupInvocations {} and "
                                "maxComputeWorkGroupSize.x {}, a multiple of the subgroup size {}; ",
                                target.max_workgroup_invocations, target.max_workgroup_size[0], target.subgroup_size);
  if (vectorize) return why + "4 elements for uvec4 loads and stores";
  if (pack > 1) return why + fmt::format("{} elements: whole words of packed narrow outputs", per);
  return why + (per > 1 ? fmt::format("{} elements as asked", per) : "one element (no vector access)");
}

}  // namespace

StatusOr<KernelSource> EmitLoopKernel(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  KernelSource k;
  k.name = fusion.name;
  k.inputs = fusion.inputs;
  k.outputs = fusion.outputs;
  for (const ir::Operation* op : fusion.ops) k.summary += OpSummary(*op, options.source_name) + "\n";
  int64_t n = 1;
  for (int64_t d : fusion.dims) n *= d;
  k.num_elements = n;

  // Elements per invocation: whole output words per invocation, kVectorWidth where the kernel
  // can use uvec4 loads or stores.
  // Scalar outputs of another index space (fusion.cc's ScalarHost: a loop counter's step) are
  // computed once, by invocation 0, and take no part in the element loop.
  std::vector<bool> scalar_output(fusion.outputs.size(), false);
  for (size_t o = 0; o < fusion.outputs.size(); ++o) {
    scalar_output[o] = fusion.outputs[o]->type().dims() != fusion.dims;
    if (scalar_output[o] && (fusion.outputs[o]->type().rank() != 0 || n == 0)) {
      return InternalError(fmt::format("{}: output {} ({}) is neither of the kernel's index space nor a scalar",
                                       fusion.name, o, fusion.outputs[o]->type().ToString()));
    }
  }
  uint32_t pack = 1;
  bool has_word_output = false;
  for (size_t o = 0; o < fusion.outputs.size(); ++o) {
    if (scalar_output[o]) continue;
    const ir::Value* out = fusion.outputs[o];
    const int storage = GetTypeFacts(out->type().element_type(), target).storage_bits;
    if (storage < 32) pack = std::max<uint32_t>(pack, static_cast<uint32_t>(32 / storage));
    has_word_output |= storage == 32;
  }
  const std::vector<bool> contiguous = ContiguousInputs(fusion, target);
  const bool has_contiguous = std::find(contiguous.begin(), contiguous.end(), true) != contiguous.end();
  const bool vectorizable = (has_contiguous || has_word_output) && n >= static_cast<int64_t>(kVectorWidth);
  k.config = ChooseLoopConfig(target, std::max(pack, options.elements_per_invocation),
                              options.elements_per_invocation == 0 && vectorizable);
  uint32_t per = k.config.elements_per_invocation;
  per = (per + pack - 1) / pack * pack;
  k.config.elements_per_invocation = per;
  const bool vectorize = vectorizable && per == kVectorWidth;
  const uint32_t wg = k.config.workgroup_size;
  const uint64_t invocations = (static_cast<uint64_t>(n) + per - 1) / per;
  k.workgroups = (invocations + wg - 1) / wg;

  ShaderWriter w(fmt::format("loop kernel {}{}: {} elements", k.name,
                             options.function.empty() ? "" : " of @" + options.function, n));
  ElementalEmitter em(target, w.prelude(), ElementalEmitter::InputsInOrder(fusion.inputs));
  em.set_source_name(options.source_name);

  const std::string total = UintLiteral(static_cast<uint64_t>(n));
  em.Line(fmt::format("uint invocation = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x;", wg));
  em.Line(fmt::format("uint base = invocation * {}u;", per));
  em.Line(fmt::format("if (base >= {}) return;", total));

  // Scalars: stored whole (a narrow one alone in its word, the others zero), before any input
  // is bound to its vector word (those bindings hold at the element loop's own index only).
  for (size_t o = 0; o < fusion.outputs.size(); ++o) {
    if (!scalar_output[o]) continue;
    em.Open("if (invocation == 0u)");
    VKHLO_ASSIGN_OR_RETURN(Expr value, em.Emit(fusion.outputs[o], Index::Scalar()));
    Expr raw = em.Raw(value);
    const std::string out = fmt::format("in{}", fusion.inputs.size() + o);
    const int storage = GetTypeFacts(fusion.outputs[o]->type().element_type(), target).storage_bits;
    if (storage < 32) {
      em.Line(fmt::format("{}[0] = {} & {};", out, raw.code, UintLiteral((1u << storage) - 1)));
    } else if (storage == 32) {
      em.Line(fmt::format("{}[0] = {};", out, raw.code));
    } else {
      for (int w = 0; w < storage / 32; ++w) em.Line(fmt::format("{}[{}u] = {}[{}];", out, w, raw.code, w));
    }
    em.Close();
  }

  // Vector loads: each contiguous input's 4 words, once, before the element loop; the last
  // invocation of a count that is not a multiple of 4 reads its tail word by word (a uvec4 there
  // would run past the buffer). Every read of such an input is at the element's own index, so the
  // input is bound to its word in the vector.
  const bool tail = static_cast<uint64_t>(n) % kVectorWidth != 0;
  std::vector<bool> vector_output(fusion.outputs.size(), false);
  if (vectorize) {
    if (tail) em.Line(fmt::format("bool full = base + {}u <= {};", kVectorWidth, total));
    for (size_t b = 0; b < fusion.inputs.size(); ++b) {
      if (!contiguous[b]) continue;
      ++k.vector_inputs;
      const std::string v = fmt::format("vin{}", b);
      if (!tail) {
        em.Line(fmt::format("uvec4 {} = in{}v[invocation];", v, b));
      } else {
        em.Line(fmt::format("uvec4 {} = uvec4(0u);", v));
        em.Line(fmt::format("if (full) {0} = in{1}v[invocation]; else for (uint t = 0u; base + t < {2}; ++t) {0}[t] = in{1}[base + t];",
                            v, b, total));
      }
      em.Bind(fusion.inputs[b], Expr{v + "[e]", fusion.inputs[b]->type().element_type(), true});
    }
    for (size_t o = 0; o < fusion.outputs.size(); ++o) {
      if (scalar_output[o] || GetTypeFacts(fusion.outputs[o]->type().element_type(), target).storage_bits != 32) continue;
      vector_output[o] = true;
      ++k.vector_outputs;
      em.Line(fmt::format("uvec4 vout{} = uvec4(0u);", o));
    }
  }

  // Accumulators of packed outputs: one word per 32 bits of the invocation's elements.
  struct Packed {
    int storage = 32;
    uint32_t words = 0;
    std::string array;
  };
  std::vector<Packed> packed(fusion.outputs.size());
  for (size_t o = 0; o < fusion.outputs.size(); ++o) {
    packed[o].storage = GetTypeFacts(fusion.outputs[o]->type().element_type(), target).storage_bits;
    if (packed[o].storage >= 32 || scalar_output[o]) continue;
    packed[o].words = per * static_cast<uint32_t>(packed[o].storage) / 32;
    packed[o].array = fmt::format("acc{}", o);
    em.Line(fmt::format("uint {}[{}];", packed[o].array, packed[o].words));
    for (uint32_t w = 0; w < packed[o].words; ++w) em.Line(fmt::format("{}[{}] = 0u;", packed[o].array, w));
  }

  // The elements of the invocation, in a loop (not unrolled: a kernel with several expensive
  // outputs would otherwise grow `per` times, and so would the driver's compile time). Drivers
  // unroll a loop of 4 constant iterations whose body is small, which makes the vector
  // components' indices constants (explicit unrolling measured no faster on lavapipe).
  const bool guard = static_cast<uint64_t>(n) % per != 0;
  const std::string i = "i";
  if (n > 0) {
    if (per == 1) {
      em.Line("uint e = 0u;");
      em.Line("uint i = base;");
      em.Open("");
    } else {
      em.Open(fmt::format("for (uint e = 0u; e < {}u; ++e)", per));
      em.Line("uint i = base + e;");
      if (guard) em.Line(fmt::format("if (i >= {}) break;", total));
    }
    const Index index = Index::Linear(fusion.dims, i);
    for (size_t o = 0; o < fusion.outputs.size(); ++o) {
      if (scalar_output[o]) continue;
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Emit(fusion.outputs[o], index));
      Expr raw = em.Raw(value);
      const int storage = packed[o].storage;
      const std::string out = fmt::format("in{}", fusion.inputs.size() + o);
      if (vector_output[o]) {
        em.Line(fmt::format("vout{}[e] = {};", o, raw.code));
      } else if (storage < 32) {
        em.Line(fmt::format("{}[(e * {}u) >> 5u] |= ({} & {}) << ((e * {}u) & 31u);", packed[o].array, storage, raw.code,
                            UintLiteral((1u << storage) - 1), storage));
      } else if (storage == 32) {
        em.Line(fmt::format("{}[{}] = {};", out, i, raw.code));
      } else {
        const int words = storage / 32;
        for (int w = 0; w < words; ++w) {
          em.Line(fmt::format("{}[{}u * {} + {}u] = {}[{}];", out, words, i, w, raw.code, w));
        }
      }
    }
    em.Close();
  }
  for (size_t o = 0; o < fusion.outputs.size() && n > 0; ++o) {
    if (scalar_output[o]) continue;
    const std::string out = fmt::format("in{}", fusion.inputs.size() + o);
    if (vector_output[o]) {
      if (!tail) {
        em.Line(fmt::format("{}v[invocation] = vout{};", out, o));
      } else {
        em.Line(fmt::format("if (full) {0}v[invocation] = vout{1}; else for (uint t = 0u; base + t < {2}; ++t) {0}[base + t] = vout{1}[t];",
                            out, o, total));
      }
      continue;
    }
    const int storage = packed[o].storage;
    if (storage >= 32) continue;
    const uint32_t per_word = 32 / static_cast<uint32_t>(storage);
    for (uint32_t w = 0; w < packed[o].words; ++w) {
      const std::string word = fmt::format("base / {}u + {}u", per_word, w);
      if (guard && w > 0) {
        em.Line(fmt::format("if (base + {}u < {}) {}[{}] = {}[{}];", w * per_word, total, out, word, packed[o].array, w));
      } else {
        em.Line(fmt::format("{}[{}] = {}[{}];", out, word, packed[o].array, w));
      }
    }
  }

  w.Config(fmt::format("workgroup {}, {} element(s) per invocation{}", wg, per,
                       vectorize ? fmt::format(", uvec4 loads {} / stores {}", k.vector_inputs, k.vector_outputs) : ""));
  w.Why(LoopConfigReason(target, pack, per, vectorize));
  w.FusedOps(fusion.ops, options.source_name);
  w.Workgroup(wg);
  // A binding read or written as uvec4 is declared twice (aliased views of one buffer: the words
  // and the vectors); `restrict` would promise the compiler the two never meet.
  for (size_t b = 0; b < fusion.inputs.size() + fusion.outputs.size(); ++b) {
    const bool is_input = b < fusion.inputs.size();
    const bool vector = vectorize && (is_input ? contiguous[b] : vector_output[b - fusion.inputs.size()]);
    const BufferAccess access = is_input ? BufferAccess::kRead : BufferAccess::kWrite;
    const auto binding = static_cast<uint32_t>(b);
    w.StorageBuffer(binding, fmt::format("in{}", b), "uint", access, !vector);
    if (vector) w.StorageBuffer(binding, fmt::format("in{}v", b), "uvec4", access, false);
    const ir::Value* v = is_input ? fusion.inputs[b] : fusion.outputs[b - fusion.inputs.size()];
    w.DescribeBinding(binding, fmt::format("{} {}", is_input ? "input" : "output", v->type().ToString()));
  }
  std::string glsl = w.Finish(em.body());
  k.glsl = std::move(glsl);
  return k;
}

}  // namespace vkhlo::codegen
