// Quantized dot_general / dot / convolution in the library matmul family (issue 26).
//
// After quantized-decompose such an op runs on storage tensors and carries the attribute
// ir::kQuantizedTypesAttribute (the lhs, rhs and result types it had). Normalization reads it
// into a QuantizedContraction next to the MatmulProblem; the kernels then compute
// ir/requantize.h's definition:
//   - integer path (quantized lhs, rhs and result): loads return int(x) - zero_point (a
//     convolution's padding reads as 0), products sum in a wrapping i32 accumulator, and the
//     epilogue requantizes exactly as ir::Requantize on 32-bit words (no int64 needed);
//   - packed path (the integer path where the device has shaderIntegerDotProduct and both
//     operands are at most 8 bits wide): raw bytes, four to a word, summed with
//     OpSDotKHR / OpUDotKHR / OpSUDotKHR, zero points corrected afterwards with row and column
//     sums (mod 2^32 the same integer);
//   - hybrid path (float lhs and result, quantized rhs: weight-only quantization): the rhs
//     loader dequantizes, convert<E>(int(s) - zb) * sb, and the float kernel runs as usual.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "codegen/target.h"
#include "ir/module.h"
#include "ir/requantize.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen::library {

// Which output channel (the rhs's per-axis slice) a (b, n) of the normalized problem uses:
//   channel = ((b / b_div) % b_mod) * b_mul + ((n / n_div) % n_mod) * n_mul
struct ChannelMap {
  int64_t b_div = 1, b_mod = 1, b_mul = 0;
  int64_t n_div = 1, n_mod = 1, n_mul = 0;
  int64_t Of(int64_t b, int64_t n) const { return ((b / b_div) % b_mod) * b_mul + ((n / n_div) % n_mod) * n_mul; }
  std::string Glsl() const;  // the same as a GLSL uint expression of `b` and `n`
};

struct QuantizedContraction {
  bool hybrid = false;  // float lhs and result: the rhs is dequantized on load
  ir::ElementType expressed = ir::ElementType::kF32;
  ir::ElementType lhs_storage = ir::ElementType::kS8, rhs_storage = ir::ElementType::kS8;
  int32_t lhs_zero_point = 0;
  // Per channel (one entry: per tensor). rhs_scales are the scales rounded to `expressed`
  // (hybrid only).
  int64_t channels = 1;
  ChannelMap channel;
  std::vector<int32_t> rhs_zero_points;
  std::vector<double> rhs_scales;
  // Integer path: the result's requantization per channel and its storage range.
  ir::ElementType result_storage = ir::ElementType::kS8;
  std::vector<ir::RequantizeMultiplier> multipliers;
  std::vector<int32_t> result_zero_points;
  int32_t result_min = 0, result_max = 0;
  // Set by PlanMatmul: the packed 4 x 8-bit integer dot products are used; the scratch buffer
  // holding the per-channel table (channels > 1; -1: none).
  bool dot4 = false;
  int table_scratch = -1;

  bool per_channel() const { return channels > 1; }
  std::string Describe() const;  // for plan summaries: "integer i8 x i8 -> i8 per-axis 3 dot4"
};

// Where the rhs and result may be quantized per axis.
struct QuantizedAxisRules {
  std::vector<int64_t> rhs_not_allowed;  // dot_general: the rhs contracting dimensions
  std::optional<int64_t> rhs_required;   // convolution: the kernel output feature dimension
  std::optional<int64_t> result_required;  // the result dimension the rhs's channel becomes
  // The result dimension of each rhs dimension (-1 for contracting ones), for dot_general.
  std::vector<int64_t> result_dim_of_rhs;
};

// The op's QuantizedContraction, or nullopt when it has no kQuantizedTypesAttribute (a plain
// float/integer op). Errors for attributes that do not describe the op's storage types, and for
// the combinations the spec (and the interpreter, src/interp/library_quantized.cc) rejects.
// `channel` maps (b, n) to the rhs's per-axis channel; it is called only for per-axis rhs.
StatusOr<std::optional<QuantizedContraction>> ReadQuantizedContraction(
    const ir::Operation& op, const std::string& what, const QuantizedAxisRules& rules,
    const std::function<StatusOr<ChannelMap>(int64_t rhs_dim)>& channel);

// Whether the packed path may run the contraction on `target` (8-bit operands at most, the
// feature offered).
bool Dot4Applies(const QuantizedContraction& q, const TargetInfo& target);

// GLSL helpers of the quantized kernels: `q_channel(b, n)`, `q_zb(ch)`, `q_sb(ch)` (hybrid),
// `q_requantize(acc, ch)` and `q_col(ch)` (integer: a channel's mantissa, exponent, result and
// rhs zero points, for kernels that look them up once per column) and, with `dot4`,
// `q_dot4(a, b)` / `q_sum4_a(w)` / `q_sum4_b(w)`.
// Per-channel tables (channels > 1) live in a buffer, not in GLSL arrays: llvmpipe compiles a
// private or constant array indexed at run time as a per-invocation copy (minutes for a wide
// layer), and GPUs would keep it in scratch memory. The plan's first dispatch
// (QuantizedTableKernel: one workgroup per kTableChannelsPerGroup channels, straight-line
// stores) writes the table into a scratch buffer the product kernels read as `q_tab`, four
// words per channel: mantissa, exponent, result zero point, rhs zero point; for the hybrid
// path the rhs scale's f32 bits (an f64's two words), 0, rhs zero point.
std::string QuantizedGlsl(const QuantizedContraction& q);
std::vector<uint32_t> QuantizedTableWords(const QuantizedContraction& q);
std::string QuantizedTableKernel(const QuantizedContraction& q);
inline constexpr size_t kTableChannelsPerGroup = 16;

}  // namespace vkhlo::codegen::library
