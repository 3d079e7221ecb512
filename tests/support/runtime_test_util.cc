#include "tests/support/runtime_test_util.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "runtime/runtime_internal.h"
#include "tests/support/device_fixture.h"
#include "verify/verifier.h"

namespace vkhlo::testing {

const Client& SharedClient() {
  static const Client* client = [] {
    auto created = runtime::CreateClient(TestDeviceOptions());
    if (!created.ok()) {
      ADD_FAILURE() << created.status().ToString();
      std::abort();
    }
    return new Client(std::move(*created));
  }();
  return *client;
}

StatusOr<BothResults> RunOnBoth(const std::string& text, const std::vector<ir::Literal>& inputs,
                                const CompileOptions& options) {
  BothResults both;
  {
    VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseModule(text));
    VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
    interp::InterpValues values;
    for (const ir::Literal& l : inputs) values.push_back(interp::InterpValue::Tensor(l));
    VKHLO_ASSIGN_OR_RETURN(interp::RunResult result, interp::RunFunction(*module, "main", std::move(values)));
    for (const interp::InterpValue& v : result.outputs) both.reference.push_back(v.literal());
  }
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseModule(text));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  const Client& client = SharedClient();
  VKHLO_ASSIGN_OR_RETURN(Executable executable, runtime::CompileModule(client, std::move(module), options));
  std::vector<Buffer> arguments;
  for (const ir::Literal& l : inputs) {
    VKHLO_ASSIGN_OR_RETURN(Buffer b, runtime::BufferFromLiteral(client, l));
    arguments.push_back(std::move(b));
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable.Execute(arguments));
  for (const Buffer& b : results) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal l, runtime::BufferToLiteral(b));
    both.vulkan.push_back(std::move(l));
  }
  both.stats = executable.last_stats();
  both.compile = executable.compile_stats();
  return both;
}

namespace {

// Edge values of a float format, as bit patterns.
std::vector<uint64_t> FloatEdges(ir::ElementType type) {
  const ir::FloatFormat& f = ir::GetFloatFormat(type);
  const int magnitude_bits = f.exponent_bits + f.mantissa_bits;
  const uint64_t sign = f.has_sign ? uint64_t{1} << magnitude_bits : 0;
  const uint64_t all = (uint64_t{1} << magnitude_bits) - 1;
  const uint64_t mantissa = (uint64_t{1} << f.mantissa_bits) - 1;
  std::vector<uint64_t> edges = {0, sign, 1, sign | 1, mantissa, sign | mantissa, mantissa + 1, all, sign | all,
                                 all - 1, sign | (all - 1)};
  edges.push_back(ir::EncodeFloat(type, 1.0));
  edges.push_back(ir::EncodeFloat(type, -1.0));
  edges.push_back(ir::EncodeFloat(type, 0.5));
  edges.push_back(ir::EncodeFloat(type, 2.5));
  edges.push_back(ir::EncodeFloat(type, -3.5));
  edges.push_back(ir::EncodeFloat(type, std::numeric_limits<double>::infinity()));
  edges.push_back(ir::EncodeFloat(type, -std::numeric_limits<double>::infinity()));
  edges.push_back(ir::EncodeFloat(type, std::nan("")));
  return edges;
}

std::vector<uint64_t> IntEdges(ir::ElementType type) {
  const int w = ir::BitWidth(type);
  const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  const uint64_t min_signed = uint64_t{1} << (w - 1);
  std::vector<uint64_t> edges = {0,         1, mask, 2, mask - 1, min_signed, min_signed - 1, min_signed + 1,
                                 static_cast<uint64_t>(w) & mask, static_cast<uint64_t>(w - 1) & mask, 3};
  if (w == 64) {
    // Word boundaries, where emulated 64-bit arithmetic (32-bit pairs) carries and borrows.
    for (uint64_t v : {0xffffffffull, 0x100000000ull, 0xffffffff00000000ull, 0x80000000ull, 0x7fffffffull,
                       0xffffffff80000000ull, 0x1ffffffffull, 0xfffffffeffffffffull, 64ull, 65ull, 32ull, 33ull}) {
      edges.push_back(v);
    }
  }
  return edges;
}

// Storage bits of a value pattern: signed sub-byte integers are stored sign-extended.
uint64_t StorageBits(ir::ElementType type, uint64_t pattern) {
  const int w = ir::BitWidth(type);
  if (w < 64) pattern &= (uint64_t{1} << w) - 1;
  if (ir::IsSignedInteger(type) && w < 8 && ((pattern >> (w - 1)) & 1)) pattern |= ~uint64_t{0} << w;
  if (ir::StorageBytes(type) < 8) pattern &= (uint64_t{1} << (8 * ir::StorageBytes(type))) - 1;
  return pattern;
}

uint64_t RandomPart(ir::ElementType type, std::mt19937_64& rng) {
  const bool edge = rng() % 4 == 0;
  if (ir::IsBoolean(type)) return rng() & 1;
  if (ir::IsFloat(type)) {
    if (edge) {
      std::vector<uint64_t> edges = FloatEdges(type);
      return edges[rng() % edges.size()];
    }
    // Mostly moderate magnitudes (so arithmetic is not all overflow), some raw patterns.
    if (rng() % 2 == 0) {
      const double v = std::ldexp(static_cast<double>(rng() % 2000) - 1000.0, -static_cast<int>(rng() % 8));
      return ir::EncodeFloat(type, v);
    }
    return rng();
  }
  if (edge) {
    std::vector<uint64_t> edges = IntEdges(type);
    return edges[rng() % edges.size()];
  }
  // 64-bit integers: a third of them small (sign-extended 32-bit), which the full-width patterns
  // almost never are (quotients, shifts, the high word all zeros or ones).
  if (ir::BitWidth(type) == 64 && rng() % 3 == 0) {
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(rng() >> (rng() % 32))));
  }
  return rng();
}

}  // namespace

