// triangular_solve and cholesky, batched over the leading dimensions, in the element type's
// arithmetic (f32 for f32 and narrower floats, double for f64; complex likewise).
//
// triangular_solve reads only the `lower` (or upper) triangle of `a`, taking its diagonal as 1
// when `unit_diagonal`, and solves op(a) x = b or x op(a) = b (op: as is, transposed, or
// conjugate-transposed) with the algorithm of XLA's TriangularSolveExpander (inverted diagonal
// blocks), so that f32 results round as XLA's do.
//
// cholesky reads only the `lower` (or upper) triangle of `a` (the other one is taken as its
// conjugate mirror) and writes zeros to the other triangle of the result (the spec leaves those
// values implementation-defined). For a matrix that is not positive definite the square root of
// a negative pivot is NaN, which then spreads through the rest of the factor.
#include <fmt/format.h>

#include <cmath>

#include "interp/library_common.h"
#include "interp/library_ops.h"

namespace vkhlo::interp {
namespace {

using ir::Operation;

inline float Conj(float v) { return v; }
inline double Conj(double v) { return v; }
template <typename F>
inline std::complex<F> Conj(const std::complex<F>& v) { return std::conj(v); }
inline float RealPart(float v) { return v; }
inline double RealPart(double v) { return v; }
template <typename F>
inline F RealPart(const std::complex<F>& v) { return v.real(); }

enum class Transpose { kNo, kTranspose, kAdjoint };

// Block size of XLA's TriangularSolveExpander (its default).
constexpr int64_t kSolveBlock = 128;

// The inverse of the triangular block a[j0:j1, j0:j1] (row-major, stride m), as XLA's
// InvertDiagonalBlocks computes it: scale each column by its diagonal element (making the block
// unit triangular), invert one row at a time with row-times-matrix products, undo the scaling.
template <typename T>
std::vector<T> InvertBlock(const T* a, int64_t m, int64_t j0, int64_t j1, bool lower) {
  const int64_t s = j1 - j0;
  std::vector<T> diag(static_cast<size_t>(s)), scaled(static_cast<size_t>(s * s), T{}), out(static_cast<size_t>(s * s), T{});
  for (int64_t c = 0; c < s; ++c) {
    const T d = a[(j0 + c) * m + j0 + c];
    diag[static_cast<size_t>(c)] = d == T{} ? T{1} : d;
  }
  for (int64_t r = 0; r < s; ++r) {
    for (int64_t c = 0; c < s; ++c) {
      if (lower ? c > r : c < r) continue;
      scaled[static_cast<size_t>(r * s + c)] = a[(j0 + r) * m + j0 + c] / diag[static_cast<size_t>(c)];
    }
  }
  // -I, except +1 at the corner the loop never updates.
  for (int64_t i = 0; i < s; ++i) out[static_cast<size_t>(i * s + i)] = T{-1};
  const int64_t corner = lower ? 0 : s - 1;
  if (s > 0) out[static_cast<size_t>(corner * s + corner)] = T{1};
  std::vector<T> update(static_cast<size_t>(s));
  for (int64_t i = 1; i < s; ++i) {
    const int64_t j = lower ? i : s - 1 - i;
    for (int64_t c = 0; c < s; ++c) {
      T dot{};
      for (int64_t k = 0; k < s; ++k) {
        dot = lib::FusedMulAdd(dot, scaled[static_cast<size_t>(j * s + k)], out[static_cast<size_t>(k * s + c)]);
      }
      update[static_cast<size_t>(c)] = -dot;
    }
    std::copy(update.begin(), update.end(), out.begin() + j * s);
  }
  for (int64_t r = 0; r < s; ++r) {
    for (int64_t c = 0; c < s; ++c) out[static_cast<size_t>(r * s + c)] = out[static_cast<size_t>(r * s + c)] / diag[static_cast<size_t>(r)];
  }
  return out;
}

// One batch element, as XLA's TriangularSolveExpander does it: invert the diagonal blocks of a
// (128 x 128), then solve block by block (forward or backward): remainder = b_block - (op(a)
// coupling with the solved part) x_solved, x_block = op(inverse block) applied to remainder.
// The products use fused multiply-adds, the last one in two interleaved partial sums (even and
// odd index), which is how XLA on CPU rounds them: with it, f32 results of JAX's exported
// triangular_solve tests match bit for bit (ill-conditioned cases are off by tens of ULPs with
// plain substitution).
template <typename T>
void SolveOne(const T* a_in, const T* b, T* x, int64_t m, int64_t rows, int64_t cols, bool left, bool lower,
              bool unit, Transpose t) {
  // The triangle of a that is read; the unit diagonal when asked.
  std::vector<T> a(static_cast<size_t>(m * m), T{});
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      if (lower ? j > i : j < i) continue;
      a[static_cast<size_t>(i * m + j)] = (i == j && unit) ? T{1} : a_in[i * m + j];
    }
  }
  const bool transposed = t != Transpose::kNo, conjugate = t == Transpose::kAdjoint;
  auto op = [&](const std::vector<T>& matrix, int64_t size, int64_t r, int64_t c) {
    if (!transposed) return matrix[static_cast<size_t>(r * size + c)];
    const T v = matrix[static_cast<size_t>(c * size + r)];
    return conjugate ? Conj(v) : v;
  };
  const bool backward = left ? lower == transposed : lower != transposed;
  const int64_t blocks = (m + kSolveBlock - 1) / kSolveBlock;
  std::vector<T> remainder;
  for (int64_t step = 0; step < blocks; ++step) {
    const int64_t jb = backward ? blocks - 1 - step : step;
    const int64_t j0 = jb * kSolveBlock, j1 = std::min(m, j0 + kSolveBlock), s = j1 - j0;
    const int64_t solved0 = backward ? j1 : 0, solved1 = backward ? m : j0;
    const std::vector<T> inv = InvertBlock(a.data(), m, j0, j1, lower);
    if (left) {
      // op(a) x = b: rows j0..j1 of x.
      remainder.assign(static_cast<size_t>(s * cols), T{});
      for (int64_t r = j0; r < j1; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
          T dot{};
          for (int64_t k = solved0; k < solved1; ++k) dot = lib::FusedMulAdd(dot, op(a, m, r, k), x[k * cols + c]);
          remainder[static_cast<size_t>((r - j0) * cols + c)] = step == 0 ? b[r * cols + c] : b[r * cols + c] - dot;
        }
      }
      for (int64_t r = 0; r < s; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
          T dot{};
          T dot2{};
          for (int64_t k = 0; k < s; ++k) {
            T& lane = k % 2 ? dot2 : dot;
            lane = lib::FusedMulAdd(lane, op(inv, s, r, k), remainder[static_cast<size_t>(k * cols + c)]);
          }
          x[(j0 + r) * cols + c] = dot + dot2;
        }
      }
    } else {
      // x op(a) = b: columns j0..j1 of x.
      remainder.assign(static_cast<size_t>(rows * s), T{});
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = j0; c < j1; ++c) {
          T dot{};
          for (int64_t k = solved0; k < solved1; ++k) dot = lib::FusedMulAdd(dot, x[r * cols + k], op(a, m, k, c));
          remainder[static_cast<size_t>(r * s + c - j0)] = step == 0 ? b[r * cols + c] : b[r * cols + c] - dot;
        }
      }
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < s; ++c) {
          T dot{};
          T dot2{};
          for (int64_t k = 0; k < s; ++k) {
            T& lane = k % 2 ? dot2 : dot;
            lane = lib::FusedMulAdd(lane, remainder[static_cast<size_t>(r * s + k)], op(inv, s, k, c));
          }
          x[r * cols + j0 + c] = dot + dot2;
        }
      }
    }
  }
}

