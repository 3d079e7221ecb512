// Where each element of a THREE_FRY rng_bit_generator output of 32 bits or fewer comes from,
// shared by the reference interpreter (src/interp/random_ops.cc) and the device kernel
// (codegen/random/rng_bit_generator.cc), which must agree bit for bit with XLA (checked against
// jax.lax.rng_bit_generator on XLA:CPU, jax 0.10, shapes of rank 0-4, 8/16/32-bit outputs).
//
// Each Threefry-2x32 block gives two 32-bit words. XLA splits one dimension d of the output
// into pairs: the "half shape" is the output shape with dims[d] -> ceil(dims[d] / 2); the
// element at index c along d takes word c % 2 of the block at the row-major position of its
// index in the half shape (index c / 2 along d); the counter advances by the half shape's
// element count. d is the dimension (of size > 1) that makes the half shape smallest, the
// first of equals (so the first even one, if any). Without a dimension > 1 (a scalar, all
// ones, or empty) the output is taken as one dimension of n elements.
#pragma once

#include <cstdint>
#include <vector>

namespace vkhlo::ir {

struct ThreeFryLayout {
  int64_t dim = 0;     // dims[d] (n without a split dimension)
  int64_t inner = 1;   // elements per step along d: the product of the dimensions after d
  int64_t blocks = 0;  // the half shape's element count: blocks consumed, the counter advance

  // The block and word of the element at row-major index i.
  int64_t Block(int64_t i) const {
    const int64_t outer = i / (dim * inner), c = i / inner % dim, in = i % inner;
    return (outer * ((dim + 1) / 2) + c / 2) * inner + in;
  }
  int Word(int64_t i) const { return static_cast<int>(i / inner % dim % 2); }
};

inline ThreeFryLayout ThreeFryLayoutOf(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t s : dims) n *= s;
  ThreeFryLayout layout{n, 1, (n + 1) / 2};
  if (n == 0) return layout;
  bool split = false;
  int64_t inner = n;
  for (int64_t s : dims) {
    inner /= s;
    if (s <= 1) continue;
    const int64_t blocks = (s + 1) / 2 * (n / s);
    if (!split || blocks < layout.blocks) layout = {s, inner, blocks};
    split = true;
  }
  return layout;
}

}  // namespace vkhlo::ir