ir::Literal RandomLiteral(const ir::Type& type, std::mt19937_64& rng) {
  ir::Literal literal = *ir::Literal::Create(type);
  const ir::ElementType t = type.element_type();
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    if (ir::IsComplex(t)) {
      const ir::ElementType part = ir::ComplexPartType(t);
      const uint64_t re = RandomPart(part, rng), im = RandomPart(part, rng);
      const double dr = ir::DecodeFloat(part, re), di = ir::DecodeFloat(part, im);
      literal.SetComplex(i, {dr, di});
    } else {
      literal.SetBits(i, StorageBits(t, RandomPart(t, rng)));
    }
  }
  return literal;
}

namespace {

// Units in the last place between two finite values of a float format (bit patterns).
uint64_t UlpDistance(ir::ElementType type, uint64_t a, uint64_t b) {
  const ir::FloatFormat& f = ir::GetFloatFormat(type);
  const int magnitude_bits = f.exponent_bits + f.mantissa_bits;
  const uint64_t mask = (uint64_t{1} << magnitude_bits) - 1;
  const bool sa = f.has_sign && ((a >> magnitude_bits) & 1), sb = f.has_sign && ((b >> magnitude_bits) & 1);
  const uint64_t ma = a & mask, mb = b & mask;
  if (sa == sb) return ma > mb ? ma - mb : mb - ma;
  return ma + mb;
}

}  // namespace

bool SameBits(const ir::Literal& a, const ir::Literal& b, std::string* why, int max_ulp) {
  if (a.type() != b.type()) {
    *why = fmt::format("types differ: {} vs {}", a.type().ToString(), b.type().ToString());
    return false;
  }
  const ir::ElementType t = a.element_type();
  const int bytes = ir::StorageBytes(t);
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    const uint8_t* pa = a.raw().data() + (a.is_splat() ? 0 : i * bytes);
    const uint8_t* pb = b.raw().data() + (b.is_splat() ? 0 : i * bytes);
    if (std::memcmp(pa, pb, static_cast<size_t>(bytes)) == 0) continue;
    bool both_nan = false;
    if (ir::IsFloat(t)) {
      both_nan = std::isnan(a.GetFloat(i)) && std::isnan(b.GetFloat(i));
      // Formats without NaN (f4, f6) store a NaN result as the largest magnitude with the NaN's
      // sign, and the sign of a NaN an operation creates is not specified (x86, where the
      // interpreter runs, makes negative ones).
      const ir::FloatFormat& format = ir::GetFloatFormat(t);
      if (!format.has_nan && !format.has_infinity) {
        const double x = a.GetFloat(i), y = b.GetFloat(i);
        const double max = ir::DecodeFloat(t, (uint64_t{1} << (format.exponent_bits + format.mantissa_bits)) - 1);
        both_nan = both_nan || (std::fabs(x) == max && std::fabs(y) == max);
      }
      if (max_ulp > 0 && std::isfinite(a.GetFloat(i)) && std::isfinite(b.GetFloat(i)) &&
          UlpDistance(t, a.GetBits(i), b.GetBits(i)) <= static_cast<uint64_t>(max_ulp)) {
        both_nan = true;
      }
    } else if (ir::IsComplex(t)) {
      const auto ca = a.GetComplex(i), cb = b.GetComplex(i);
      auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, 8) == 0; };
      both_nan = same(ca.real(), cb.real()) && same(ca.imag(), cb.imag());
    }
    if (both_nan) continue;
    *why = fmt::format("element {}: {} vs {}", i, ir::IsComplex(t) ? "(complex)" : ir::FormatScalar(t, a.GetBits(i)),
                       ir::IsComplex(t) ? "(complex)" : ir::FormatScalar(t, b.GetBits(i)));
    return false;
  }
  return true;
}

}  // namespace vkhlo::testing
