// rng_bit_generator and rng.
//
// rng_bit_generator is bit-exact with XLA's RngBitGeneratorExpander (xla/hlo/builder/lib/prng.cc):
//   state[0] is the key (split into two u32: low word first), the rest the counter.
//   THREE_FRY (state: 2 x u64): Threefry-2x32 with 20 rounds on counter words (low, high).
//     64-bit outputs: element i = TF(counter + i), low | high << 32; counter += n.
//     32-bit and narrower outputs: one dimension split into pairs of words (ir/threefry_layout.h:
//     element i = TF(counter + Block(i)).word[Word(i)]); narrower types keep the low bits of
//     those 32-bit values; counter += the blocks used.
//   PHILOX (state: 3 x u64 = key, counter low, counter high; with a 2-element state the counter
//     high word is the key, and only the low word is carried forward): Philox-4x32 with 10
//     rounds on the 128-bit counter's four
//     words (least significant first).
//     32-bit and narrower outputs: ceil(n / 4) blocks, element 4*i + j = block i's word j;
//     counter += ceil(n / 4).
//     64-bit outputs: ceil(n / 2) blocks, element 2*i + j = block i's words (2j) | (2j+1) << 32;
//     counter += ceil(n / 2).
//   DEFAULT: PHILOX, the algorithm XLA's CPU and GPU compilers expand RNG_DEFAULT to
//     (RngBitGeneratorExpander(RNG_PHILOX)); see kDefaultAlgorithm.
// Float outputs take the generated bits as their bit pattern.
//
// rng (UNIFORM, NORMAL) is implementation-defined. Here, and on the device (codegen/random/rng.cc,
// bit-exact for UNIFORM): seed = Mix of the op's location (line, column), the storage bits of
// a and b and the element type; element i takes r = Philox-4x32(counter (i, 0, 0, 0), key seed),
// four 32-bit words, so every element is a pure function of (seed, i).
//   UNIFORM, floats of up to 32 bits: u = (r0 >> 8) 2^-24; v = u b + (1 - u) a in f32 (each
//     product and the sum rounded to f32, no fused multiply-add), then rounded to the type; a
//     value not below b after rounding (or NaN) is a. f64: u = ((r1:r0) >> 11) 2^-53, in f64.
//   UNIFORM, integers and i1: [a, b): v = a + ((r0 range) >> 32), range = b - a (64-bit types:
//     the high 64 bits of (r1:r0) range); b <= a gives a.
//   NORMAL (Box-Muller): z = sqrt(-2 log u1) cos(2 pi u2), v = a + b z, with u1 = u + 2^-24 in
//     (0, 1] from r0 and u2 from r2, in f32 for types up to 32 bits; f64 takes 53-bit u1 from
//     (r1:r0) and u2 from (r3:r2), in f64. The device's log and cos are the elemental library's,
//     within a few ulp of std::'s, so NORMAL agrees with the device to a tolerance.
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <numbers>

#include "interp/library_common.h"
#include "interp/op_registry.h"
#include "ir/rng_seed.h"
#include "ir/threefry_layout.h"

namespace vkhlo::interp {
namespace {

using ir::Operation;

// The algorithm `DEFAULT` stands for.
constexpr std::string_view kDefaultAlgorithm = "PHILOX";

inline uint32_t RotL(uint32_t v, int d) { return (v << d) | (v >> (32 - d)); }

std::array<uint32_t, 2> ThreeFry2x32(std::array<uint32_t, 2> key, std::array<uint32_t, 2> x) {
  constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
  x[0] += ks[0];
  x[1] += ks[1];
  for (int group = 0; group < 5; ++group) {
    const int* r = kRotations + (group % 2) * 4;
    for (int i = 0; i < 4; ++i) {
      x[0] += x[1];
      x[1] = RotL(x[1], r[i]);
      x[1] ^= x[0];
    }
    x[0] += ks[(group + 1) % 3];
    x[1] += ks[(group + 2) % 3] + static_cast<uint32_t>(group + 1);
  }
  return x;
}

std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 4> x, std::array<uint32_t, 2> key) {
  constexpr uint32_t kW32A = 0x9E3779B9, kW32B = 0xBB67AE85;
  constexpr uint64_t kM4x32A = 0xD2511F53, kM4x32B = 0xCD9E8D57;
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = kM4x32A * x[0], p1 = kM4x32B * x[2];
    x = {static_cast<uint32_t>(p1 >> 32) ^ x[1] ^ key[0], static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ x[3] ^ key[1], static_cast<uint32_t>(p0)};
    key[0] += kW32A;
    key[1] += kW32B;
  }
  return x;
}