template <typename T>
std::vector<T> TriangularSolve(const std::vector<T>& a, const std::vector<T>& b, int64_t batch, int64_t m,
                               int64_t b_rows, int64_t b_cols, bool left, bool lower, bool unit, Transpose t) {
  std::vector<T> out(b.size());
  for (int64_t bi = 0; bi < batch; ++bi) {
    SolveOne(a.data() + bi * m * m, b.data() + bi * b_rows * b_cols, out.data() + bi * b_rows * b_cols, m, b_rows,
             b_cols, left, lower, unit, t);
  }
  return out;
}

StatusOr<InterpValues> EvalTriangularSolve(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* a, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* b, lib::TensorOperand(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(ir::Type result_type, lib::TensorResultType(context, op, 0));
  const bool left = lib::AttrBool(op, "left_side");
  const bool lower = lib::AttrBool(op, "lower");
  const bool unit = lib::AttrBool(op, "unit_diagonal");
  const std::string t = lib::AttrEnum(op, "transpose_a", "transpose").value_or("NO_TRANSPOSE");
  Transpose transpose;
  if (t == "NO_TRANSPOSE") {
    transpose = Transpose::kNo;
  } else if (t == "TRANSPOSE") {
    transpose = Transpose::kTranspose;
  } else if (t == "ADJOINT") {
    transpose = Transpose::kAdjoint;
  } else {
    return context.OpError(op, "has unknown transpose_a " + t);
  }
  const auto& ad = a->type().dims();
  const auto& bd = b->type().dims();
  const int64_t rank = a->type().rank();
  if (rank < 2 || b->type().rank() != rank || result_type.dims() != bd) {
    return context.OpError(op, "has operands of mismatched ranks or a result unlike b");
  }
  const int64_t m = ad[rank - 1];
  if (ad[rank - 2] != m || (left ? bd[rank - 2] : bd[rank - 1]) != m ||
      !std::equal(ad.begin(), ad.end() - 2, bd.begin())) {
    return context.OpError(op, "has shapes of a and b that do not match");
  }
  const int64_t batch = lib::Product(std::vector<int64_t>(ad.begin(), ad.end() - 2));
  const int64_t rows = bd[rank - 2], cols = bd[rank - 1];
  const bool complex = lib::DomainOf(result_type.element_type()) == lib::Domain::kComplex;
  const bool f64 = lib::UsesF64({result_type.element_type(), a->element_type()});
  auto solve = [&](auto read, auto write) {
    return write(result_type, TriangularSolve(read(*a), read(*b), batch, m, rows, cols, left, lower, unit, transpose));
  };
  StatusOr<ir::Literal> out = complex ? (f64 ? solve(lib::ToComplex, lib::FromComplex) : solve(lib::ToComplexF, lib::FromComplexF))
                                      : (f64 ? solve(lib::ToDoubles, lib::FromDoubles) : solve(lib::ToFloats, lib::FromFloats));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, std::move(out));
  return lib::One(std::move(literal));
}

