// Random fusions: programs of 2-10 element-wise and data-movement ops over random shapes (size-0
// and size-1 dimensions included), run on the Vulkan device and by the interpreter, bit for bit.
// Values are sometimes returned as well as used (multi-use, multi-output), so the cost rule's
// recompute/materialize choices and scratch-slot reuse all get exercised.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "tests/support/program_text.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

using Dims = std::vector<int64_t>;

using testing::I64Array;

std::string TypeOf(const Dims& dims, const char* element = "f32") { return testing::TensorType(dims, element); }

class RandomProgram {
 public:
  explicit RandomProgram(uint64_t seed) : rng_(seed) {}

  std::string Build(std::vector<ir::Literal>& inputs) {
    const int params = 1 + static_cast<int>(rng_() % 3);
    std::string signature;
    for (int i = 0; i < params; ++i) {
      Dims dims = RandomDims();
      const std::string name = fmt::format("%p{}", i);
      signature += fmt::format("{}{}: {}", i ? ", " : "", name, TypeOf(dims));
      values_.push_back({name, dims});
      inputs.push_back(testing::RandomLiteral(ir::Type::Tensor(ir::ElementType::kF32, dims), rng_));
    }
    const int ops = 2 + static_cast<int>(rng_() % 9);
    for (int i = 0; i < ops; ++i) AddOp();
    // Return the last value and sometimes an earlier one too.
    std::vector<size_t> results = {values_.size() - 1};
    if (values_.size() > 2 && rng_() % 2 == 0) results.push_back(rng_() % (values_.size() - 1));
    std::vector<std::string> names, types;
    for (size_t r : results) {
      names.push_back(values_[r].name);
      types.push_back(TypeOf(values_[r].dims));
    }
    return fmt::format("func.func @main({}) -> ({}) {{\n{}  func.return {} : {}\n}}\n", signature,
                       fmt::join(types, ", "), body_, fmt::join(names, ", "), fmt::join(types, ", "));
  }

 private:
  struct Value {
    std::string name;
    Dims dims;
  };

  Dims RandomDims() {
    static const int64_t kSizes[] = {1, 2, 3, 4, 5, 7, 0, 1, 3, 2};
    Dims dims(rng_() % 4);
    for (int64_t& d : dims) d = kSizes[rng_() % (rng_() % 8 == 0 ? 10 : 6)];
    return dims;
  }

  const Value& Pick() { return values_[rng_() % values_.size()]; }

  std::string Emit(const std::string& text, const Dims& dims) {
    const std::string name = fmt::format("%v{}", next_++);
    body_ += fmt::format("  {} = {}\n", name, text);
    values_.push_back({name, dims});
    return name;
  }

  // A value of `dims`: an existing one when there is one, else a broadcast of another.
  std::string OfShape(const Dims& dims) {
    std::vector<size_t> same;
    for (size_t i = 0; i < values_.size(); ++i) {
      if (values_[i].dims == dims) same.push_back(i);
    }
    if (!same.empty() && rng_() % 3 != 0) return values_[same[rng_() % same.size()]].name;
    // Broadcast a scalar made from any value's first element... simplest: a constant.
    return Emit(fmt::format("stablehlo.constant dense<{}> : {}", static_cast<int>(rng_() % 7) - 3, TypeOf(dims)), dims);
  }