inline std::array<uint32_t, 2> Split(uint64_t v) { return {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)}; }
inline uint64_t Join(uint32_t lo, uint32_t hi) { return uint64_t{lo} | (uint64_t{hi} << 32); }

struct Bits {
  std::vector<uint64_t> values;  // one per element, in its low `width` bits
  std::vector<uint64_t> state;
};

Bits ThreeFryBits(const std::vector<uint64_t>& state, const std::vector<int64_t>& dims, int width) {
  Bits out;
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  out.values.resize(static_cast<size_t>(n));
  const auto key = Split(state[0]);
  const uint64_t counter = state[1];
  if (width > 32) {
    for (int64_t i = 0; i < n; ++i) {
      const auto r = ThreeFry2x32(key, Split(counter + static_cast<uint64_t>(i)));
      out.values[static_cast<size_t>(i)] = Join(r[0], r[1]);
    }
    out.state = {state[0], counter + static_cast<uint64_t>(n)};
    return out;
  }
  const ir::ThreeFryLayout layout = ir::ThreeFryLayoutOf(dims);
  for (int64_t i = 0; i < n; ++i) {
    const auto r = ThreeFry2x32(key, Split(counter + static_cast<uint64_t>(layout.Block(i))));
    out.values[static_cast<size_t>(i)] = r[static_cast<size_t>(layout.Word(i))];
  }
  out.state = {state[0], counter + static_cast<uint64_t>(layout.blocks)};
  return out;
}

Bits PhiloxBits(const std::vector<uint64_t>& state, int64_t n, int width) {
  Bits out;
  out.values.resize(static_cast<size_t>(n));
  const auto key = Split(state[0]);
  const uint64_t lo = state[1];
  // A 2-element state has no counter high word of its own: XLA uses the key there (checked
  // against JAX/XLA outputs, see tests/interp/library/random_test.cc).
  const uint64_t hi = state.size() > 2 ? state[2] : state[0];
  auto block = [&](int64_t i) {
    const uint64_t c_lo = lo + static_cast<uint64_t>(i);
    const uint64_t c_hi = c_lo < lo ? hi + 1 : hi;
    const auto a = Split(c_lo), b = Split(c_hi);
    return Philox4x32({a[0], a[1], b[0], b[1]}, key);
  };
  int64_t blocks;
  if (width > 32) {
    blocks = (n + 1) / 2;
    for (int64_t i = 0; i < blocks; ++i) {
      const auto r = block(i);
      for (int64_t j = 0; j < 2 && 2 * i + j < n; ++j) {
        out.values[static_cast<size_t>(2 * i + j)] = Join(r[2 * j], r[2 * j + 1]);
      }
    }
  } else {
    blocks = (n + 3) / 4;
    for (int64_t i = 0; i < blocks; ++i) {
      const auto r = block(i);
      for (int64_t j = 0; j < 4 && 4 * i + j < n; ++j) out.values[static_cast<size_t>(4 * i + j)] = r[j];
    }
  }
  const uint64_t new_lo = lo + static_cast<uint64_t>(blocks);
  out.state = {state[0], new_lo};
  if (state.size() > 2) out.state.push_back(new_lo < lo ? hi + 1 : hi);
  return out;
}

