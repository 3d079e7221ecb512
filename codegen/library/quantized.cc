#include "codegen/library/quantized.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "codegen/fixed_kernel.h"
#include "ir/literal.h"

namespace vkhlo::codegen::library {
namespace {

using ir::ElementType;

std::string Name(ElementType t) { return std::string(ir::ElementTypeName(t)); }

bool PerAxis(const ir::Type& t) { return t.is_quantized() && t.quantization()->quantized_dimension.has_value(); }

double RoundToExpressed(ElementType expressed, double v) {
  if (expressed == ElementType::kF64) return v;
  return ir::DecodeFloat(expressed, ir::EncodeFloat(expressed, v));
}

bool FitsI32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

std::string FloatConstant(ElementType expressed, double v) {
  if (expressed == ElementType::kF64) return fmt::format("{:.17g}lf", v);
  // The f32 value's exact decimal (17 digits identify the double it widens to exactly).
  return fmt::format("{:.17g}", static_cast<double>(static_cast<float>(v)));
}

}  // namespace

std::string ChannelMap::Glsl() const {
  std::string out;
  auto term = [&](const char* x, int64_t div, int64_t mod, int64_t mul) {
    if (mul == 0) return;
    std::string t = x;
    if (div != 1) t = fmt::format("({} / {}u)", t, div);
    t = fmt::format("({} % {}u)", t, mod);
    if (mul != 1) t = fmt::format("{} * {}u", t, mul);
    out += (out.empty() ? "" : " + ") + t;
  };
  term("b", b_div, b_mod, b_mul);
  term("n", n_div, n_mod, n_mul);
  return out.empty() ? "0u" : out;
}

std::string QuantizedContraction::Describe() const {
  std::string s = hybrid ? fmt::format("hybrid {} x {} (dequantized on load)", Name(expressed), Name(rhs_storage))
                         : fmt::format("integer {} x {} -> {}", Name(lhs_storage), Name(rhs_storage),
                                       Name(result_storage));
  s += channels > 1 ? fmt::format(", per-axis {} channels", channels) : ", per-tensor";
  if (!hybrid) s += dot4 ? ", packed 4x8-bit dot products" : ", i32 multiply-add";
  return s;
}

StatusOr<std::optional<QuantizedContraction>> ReadQuantizedContraction(
    const ir::Operation& op, const std::string& what, const QuantizedAxisRules& rules,
    const std::function<StatusOr<ChannelMap>(int64_t rhs_dim)>& channel) {
  const ir::Attribute* attr = op.attribute(ir::kQuantizedTypesAttribute);
  if (attr == nullptr) return std::optional<QuantizedContraction>();
  auto error = [&](const std::string& message) {
    return InvalidArgumentError(fmt::format("{}: {}", what, message));
  };
  const auto* array = attr->as<ir::Attribute::Array>();
  if (array == nullptr || array->size() != 3) {
    return error(fmt::format("{} must be an array of three types (lhs, rhs, result)", ir::kQuantizedTypesAttribute));
  }
  ir::Type types[3];
  for (int i = 0; i < 3; ++i) {
    const ir::Type* t = (*array)[static_cast<size_t>(i)].as<ir::Type>();
    if (t == nullptr || !t->is_tensor()) return error(fmt::format("{} entry {} is not a tensor type", ir::kQuantizedTypesAttribute, i));
    types[i] = *t;
  }
  // The stored tensors must be what the types say is stored.
  const ir::Type* stored[3] = {&op.operand(0)->type(), &op.operand(1)->type(), &op.result(0)->type()};
  const char* role[3] = {"lhs", "rhs", "result"};
  for (int i = 0; i < 3; ++i) {
    const ElementType expect = types[i].is_quantized() ? types[i].quantization()->storage : types[i].element_type();
    if (!stored[i]->is_tensor() || stored[i]->is_quantized() || stored[i]->dims() != types[i].dims() ||
        stored[i]->element_type() != expect) {
      return error(fmt::format("the {} {} does not store {} (its {} entry)", role[i], stored[i]->ToString(),
                               types[i].ToString(), ir::kQuantizedTypesAttribute));
    }
  }
  const ir::Type &lhs = types[0], &rhs = types[1], &result = types[2];
  const bool ql = lhs.is_quantized(), qr = rhs.is_quantized(), qo = result.is_quantized();
  if (!qr) {
    return error("on quantized tensors needs a quantized rhs (a quantized lhs or result with a float rhs is not "
                 "defined by the spec)");
  }
  if (ql != qo) {
    return error(ql ? "with quantized operands needs a quantized result" : "with a float lhs (hybrid) needs a float result");
  }
  if (PerAxis(lhs)) return error("needs a per-tensor quantized lhs");
  const ir::QuantizedElement& rq = *rhs.quantization();
  std::optional<int64_t> rhs_dim;
  if (rq.quantized_dimension) {
    const int64_t d = *rq.quantized_dimension;
    rhs_dim = d;
    if (d < 0 || d >= rhs.rank()) return error(fmt::format("rhs quantized dimension {} is out of range", d));
    if (std::find(rules.rhs_not_allowed.begin(), rules.rhs_not_allowed.end(), d) != rules.rhs_not_allowed.end()) {
      return error(fmt::format("rhs is quantized per axis along contracting dimension {}", d));
    }
    if (rules.rhs_required && d != *rules.rhs_required) {
      return error(fmt::format("rhs is quantized per axis along dimension {}, not the kernel output feature dimension {}",
                               d, *rules.rhs_required));
    }
    if (static_cast<int64_t>(rq.scales.size()) != rhs.dim(d) || static_cast<int64_t>(rq.zero_points.size()) != rhs.dim(d)) {
      return error(fmt::format("rhs has {} scales for {} slices", rq.scales.size(), rhs.dim(d)));
    }
  }
  if (PerAxis(result)) {
    const int64_t d = *result.quantization()->quantized_dimension;
    if (!rhs_dim) return error("has a per-axis result but a per-tensor rhs");
    int64_t want = rules.result_required.value_or(-1);
    if (!rules.result_dim_of_rhs.empty()) want = rules.result_dim_of_rhs[static_cast<size_t>(*rhs_dim)];
    if (d != want) {
      return error(fmt::format("result is quantized per axis along dimension {}, not the output dimension {} of the "
                               "rhs's channels", d, want));
    }
  }
  const ElementType expressed = rq.expressed;
  const ElementType lhs_e = ql ? lhs.quantization()->expressed : lhs.element_type();
  const ElementType out_e = qo ? result.quantization()->expressed : result.element_type();
  if (lhs_e != expressed || out_e != expressed) {
    return error(fmt::format("needs one expressed type: lhs {}, rhs {}, result {}", Name(lhs_e), Name(expressed),
                             Name(out_e)));
  }
  if (!ir::IsFloat(expressed)) return error("needs a float expressed type");

  QuantizedContraction q;
  q.hybrid = !ql;
  q.expressed = expressed;
  q.rhs_storage = rq.storage;
  auto check_storage = [&](ElementType t, const char* side) -> Status {
    if (!ir::IsInteger(t) || ir::BitWidth(t) > 32) {
      return UnimplementedError(fmt::format("{}: {} storage type {} is not supported by the quantized library kernels "
                                            "(integers of up to 32 bits)", what, side, Name(t)));
    }
    return OkStatus();
  };
  VKHLO_RETURN_IF_ERROR(check_storage(rq.storage, "rhs"));
  const int64_t channels = rhs_dim ? rhs.dim(*rhs_dim) : 1;
  q.channels = channels;
  for (int64_t c = 0; c < channels; ++c) {
    const int64_t zb = rq.zero_points[static_cast<size_t>(rhs_dim ? c : 0)];
    if (!FitsI32(zb)) return error(fmt::format("rhs zero point {} does not fit 32 bits", zb));
    q.rhs_zero_points.push_back(static_cast<int32_t>(zb));
    q.rhs_scales.push_back(RoundToExpressed(expressed, rq.scales[static_cast<size_t>(rhs_dim ? c : 0)]));
  }
  if (!q.hybrid) {
    const ir::QuantizedElement& lq = *lhs.quantization();
    const ir::QuantizedElement& oq = *result.quantization();
    q.lhs_storage = lq.storage;
    q.result_storage = oq.storage;
    VKHLO_RETURN_IF_ERROR(check_storage(lq.storage, "lhs"));
    VKHLO_RETURN_IF_ERROR(check_storage(oq.storage, "result"));
    if (!FitsI32(lq.zero_points[0])) return error(fmt::format("lhs zero point {} does not fit 32 bits", lq.zero_points[0]));
    q.lhs_zero_point = static_cast<int32_t>(lq.zero_points[0]);
    const auto [lo, hi] = ir::QuantizedStorageRange(oq);
    if (!FitsI32(lo) || !FitsI32(hi)) {
      return UnimplementedError(fmt::format("{}: result storage range [{}, {}] does not fit 32-bit signed integers, "
                                            "which the quantized library kernels need", what, lo, hi));
    }
    q.result_min = static_cast<int32_t>(lo);
    q.result_max = static_cast<int32_t>(hi);
    const bool out_axis = PerAxis(result);
    if (out_axis && static_cast<int64_t>(oq.scales.size()) != channels) {
      return error(fmt::format("result has {} scales for {} channels", oq.scales.size(), channels));
    }
    for (int64_t c = 0; c < channels; ++c) {
      const size_t oc = out_axis ? static_cast<size_t>(c) : 0;
      auto m = ir::RequantizeMultiplierFor(expressed, lq.scales[0], rq.scales[static_cast<size_t>(rhs_dim ? c : 0)],
                                           oq.scales[oc]);
      if (!m.ok()) return error(m.status().message());
      if (!FitsI32(oq.zero_points[oc])) return error(fmt::format("result zero point {} does not fit 32 bits", oq.zero_points[oc]));
      q.multipliers.push_back(*m);
      q.result_zero_points.push_back(static_cast<int32_t>(oq.zero_points[oc]));
    }
  }
  // Channels that all share their constants are one (per-tensor code, no tables).
  bool uniform = true;
  for (int64_t c = 1; c < channels && uniform; ++c) {
    const size_t i = static_cast<size_t>(c);
    uniform = q.rhs_zero_points[i] == q.rhs_zero_points[0] && q.rhs_scales[i] == q.rhs_scales[0] &&
              (q.hybrid || (q.multipliers[i] == q.multipliers[0] && q.result_zero_points[i] == q.result_zero_points[0]));
  }
  if (uniform && channels > 1) {
    q.channels = 1;
    q.rhs_zero_points.resize(1);
    q.rhs_scales.resize(1);
    if (!q.hybrid) {
      q.multipliers.resize(1);
      q.result_zero_points.resize(1);
    }
  }
  if (q.channels > 1) {
    VKHLO_ASSIGN_OR_RETURN(q.channel, channel(*rhs_dim));
  }
  return std::optional<QuantizedContraction>(std::move(q));
}

bool Dot4Applies(const QuantizedContraction& q, const TargetInfo& target) {
  return !q.hybrid && target.shader_integer_dot_product && ir::BitWidth(q.lhs_storage) <= 8 &&
         ir::BitWidth(q.rhs_storage) <= 8;
}

std::string QuantizedGlsl(const QuantizedContraction& q) {
  std::string out;
  const size_t c = static_cast<size_t>(q.channels);
  out += fmt::format("uint q_channel(uint b, uint n) {{ return {}; }}\n", q.channels > 1 ? q.channel.Glsl() : "0u");
  // Per-channel constants: four words per channel in the table binding `q_tab` (the plan's
  // constant 0, quantized.h).
  if (c > 1) {
    out += "int q_zb(uint ch) { return int(q_tab[4u * ch + 3u]); }\n";
  } else {
    out += fmt::format("int q_zb(uint ch) {{ return {}; }}\n", q.rhs_zero_points[0]);
  }
  if (q.hybrid) {
    const std::string t = q.expressed == ElementType::kF64 ? "double" : "float";
    if (c > 1) {
      out += q.expressed == ElementType::kF64
                 ? "double q_sb(uint ch) { return packDouble2x32(uvec2(q_tab[4u * ch], q_tab[4u * ch + 1u])); }\n"
                 : "float q_sb(uint ch) { return uintBitsToFloat(q_tab[4u * ch]); }\n";
    } else {
      out += fmt::format("{} q_sb(uint ch) {{ return {}; }}\n", t, FloatConstant(q.expressed, q.rhs_scales[0]));
    }
    return out;
  }
  // Requantization on 32-bit words, ir::Requantize bit for bit without int64.
  out += ShaderSourceText("quantized/requantize.glsl");
  if (c > 1) {
    out += "ivec4 q_col(uint ch) { uint i = 4u * ch; return ivec4(q_tab[i], q_tab[i + 1u], q_tab[i + 2u], q_tab[i + 3u]); }\n";
    out += fmt::format("int q_requantize(int acc, uint ch) {{ ivec4 r = q_col(ch); return q_requant(acc, r.x, r.y, r.z, {}, {}); }}\n",
                       q.result_min, q.result_max);
  } else {
    out += fmt::format("int q_requantize(int acc, uint ch) {{ return q_requant(acc, {}, {}, {}, {}, {}); }}\n",
                       q.multipliers[0].mantissa, q.multipliers[0].exponent, q.result_zero_points[0], q.result_min,
                       q.result_max);
    out += fmt::format("ivec4 q_col(uint ch) {{ return ivec4({}, {}, {}, q_zb(ch)); }}\n", q.multipliers[0].mantissa,
                       q.multipliers[0].exponent, q.result_zero_points[0]);
  }
  if (q.dot4) {
    // VK_KHR_shader_integer_dot_product through GL_EXT_spirv_intrinsics (glslang has no GLSL
    // built-in): OpSDotKHR 4450, OpUDotKHR 4451, OpSUDotKHR 4452 with the packed 4 x 8-bit
    // format (0); capabilities DotProduct 6019 and DotProductInput4x8BitPacked 6018.
    const char* kDecl = "spirv_instruction(extensions = [\"SPV_KHR_integer_dot_product\"], capabilities = [6019, 6018], id = {}) {} {}(uint a, uint b, spirv_literal int fmt);\n";
    out += fmt::format(fmt::runtime(kDecl), 4450, "int", "q_sdot");
    out += fmt::format(fmt::runtime(kDecl), 4451, "uint", "q_udot");
    out += fmt::format(fmt::runtime(kDecl), 4452, "int", "q_sudot");
    const bool ua = ir::IsUnsignedInteger(q.lhs_storage), ub = ir::IsUnsignedInteger(q.rhs_storage);
    std::string dot;
    if (!ua && !ub) dot = "q_sdot(a, b, 0)";
    else if (ua && ub) dot = "int(q_udot(a, b, 0))";
    else if (ua) dot = "q_sudot(b, a, 0)";  // the signed operand first
    else dot = "q_sudot(a, b, 0)";
    out += fmt::format("int q_dot4(uint a, uint b) {{ return {}; }}\n", dot);
    auto sum = [](bool is_unsigned) {
      return is_unsigned ? "int(q_udot(w, 0x01010101u, 0))" : "q_sdot(w, 0x01010101u, 0)";
    };
    out += fmt::format("int q_sum4_a(uint w) {{ return {}; }}\nint q_sum4_b(uint w) {{ return {}; }}\n", sum(ua), sum(ub));
  }
  return out;
}

std::vector<uint32_t> QuantizedTableWords(const QuantizedContraction& q) {
  std::vector<uint32_t> words;
  for (size_t c = 0; c < static_cast<size_t>(q.channels); ++c) {
    uint32_t w[4] = {0, 0, 0, static_cast<uint32_t>(q.rhs_zero_points[c])};
    if (!q.hybrid) {
      w[0] = static_cast<uint32_t>(q.multipliers[c].mantissa);
      w[1] = static_cast<uint32_t>(q.multipliers[c].exponent);
      w[2] = static_cast<uint32_t>(q.result_zero_points[c]);
    } else if (q.expressed == ElementType::kF64) {
      const uint64_t bits = ir::EncodeFloat(ElementType::kF64, q.rhs_scales[c]);
      w[0] = static_cast<uint32_t>(bits);
      w[1] = static_cast<uint32_t>(bits >> 32);
    } else {  // scales of f32 and narrower expressed types are f32 values
      w[0] = static_cast<uint32_t>(ir::EncodeFloat(ElementType::kF32, q.rhs_scales[c]));
    }
    words.insert(words.end(), w, w + 4);
  }
  return words;
}

}  // namespace vkhlo::codegen::library