template <typename T>
std::vector<T> Cholesky(const std::vector<T>& a, int64_t batch, int64_t m, bool lower) {
  std::vector<T> out(a.size(), T{});
  std::vector<T> l(static_cast<size_t>(m * m));
  for (int64_t bi = 0; bi < batch; ++bi) {
    const T* ab = a.data() + bi * m * m;
    std::fill(l.begin(), l.end(), T{});
    for (int64_t j = 0; j < m; ++j) {
      // h[i][j] (i >= j): the lower triangle of the Hermitian matrix the input stands for.
      auto h = [&](int64_t i, int64_t k) { return lower ? ab[i * m + k] : Conj(ab[k * m + i]); };
      // As XLA's Cholesky expander: l[j][j] = sqrt(a[j][j] - dot(l[j][:j], conj(l[j][:j]))),
      // l[i][j] = (a[i][j] - dot(l[i][:j], conj(l[j][:j]))) / l[j][j], dots in index order.
      using Real = decltype(RealPart(T{}));
      T dot{};
      for (int64_t k = 0; k < j; ++k) {
        const T v = l[static_cast<size_t>(j * m + k)];
        dot = lib::MulAdd(dot, v, Conj(v));
      }
      const Real pivot = std::sqrt(RealPart(h(j, j)) - RealPart(dot));
      l[static_cast<size_t>(j * m + j)] = T{pivot};
      for (int64_t i = j + 1; i < m; ++i) {
        T row_dot{};
        for (int64_t k = 0; k < j; ++k) {
          row_dot = lib::MulAdd(row_dot, l[static_cast<size_t>(i * m + k)], Conj(l[static_cast<size_t>(j * m + k)]));
        }
        l[static_cast<size_t>(i * m + j)] = (h(i, j) - row_dot) / T{pivot};
      }
    }
    T* ob = out.data() + bi * m * m;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j <= i; ++j) {
        if (lower) {
          ob[i * m + j] = l[static_cast<size_t>(i * m + j)];
        } else {
          ob[j * m + i] = Conj(l[static_cast<size_t>(i * m + j)]);
        }
      }
    }
  }
  return out;
}

StatusOr<InterpValues> EvalCholesky(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* a, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Type result_type, lib::TensorResultType(context, op, 0));
  const bool lower = lib::AttrBool(op, "lower");
  const auto& dims = a->type().dims();
  const int64_t rank = a->type().rank();
  if (rank < 2 || dims[rank - 1] != dims[rank - 2] || result_type.dims() != dims) {
    return context.OpError(op, "takes a batch of square matrices and returns the same shape");
  }
  const int64_t m = dims[rank - 1];
  const int64_t batch = lib::Product(std::vector<int64_t>(dims.begin(), dims.end() - 2));
  const bool complex = lib::DomainOf(result_type.element_type()) == lib::Domain::kComplex;
  const bool f64 = lib::UsesF64({result_type.element_type(), a->element_type()});
  auto factor = [&](auto read, auto write) { return write(result_type, Cholesky(read(*a), batch, m, lower)); };
  StatusOr<ir::Literal> out = complex ? (f64 ? factor(lib::ToComplex, lib::FromComplex) : factor(lib::ToComplexF, lib::FromComplexF))
                                      : (f64 ? factor(lib::ToDoubles, lib::FromDoubles) : factor(lib::ToFloats, lib::FromFloats));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, std::move(out));
  return lib::One(std::move(literal));
}

}  // namespace

void RegisterLinalgOps(OpRegistry& registry) {
  registry.Register(ir::OpCode::kTriangularSolve, EvalTriangularSolve);
  registry.Register(ir::OpCode::kCholesky, EvalCholesky);
}

}  // namespace vkhlo::interp