  void AddOp() {
    const Value v = Pick();
    const Dims& d = v.dims;
    const int rank = static_cast<int>(d.size());
    switch (rng_() % 11) {
      case 0: {
        static const char* kUnary[] = {"negate", "abs", "floor", "ceil", "sign"};
        Emit(fmt::format("stablehlo.{} {} : {}", kUnary[rng_() % 5], v.name, TypeOf(d)), d);
        return;
      }
      case 1:
      case 2: {
        static const char* kBinary[] = {"add", "multiply", "maximum", "minimum", "subtract"};
        const std::string other = OfShape(d);
        Emit(fmt::format("stablehlo.{} {}, {} : {}", kBinary[rng_() % 5], v.name, other, TypeOf(d)), d);
        return;
      }
      case 3: {
        const std::string other = OfShape(d);
        const std::string pred = Emit(fmt::format("stablehlo.compare GT, {}, {} : ({}, {}) -> {}", v.name, other,
                                                  TypeOf(d), TypeOf(d), TypeOf(d, "i1")),
                                      d);
        values_.pop_back();  // predicates are not f32 values
        Emit(fmt::format("stablehlo.select {}, {}, {} : {}, {}", pred, v.name, other, TypeOf(d, "i1"), TypeOf(d)), d);
        return;
      }
      case 4: {
        if (rank >= 4) return;
        const int64_t at = static_cast<int64_t>(rng_() % (rank + 1));
        Dims out = d;
        out.insert(out.begin() + at, static_cast<int64_t>(1 + rng_() % 3));
        Dims map;
        for (int64_t k = 0; k < rank; ++k) map.push_back(k < at ? k : k + 1);
        Emit(fmt::format("\"stablehlo.broadcast_in_dim\"({}) {{broadcast_dimensions = {}}} : ({}) -> {}", v.name,
                         I64Array(map), TypeOf(d), TypeOf(out)),
             out);
        return;
      }
      case 5: {
        Dims perm(rank);
        for (int k = 0; k < rank; ++k) perm[k] = k;
        std::shuffle(perm.begin(), perm.end(), rng_);
        Dims out(rank);
        for (int k = 0; k < rank; ++k) out[k] = d[perm[k]];
        Emit(fmt::format("\"stablehlo.transpose\"({}) {{permutation = {}}} : ({}) -> {}", v.name, I64Array(perm),
                         TypeOf(d), TypeOf(out)),
             out);
        return;
      }
      case 6: {
        int64_t n = 1;
        for (int64_t x : d) n *= x;
        Dims out = rng_() % 2 ? Dims{n} : Dims{1, n};
        Emit(fmt::format("stablehlo.reshape {} : ({}) -> {}", v.name, TypeOf(d), TypeOf(out)), out);
        return;
      }
      case 7: {
        Dims start(rank), limit(rank), strides(rank), out(rank);
        for (int k = 0; k < rank; ++k) {
          start[k] = d[k] == 0 ? 0 : static_cast<int64_t>(rng_() % d[k]);
          limit[k] = start[k] + static_cast<int64_t>(rng_() % (d[k] - start[k] + 1));
          strides[k] = 1 + static_cast<int64_t>(rng_() % 2);
          out[k] = limit[k] == start[k] ? 0 : (limit[k] - start[k] - 1) / strides[k] + 1;
        }
        Emit(fmt::format("\"stablehlo.slice\"({}) {{start_indices = {}, limit_indices = {}, strides = {}}} : ({}) -> {}",
                         v.name, I64Array(start), I64Array(limit), I64Array(strides), TypeOf(d), TypeOf(out)),
             out);
        return;
      }
      case 8: {
        Dims dims;
        for (int k = 0; k < rank; ++k) {
          if (rng_() % 2) dims.push_back(k);
        }
        Emit(fmt::format("\"stablehlo.reverse\"({}) {{dimensions = {}}} : ({}) -> {}", v.name, I64Array(dims), TypeOf(d),
                         TypeOf(d)),
             d);
        return;
      }
      case 9: {
        Dims low(rank), high(rank), interior(rank), out(rank);
        for (int k = 0; k < rank; ++k) {
          interior[k] = static_cast<int64_t>(rng_() % 2);
          const int64_t base = d[k] == 0 ? 0 : d[k] + (d[k] - 1) * interior[k];
          low[k] = static_cast<int64_t>(rng_() % 4) - 1;
          high[k] = static_cast<int64_t>(rng_() % 4) - 1;
          if (base + low[k] + high[k] < 0) low[k] = high[k] = 0;
          out[k] = base + low[k] + high[k];
        }
        const std::string pad = Emit("stablehlo.constant dense<0.5> : tensor<f32>", {});
        Emit(fmt::format("\"stablehlo.pad\"({}, {}) {{edge_padding_high = {}, edge_padding_low = {}, interior_padding = {}}} : "
                         "({}, tensor<f32>) -> {}",
                         v.name, pad, I64Array(high), I64Array(low), I64Array(interior), TypeOf(d), TypeOf(out)),
             out);
        return;
      }
      default: {
        if (rank == 0) return;
        const int64_t dim = static_cast<int64_t>(rng_() % rank);
        const std::string other = OfShape(d);
        Dims out = d;
        out[dim] *= 2;
        Emit(fmt::format("\"stablehlo.concatenate\"({}, {}) {{dimension = {} : i64}} : ({}, {}) -> {}", v.name, other,
                         dim, TypeOf(d), TypeOf(d), TypeOf(out)),
             out);
        return;
      }
    }
  }

  std::mt19937_64 rng_;
  std::vector<Value> values_;
  std::string body_;
  int next_ = 0;
};

TEST(RandomFusion, AgreesWithTheInterpreterBitForBit) {
  uint64_t kernels = 0, dispatched = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::vector<ir::Literal> inputs;
    RandomProgram generator(seed);
    const std::string text = generator.Build(inputs);
    auto both = testing::RunOnBoth(text, inputs);
    ASSERT_TRUE(both.ok()) << "seed " << seed << ": " << both.status().ToString() << "\n" << text;
    ASSERT_EQ(both->vulkan.size(), both->reference.size());
    for (size_t i = 0; i < both->vulkan.size(); ++i) {
      std::string why;
      EXPECT_TRUE(testing::SameBits(both->vulkan[i], both->reference[i], &why))
          << "seed " << seed << ", result " << i << ": " << why << "\n" << text;
    }
    kernels += both->compile.kernels;
    dispatched += both->stats.kernels_dispatched;
    EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
  }
  // Fusion is doing something: far fewer kernels than ops (40 programs of 2-10 ops each).
  EXPECT_LT(kernels, 40u * 4);
  EXPECT_LE(dispatched, kernels);
}

// The same programs unfused (one kernel per op) give the same bits.
TEST(RandomFusion, UnfusedGivesTheSameResults) {
  CompileOptions unfused;
  unfused.fuse = false;
  for (uint64_t seed = 100; seed < 110; ++seed) {
    std::vector<ir::Literal> inputs;
    RandomProgram generator(seed);
    const std::string text = generator.Build(inputs);
    auto both = testing::RunOnBoth(text, inputs, unfused);
    ASSERT_TRUE(both.ok()) << "seed " << seed << ": " << both.status().ToString() << "\n" << text;
    for (size_t i = 0; i < both->vulkan.size(); ++i) {
      std::string why;
      EXPECT_TRUE(testing::SameBits(both->vulkan[i], both->reference[i], &why)) << "seed " << seed << ": " << why;
    }
  }
}

}  // namespace
}  // namespace vkhlo