StatusOr<InterpValues> EvalRngBitGenerator(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* initial, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Type state_type, lib::TensorResultType(context, op, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Type output_type, lib::TensorResultType(context, op, 1));
  if (initial->type().rank() != 1 || initial->element_type() != ir::ElementType::kU64 ||
      state_type != initial->type()) {
    return context.OpError(op, "takes and returns a state of type tensor<Nxui64>");
  }
  std::string algorithm = lib::AttrEnum(op, "rng_algorithm", "rng_algorithm").value_or("DEFAULT");
  if (algorithm == "DEFAULT") algorithm = std::string(kDefaultAlgorithm);
  std::vector<uint64_t> state(static_cast<size_t>(initial->num_elements()));
  for (size_t i = 0; i < state.size(); ++i) state[i] = initial->GetBits(static_cast<int64_t>(initial->is_splat() ? 0 : i));
  const int width = ir::BitWidth(output_type.element_type());
  if (ir::IsComplex(output_type.element_type()) || width > 64) {
    return context.OpError(op, "produces integers or floats only");
  }
  const int64_t n = output_type.num_elements();
  Bits bits;
  if (algorithm == "THREE_FRY") {
    if (state.size() != 2) return context.OpError(op, "THREE_FRY takes a state of 2 elements");
    bits = ThreeFryBits(state, output_type.dims(), width);
  } else if (algorithm == "PHILOX") {
    if (state.size() != 2 && state.size() != 3) return context.OpError(op, "PHILOX takes a state of 2 or 3 elements");
    bits = PhiloxBits(state, n, width);
  } else {
    return context.OpError(op, "has unknown rng_algorithm " + algorithm);
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out_state, ir::Literal::Create(state_type));
  for (size_t i = 0; i < bits.state.size(); ++i) out_state.SetBits(static_cast<int64_t>(i), bits.state[i]);
  VKHLO_ASSIGN_OR_RETURN(ir::Literal output, ir::Literal::Create(output_type));
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t v = bits.values[static_cast<size_t>(i)] & mask;
    if (ir::IsSignedInteger(output_type.element_type()) && width < 64 && ((v >> (width - 1)) & 1)) {
      output.SetInt(i, static_cast<int64_t>(v | ~mask));  // sign-extend into storage
    } else {
      output.SetBits(i, v);
    }
  }
  return InterpValues{InterpValue::Tensor(std::move(out_state)), InterpValue::Tensor(std::move(output))};
}

// --- rng ---
//
// The device kernel (codegen/random/rng.cc) computes the same function; keep the two in step.

using ir::RngSeedMix;  // ir/rng_seed.h, shared with the device kernel

// (hi:lo) of the 128-bit product a * b, high half.
uint64_t MulHigh64(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
}

// Uniform in [0, 1) with 24 (f32) or 53 (f64) bits, exact in the type.
inline float Unit24(uint32_t bits) { return static_cast<float>(bits >> 8) * 0x1.0p-24f; }
inline double Unit53(uint32_t lo, uint32_t hi) { return static_cast<double>(Join(lo, hi) >> 11) * 0x1.0p-53; }

