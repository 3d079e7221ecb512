// The packed integer path of the quantized tiled kernels (quantized.h): operands read as raw
// stored values, four consecutive k packed into the bytes of a word, multiplied with the packed
// 4 x 8-bit dot product instructions; the zero points are corrected once per output from the
// row sums of A and the column sums of B:
//   sum (a - za)(b - zb) = sum ab - zb sum a - za sum b + n za zb   (mod 2^32)
// with n the number of k summed. Padding of a convolution reads as raw za (load_a_raw), and
// positions beyond K pack as 0 in both operands: both add 0 to every sum.
#include <fmt/format.h>

#include "codegen/library/kernel_writer.h"
#include "codegen/library/matmul_variants.h"

namespace vkhlo::codegen::library {
namespace {

// An operand whose four consecutive k are one aligned word of its buffer: affine, 8-bit
// storage, runs of 4 along k (A's columns, B's rows).
bool DirectWords(const MatmulProblem& p, char x) {
  const OperandAccess& a = x == 'a' ? p.a : p.b;
  const ir::ElementType t = x == 'a' ? p.a_type : p.b_type;
  const bool bytes = t == ir::ElementType::kS8 || t == ir::ElementType::kU8;
  return a.affine && bytes && (x == 'a' ? a.col_run : a.row_run) >= 4;
}

}  // namespace

std::string Dot4Functions(const MatmulProblem& p) {
  std::string out;
  for (char x : {'a', 'b'}) {
    const std::string sig = x == 'a' ? "uint b, uint m, uint k" : "uint b, uint k, uint n";
    auto at = [&](const std::string& k) { return x == 'a' ? fmt::format("b, m, {}", k) : fmt::format("b, {}, n", k); };
    // q_word_<x>(.., k, count): k a multiple of 4; positions k + t >= k + count pack as 0.
    // q_word4_<x>(.., k): all four (k + 3 < K).
    if (DirectWords(p, x)) {
      out += fmt::format(
          "uint q_word_{0}({1}, uint count) {{\n  bool v; uint w = {0}_buf[ix_{0}({2}, v) >> 2u];\n"
          "  return count >= 4u ? w : (w & ((1u << (8u * count)) - 1u));\n}}\n",
          x, sig, at("min(k, K - 1u)"));
      out += fmt::format("uint q_word4_{0}({1}) {{ bool v; return {0}_buf[ix_{0}({2}, v) >> 2u]; }}\n", x, sig, at("k"));
    } else {
      out += fmt::format("uint q_word_{}({}, uint count) {{\n  uint w = 0u;\n", x, sig);
      for (int t = 0; t < 4; ++t) {
        out += fmt::format("  if ({0}u < count) w |= (uint(load_{1}_raw({2})) & 0xFFu) << {3}u;\n", t, x,
                           at(fmt::format("k + {}u", t)), 8 * t);
      }
      out += "  return w;\n}\n";
      // All four (no branches: llvmpipe's compile time grows fast with the basic blocks of an
      // unrolled tile).
      std::string bytes;
      for (int t = 0; t < 4; ++t) {
        bytes += fmt::format("{}((uint(load_{}_raw({})) & 0xFFu) << {}u)", t ? " | " : "", x,
                             at(fmt::format("k + {}u", t)), 8 * t);
      }
      out += fmt::format("uint q_word4_{}({}) {{ return {}; }}\n", x, sig, bytes);
    }
  }
  return out;
}

std::string Dot4Correct(const std::string& c, const std::string& sum_a, const std::string& sum_b,
                        const std::string& zb, const std::string& count, int32_t za) {
  return fmt::format("{0} - {3} * {1} - ({5}) * {2} + int({4}) * ({5}) * {3}", c, sum_a, sum_b, zb, count, za);
}

}  // namespace vkhlo::codegen::library
