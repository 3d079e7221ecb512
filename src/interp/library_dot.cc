// dot_general and dot.
//
// Both operands are first packed: lhs as [batch][lhs free][contracting] (contracting dims
// contiguous), rhs as [batch][contracting][rhs free]. Each result element is the spec's
// reduce(multiply) over the contracting index, summed in index order in the result's arithmetic:
// f32 (and narrower floats, which XLA also computes in f32) with every product and sum rounded
// to f32, f64 in double, complex<f32> / complex<f64> likewise, integers in 64 bits with
// wraparound (the result keeps the low bits: i8 x i8 -> i32 is exact), i1 as OR of ANDs.
// precision_config and algorithm describe accuracy on accelerators and are ignored. Quantized
// operands: library_quantized.h (dequantize, this float product, quantize).
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "interp/library_common.h"
#include "interp/library_ops.h"
#include "interp/library_quantized.h"

namespace vkhlo::interp {
namespace {

using ir::Operation;
using lib::Complex;
using lib::Domain;

struct DotPlan {
  int64_t batch = 1, m = 1, n = 1, k = 1;
  // Offsets into each operand (row-major) of every batch / free / contracting index.
  std::vector<int64_t> lhs_batch, lhs_free, lhs_contract;
  std::vector<int64_t> rhs_batch, rhs_free, rhs_contract;
  std::vector<int64_t> result_dims;
};

StatusOr<DotPlan> PlanDot(EvalContext& context, const Operation& op, const ir::Type& lhs, const ir::Type& rhs,
                          const ir::DotDimensionNumbers& dn) {
  auto check_axes = [&](const std::vector<int64_t>& batch, const std::vector<int64_t>& contract,
                        int64_t rank, const char* side) -> Status {
    std::set<int64_t> seen;
    for (int64_t d : batch) {
      if (d < 0 || d >= rank || !seen.insert(d).second) {
        return context.OpError(op, fmt::format("{} batching dimension {} is out of range or repeated", side, d));
      }
    }
    for (int64_t d : contract) {
      if (d < 0 || d >= rank || !seen.insert(d).second) {
        return context.OpError(op, fmt::format("{} contracting dimension {} is out of range or repeated", side, d));
      }
    }
    return OkStatus();
  };
  VKHLO_RETURN_IF_ERROR(check_axes(dn.lhs_batching_dimensions, dn.lhs_contracting_dimensions, lhs.rank(), "lhs"));
  VKHLO_RETURN_IF_ERROR(check_axes(dn.rhs_batching_dimensions, dn.rhs_contracting_dimensions, rhs.rank(), "rhs"));
  if (dn.lhs_batching_dimensions.size() != dn.rhs_batching_dimensions.size() ||
      dn.lhs_contracting_dimensions.size() != dn.rhs_contracting_dimensions.size()) {
    return context.OpError(op, "lhs and rhs have different numbers of batching or contracting dimensions");
  }
  DotPlan plan;
  for (size_t i = 0; i < dn.lhs_batching_dimensions.size(); ++i) {
    const int64_t l = lhs.dim(dn.lhs_batching_dimensions[i]), r = rhs.dim(dn.rhs_batching_dimensions[i]);
    if (l != r) return context.OpError(op, fmt::format("batching dimension {} has size {} in lhs and {} in rhs", i, l, r));
    plan.batch *= l;
    plan.result_dims.push_back(l);
  }
  for (size_t i = 0; i < dn.lhs_contracting_dimensions.size(); ++i) {
    const int64_t l = lhs.dim(dn.lhs_contracting_dimensions[i]), r = rhs.dim(dn.rhs_contracting_dimensions[i]);
    if (l != r) return context.OpError(op, fmt::format("contracting dimension {} has size {} in lhs and {} in rhs", i, l, r));
    plan.k *= l;
  }
  auto free_axes = [](const std::vector<int64_t>& batch, const std::vector<int64_t>& contract, int64_t rank) {
    std::vector<int64_t> axes;
    for (int64_t d = 0; d < rank; ++d) {
      if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
          std::find(contract.begin(), contract.end(), d) == contract.end()) {
        axes.push_back(d);
      }
    }
    return axes;
  };
  const auto lhs_free = free_axes(dn.lhs_batching_dimensions, dn.lhs_contracting_dimensions, lhs.rank());
  const auto rhs_free = free_axes(dn.rhs_batching_dimensions, dn.rhs_contracting_dimensions, rhs.rank());
  for (int64_t d : lhs_free) {
    plan.m *= lhs.dim(d);
    plan.result_dims.push_back(lhs.dim(d));
  }
  for (int64_t d : rhs_free) {
    plan.n *= rhs.dim(d);
    plan.result_dims.push_back(rhs.dim(d));
  }
  const auto ls = lib::RowMajorStrides(lhs.dims()), rs = lib::RowMajorStrides(rhs.dims());
  plan.lhs_batch = lib::OffsetTable(dn.lhs_batching_dimensions, lhs.dims(), ls);
  plan.lhs_free = lib::OffsetTable(lhs_free, lhs.dims(), ls);
  plan.lhs_contract = lib::OffsetTable(dn.lhs_contracting_dimensions, lhs.dims(), ls);
  plan.rhs_batch = lib::OffsetTable(dn.rhs_batching_dimensions, rhs.dims(), rs);
  plan.rhs_free = lib::OffsetTable(rhs_free, rhs.dims(), rs);
  plan.rhs_contract = lib::OffsetTable(dn.rhs_contracting_dimensions, rhs.dims(), rs);
  return plan;
}

// Packs `values` (an operand in row-major order) as [batch][outer][inner] from the offset
// tables of its batch, outer and inner indices.
template <typename T>
std::vector<T> Pack(const std::vector<T>& values, const std::vector<int64_t>& batch,
                    const std::vector<int64_t>& outer, const std::vector<int64_t>& inner) {
  std::vector<T> out;
  out.reserve(batch.size() * outer.size() * inner.size());
  for (int64_t b : batch) {
    for (int64_t o : outer) {
      const int64_t base = b + o;
      for (int64_t i : inner) out.push_back(values[static_cast<size_t>(base + i)]);
    }
  }
  return out;
}

// result[b][m][n] = sum over k of lhs[b][m][k] * rhs[b][k][n], each sum accumulated in order of
// k. A tile of kTile result columns is computed at once: the tile's accumulators are independent
// (so the inner loop vectorizes) while each keeps the sequential order, and the rhs tile (K x
// kTile) stays in cache while every lhs row passes over it.
template <typename T>
std::vector<T> MultiplyPacked(const std::vector<T>& lhs, const std::vector<T>& rhs, const DotPlan& p) {
  constexpr int64_t kTile = 16;
  std::vector<T> out(static_cast<size_t>(p.batch * p.m * p.n));
  for (int64_t b = 0; b < p.batch; ++b) {
    const T* lb = lhs.data() + b * p.m * p.k;
    const T* rb = rhs.data() + b * p.k * p.n;
    T* ob = out.data() + b * p.m * p.n;
    for (int64_t n0 = 0; n0 < p.n; n0 += kTile) {
      const int64_t width = std::min(kTile, p.n - n0);
      for (int64_t m = 0; m < p.m; ++m) {
        const T* row = lb + m * p.k;
        T acc[kTile] = {};
        if (width == kTile) {
          for (int64_t k = 0; k < p.k; ++k) {
            const T a = row[k];
            const T* r = rb + k * p.n + n0;
            for (int64_t j = 0; j < kTile; ++j) acc[j] = lib::MulAdd(acc[j], a, r[j]);
          }
        } else {
          for (int64_t k = 0; k < p.k; ++k) {
            const T a = row[k];
            const T* r = rb + k * p.n + n0;
            for (int64_t j = 0; j < width; ++j) acc[j] = lib::MulAdd(acc[j], a, r[j]);
          }
        }
        std::copy(acc, acc + width, ob + m * p.n + n0);
      }
    }
  }
  return out;
}

template <typename T, typename Read>
std::vector<T> Multiply(const ir::Literal& lhs, const ir::Literal& rhs, const DotPlan& plan, Read read) {
  const auto a = Pack(read(lhs), plan.lhs_batch, plan.lhs_free, plan.lhs_contract);
  const auto b = Pack(read(rhs), plan.rhs_batch, plan.rhs_contract, plan.rhs_free);
  return MultiplyPacked(a, b, plan);
}

StatusOr<ir::Literal> DotLiterals(EvalContext& context, const Operation& op, const ir::Literal* lhs,
                                  const ir::Literal* rhs, const ir::Type& result_type,
                                  const ir::DotDimensionNumbers& dn) {
  VKHLO_ASSIGN_OR_RETURN(DotPlan plan, PlanDot(context, op, lhs->type(), rhs->type(), dn));
  if (plan.result_dims != result_type.dims()) {
    return context.OpError(op, fmt::format("result type {} does not have the shape of the product",
                                           result_type.ToString()));
  }
  Domain domain = lib::DomainOf(result_type.element_type());
  if (lib::DomainOf(lhs->element_type()) == Domain::kComplex || lib::DomainOf(rhs->element_type()) == Domain::kComplex) {
    domain = Domain::kComplex;
  }
  const bool f64 = lib::UsesF64({result_type.element_type(), lhs->element_type(), rhs->element_type()});
  const ir::Type& t = result_type;
  StatusOr<ir::Literal> out = InternalError("unreachable");
  switch (domain) {
    case Domain::kFloat:
      out = f64 ? lib::FromDoubles(t, Multiply<double>(*lhs, *rhs, plan, lib::ToDoubles))
                : lib::FromFloats(t, Multiply<float>(*lhs, *rhs, plan, lib::ToFloats));
      break;
    case Domain::kComplex:
      out = f64 ? lib::FromComplex(t, Multiply<Complex>(*lhs, *rhs, plan, lib::ToComplex))
                : lib::FromComplexF(t, Multiply<lib::ComplexF>(*lhs, *rhs, plan, lib::ToComplexF));
      break;
    case Domain::kInt:
      out = lib::FromInts(t, Multiply<int64_t>(*lhs, *rhs, plan, lib::ToInts));
      break;
    case Domain::kBool:
      // add is OR and multiply is AND for booleans: a nonzero count of true AND true pairs.
      out = lib::FromInts(t, Multiply<int64_t>(*lhs, *rhs, plan, [](const ir::Literal& l) {
        auto v = lib::ToInts(l);
        for (auto& x : v) x = x != 0;
        return v;
      }));
      break;
  }
  return out;
}

// The result dimension of each rhs dimension (-1: contracting). The result is
// [batch (in order), lhs free, rhs free (in increasing order)].
std::vector<int64_t> RhsToResult(const InterpValues& operands, const ir::DotDimensionNumbers& dn) {
  if (operands.size() < 2 || !operands[0].is_tensor() || !operands[1].is_tensor()) return {};
  const int64_t lhs_rank = operands[0].literal().type().rank(), rhs_rank = operands[1].literal().type().rank();
  const auto nb = static_cast<int64_t>(dn.lhs_batching_dimensions.size());
  int64_t next = lhs_rank - static_cast<int64_t>(dn.lhs_contracting_dimensions.size());  // first rhs free
  std::vector<int64_t> map(static_cast<size_t>(rhs_rank), -1);
  auto find = [](const std::vector<int64_t>& v, int64_t d) { return std::find(v.begin(), v.end(), d) - v.begin(); };
  for (int64_t d = 0; d < rhs_rank; ++d) {
    const auto batch = find(dn.rhs_batching_dimensions, d);
    if (batch < nb) {
      map[static_cast<size_t>(d)] = batch;
    } else if (find(dn.rhs_contracting_dimensions, d) == static_cast<int64_t>(dn.rhs_contracting_dimensions.size())) {
      map[static_cast<size_t>(d)] = next++;
    }
  }
  return map;
}

StatusOr<InterpValues> DotWith(EvalContext& context, const Operation& op, const InterpValues& operands,
                               const ir::DotDimensionNumbers& dn) {
  if (lib::UsesQuantizedTensors(op, operands)) {
    return lib::EvalQuantizedLibraryOp(
        context, op, operands,
        lib::QuantizedAxes{.rhs_not_allowed = dn.rhs_contracting_dimensions,
                           .rhs_to_result = RhsToResult(operands, dn)},
        [&](const ir::Literal& lhs, const ir::Literal& rhs, const ir::Type& result) {
          return DotLiterals(context, op, &lhs, &rhs, result, dn);
        });
  }
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* lhs, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* rhs, lib::TensorOperand(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(ir::Type result_type, lib::TensorResultType(context, op, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, DotLiterals(context, op, lhs, rhs, result_type, dn));
  return lib::One(std::move(literal));
}

StatusOr<InterpValues> EvalDotGeneral(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const ir::Attribute* a = op.attribute("dot_dimension_numbers");
  const ir::DotDimensionNumbers* dn = a ? a->as<ir::DotDimensionNumbers>() : nullptr;
  if (dn == nullptr) return context.OpError(op, "has no `dot_dimension_numbers`");
  return DotWith(context, op, operands, *dn);
}

// Legacy dot: vector/matrix products contracting lhs's last dimension with rhs's first.
StatusOr<InterpValues> EvalDot(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* lhs, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* rhs, lib::TensorOperand(context, op, operands, 1));
  const int64_t lr = lhs->type().rank(), rr = rhs->type().rank();
  if (lr < 1 || lr > 2 || rr < 1 || rr > 2) return context.OpError(op, "takes operands of rank 1 or 2");
  ir::DotDimensionNumbers dn;
  dn.lhs_contracting_dimensions = {lr - 1};
  dn.rhs_contracting_dimensions = {0};
  return DotWith(context, op, operands, dn);
}

}  // namespace

void RegisterDotOps(OpRegistry& registry) {
  registry.Register(ir::OpCode::kDotGeneral, EvalDotGeneral);
  registry.Register(ir::OpCode::kDot, EvalDot);
}

}  // namespace vkhlo::interp
