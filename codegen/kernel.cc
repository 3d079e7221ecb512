#include "codegen/kernel.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "codegen/elemental/emitter.h"
#include "codegen/elemental/types.h"

namespace vkhlo::codegen {

LoopConfig ChooseLoopConfig(const TargetInfo& target, uint32_t min_elements_per_invocation) {
  LoopConfig config;
  uint32_t wg = std::min({256u, target.max_workgroup_invocations, target.max_workgroup_size[0]});
  const uint32_t subgroup = std::max(1u, target.subgroup_size);
  if (wg >= subgroup) wg = wg / subgroup * subgroup;
  config.workgroup_size = std::max(1u, wg);
  config.elements_per_invocation = std::max(1u, min_elements_per_invocation);
  return config;
}

namespace {

std::string OpSummary(const ir::Operation& op, const std::string& source_name) {
  std::string where = OpLocation(op, source_name);
  std::string types;
  for (size_t i = 0; i < op.num_results(); ++i) types += (i ? ", " : "") + op.result(i)->type().ToString();
  return fmt::format("{} -> {}{}", op.name(), types, where.empty() ? "" : " at " + where);
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

  // Elements per invocation: whole output words per invocation.
  uint32_t pack = 1;
  for (const ir::Value* out : fusion.outputs) {
    const int storage = GetTypeFacts(out->type().element_type(), target).storage_bits;
    if (storage < 32) pack = std::max<uint32_t>(pack, static_cast<uint32_t>(32 / storage));
  }
  uint32_t per = std::max(pack, options.elements_per_invocation);
  per = (per + pack - 1) / pack * pack;
  k.config = ChooseLoopConfig(target, per);
  const uint32_t wg = k.config.workgroup_size;
  const uint64_t invocations = (static_cast<uint64_t>(n) + per - 1) / per;
  k.workgroups = (invocations + wg - 1) / wg;

  KernelPrelude prelude;
  std::unordered_map<const ir::Value*, InputBinding> bindings;
  for (size_t i = 0; i < fusion.inputs.size(); ++i) {
    const ir::Type& type = fusion.inputs[i]->type();
    bindings[fusion.inputs[i]] = InputBinding{static_cast<int>(i), type.element_type()};
  }
  ElementalEmitter em(target, prelude, [&](const ir::Value* v) -> std::optional<InputBinding> {
    auto it = bindings.find(v);
    if (it == bindings.end()) return std::nullopt;
    return it->second;
  });
  em.set_source_name(options.source_name);

  const std::string total = UintLiteral(static_cast<uint64_t>(n));
  em.Line(fmt::format("uint invocation = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x;", wg));
  em.Line(fmt::format("uint base = invocation * {}u;", per));
  em.Line(fmt::format("if (base >= {}) return;", total));
  // The device binds buffers 0..N-1, so every input must stay in the module even when the
  // optimizer proves its reads dead (an empty operand of a pad or concatenate). The base's w is
  // never set (always 0), and the compiler cannot know it.
  if (!fusion.inputs.empty()) {
    std::vector<std::string> reads;
    for (size_t b = 0; b < fusion.inputs.size(); ++b) reads.push_back(fmt::format("in{}[0]", b));
    em.Line(fmt::format("if (pc.vkhlo_workgroup_base.w == 0xffffffffu) in{}[0] = {};", fusion.inputs.size(),
                        fmt::join(reads, " ^ ")));
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
    if (packed[o].storage >= 32) continue;
    packed[o].words = per * static_cast<uint32_t>(packed[o].storage) / 32;
    packed[o].array = fmt::format("acc{}", o);
    em.Line(fmt::format("uint {}[{}];", packed[o].array, packed[o].words));
    for (uint32_t w = 0; w < packed[o].words; ++w) em.Line(fmt::format("{}[{}] = 0u;", packed[o].array, w));
  }

  // The elements of the invocation, in a loop (not unrolled: a kernel with several expensive
  // outputs would otherwise grow `per` times, and so would the driver's compile time).
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
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Emit(fusion.outputs[o], index));
      Expr raw = em.Raw(value);
      const int storage = packed[o].storage;
      const std::string out = fmt::format("in{}", fusion.inputs.size() + o);
      if (storage < 32) {
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
    const int storage = packed[o].storage;
    if (storage >= 32) continue;
    const std::string out = fmt::format("in{}", fusion.inputs.size() + o);
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

  std::string glsl = "#version 450\n";
  for (const std::string& ext : prelude.extensions()) glsl += fmt::format("#extension {} : require\n", ext);
  glsl += fmt::format("// vkhlo loop kernel {}{}: {} elements, {} per invocation, workgroup {}\n", k.name,
                      options.function.empty() ? "" : " of @" + options.function, n, per, wg);
  glsl += "// fused ops:\n";
  for (const ir::Operation* op : fusion.ops) glsl += "//   " + OpSummary(*op, options.source_name) + "\n";
  for (const std::string& file : prelude.includes()) glsl += fmt::format("#include \"{}\"\n", file);
  glsl += fmt::format("layout(local_size_x = {}) in;\n", wg);
  for (size_t b = 0; b < fusion.inputs.size() + fusion.outputs.size(); ++b) {
    const bool is_input = b < fusion.inputs.size();
    glsl += fmt::format("layout(set = 0, binding = {0}) {1} buffer Buffer{0} {{ uint in{0}[]; }};\n", b,
                        is_input ? "readonly restrict" : "writeonly restrict");
  }
  glsl += "layout(push_constant) uniform Push { uvec4 vkhlo_workgroup_base; } pc;\n";
  for (const std::string& helper : prelude.helpers()) glsl += helper + "\n";
  for (const std::string& global : prelude.globals()) glsl += global + "\n";
  glsl += "\nvoid main() {\n" + em.body() + "}\n";
  k.glsl = std::move(glsl);
  return k;
}

}  // namespace vkhlo::codegen