StatusOr<InterpValues> EvalRng(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* a, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* b, lib::TensorOperand(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(ir::Type result_type, lib::TensorResultType(context, op, 0));
  if (a->num_elements() != 1 || b->num_elements() != 1) return context.OpError(op, "takes scalar bounds");
  const std::string distribution = lib::AttrEnum(op, "rng_distribution", "rng_distribution").value_or("UNIFORM");
  const ir::ElementType t = result_type.element_type();
  // The seed: the op's location, its bounds' bits and the element type. One op gives the same
  // values for the same bounds every time it runs; ops at other locations give other streams.
  uint64_t seed = RngSeedMix(op.location().line, op.location().column);
  seed = RngSeedMix(seed, a->GetBits(0));
  seed = RngSeedMix(seed, b->GetBits(0));
  seed = RngSeedMix(seed, static_cast<uint64_t>(t));
  const std::array<uint32_t, 2> key = Split(seed);
  const int64_t n = result_type.num_elements();
  // Element i's random words: one Philox-4x32 block, counter i.
  auto block = [&](int64_t i) {
    const auto c = Split(static_cast<uint64_t>(i));
    return Philox4x32({c[0], c[1], 0, 0}, key);
  };
  const bool wide = ir::BitWidth(t) > 32;
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, ir::Literal::Create(result_type));
  if (distribution == "NORMAL") {
    if (!ir::IsFloat(t)) return context.OpError(op, "NORMAL needs a floating-point type");
    // Box-Muller: z = sqrt(-2 log u1) cos(2 pi u2) with u1 in (0, 1], u2 in [0, 1); f64 in
    // double, narrower types in float (each step rounded to f32, as the device computes).
    if (wide) {
      const double mean = a->GetFloat(0), stddev = b->GetFloat(0);
      for (int64_t i = 0; i < n; ++i) {
        const auto r = block(i);
        const double u1 = Unit53(r[0], r[1]) + 0x1.0p-53, u2 = Unit53(r[2], r[3]);
        const double radius = std::sqrt(-2.0 * std::log(u1));
        const double z = radius * std::cos(6.283185307179586 * u2);
        out.SetFloat(i, mean + stddev * z);
      }
    } else {
      const float mean = static_cast<float>(a->GetFloat(0)), stddev = static_cast<float>(b->GetFloat(0));
      for (int64_t i = 0; i < n; ++i) {
        const auto r = block(i);
        const float u1 = Unit24(r[0]) + 0x1.0p-24f, u2 = Unit24(r[2]);
        const float radius = std::sqrt(-2.0f * std::log(u1));
        const float angle = 6.283185482025146484375f * u2;
        const float z = radius * std::cos(angle);
        const float scaled = stddev * z;
        out.SetFloat(i, static_cast<double>(mean + scaled));
      }
    }
  } else if (distribution == "UNIFORM") {
    if (ir::IsFloat(t)) {
      // v = u b + (1 - u) a (never overflows for finite bounds), rounded to the type; a value
      // that rounding took to b or beyond (or NaN) is a.
      const double lo = a->GetFloat(0), hi = b->GetFloat(0);
      for (int64_t i = 0; i < n; ++i) {
        const auto r = block(i);
        double v;
        if (wide) {
          const double u = Unit53(r[0], r[1]), p = u * hi, q = (1.0 - u) * lo;
          v = p + q;
        } else {
          const float u = Unit24(r[0]);
          const float p = u * static_cast<float>(hi), q = (1.0f - u) * static_cast<float>(lo);
          v = static_cast<double>(p + q);
        }
        out.SetFloat(i, v);
        if (!(out.GetFloat(i) < hi)) out.SetFloat(i, lo);
      }
    } else if (ir::IsInteger(t) || ir::IsBoolean(t)) {
      // [a, b): a + the high half of (random bits x (b - a)); b <= a gives a.
      const int64_t lo = a->GetInt(0), hi = b->GetInt(0);
      const bool is_signed = ir::IsSignedInteger(t);
      const bool empty = is_signed ? lo >= hi : static_cast<uint64_t>(lo) >= static_cast<uint64_t>(hi);
      const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
      for (int64_t i = 0; i < n; ++i) {
        const auto r = block(i);
        uint64_t offset = 0;
        if (!empty) offset = wide ? MulHigh64(Join(r[0], r[1]), range) : (uint64_t{r[0]} * range) >> 32;
        out.SetInt(i, static_cast<int64_t>(static_cast<uint64_t>(lo) + offset));
      }
    } else {
      return context.OpError(op, "UNIFORM needs an integer, boolean or floating-point type");
    }
  } else {
    return context.OpError(op, "has unknown rng_distribution " + distribution);
  }
  return lib::One(std::move(out));
}

}  // namespace

void RegisterRandomOps(OpRegistry& registry) {
  registry.Register(ir::OpCode::kRngBitGenerator, EvalRngBitGenerator);
  registry.Register(ir::OpCode::kRng, EvalRng);
}

}  // namespace vkhlo::interp
