// dot_general -> MatmulProblem: index maps over the operands' own layouts.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "codegen/library/matmul_problem.h"
#include "ir/requantize.h"

namespace vkhlo::codegen::library {
namespace {

// The largest v in {8, 4, 2} such that aligned runs of v indices along `axis` are contiguous
// and start at multiples of v given the other maps' strides; 1 otherwise.
int VectorRun(const AxisMap& axis, const std::vector<const AxisMap*>& others) {
  const AxisMap s = axis.Simplified();
  if (s.parts.empty()) return 1;
  const AxisPart& inner = s.parts.back();
  if (inner.stride != 1) return 1;
  for (int v : {8, 4, 2}) {
    if (inner.size % v != 0) continue;
    bool ok = true;
    for (size_t p = 0; p + 1 < s.parts.size(); ++p) ok = ok && s.parts[p].stride % v == 0;
    for (const AxisMap* o : others) ok = ok && o->StridesMultipleOf(v);
    if (ok) return v;
  }
  return 1;
}

}  // namespace

std::string DescribeOp(const ir::Operation& op) {
  // The runtime puts "file:line:col: error: " in front, as for every op's error.
  return fmt::format("'{}'", op.name());
}

void SetVectorRuns(OperandAccess& x) {
  x.col_run = VectorRun(x.cols, {&x.batch, &x.rows});
  x.row_run = VectorRun(x.rows, {&x.batch, &x.cols});
}

StatusOr<MatmulProblem> NormalizeDotGeneral(const ir::Operation& op) {
  const std::string what = DescribeOp(op);
  if (op.num_operands() < 2 || op.num_results() != 1) return InvalidArgumentError(what + ": expected two operands and one result");
  const ir::Type& lhs = op.operand(0)->type();
  const ir::Type& rhs = op.operand(1)->type();
  const ir::Type& result = op.result(0)->type();
  if (!lhs.is_tensor() || !rhs.is_tensor() || !result.is_tensor() || lhs.is_quantized() || rhs.is_quantized() ||
      result.is_quantized()) {
    return UnimplementedError(what + ": the library kernels take unquantized tensors");
  }
  ir::DotDimensionNumbers dn;
  if (op.code() == ir::OpCode::kDot) {
    if (lhs.rank() < 1 || lhs.rank() > 2 || rhs.rank() < 1 || rhs.rank() > 2) {
      return InvalidArgumentError(what + ": dot takes operands of rank 1 or 2");
    }
    dn.lhs_contracting_dimensions = {lhs.rank() - 1};
    dn.rhs_contracting_dimensions = {0};
  } else {
    const ir::Attribute* a = op.attribute("dot_dimension_numbers");
    const ir::DotDimensionNumbers* p = a ? a->as<ir::DotDimensionNumbers>() : nullptr;
    if (p == nullptr) return InvalidArgumentError(what + ": has no dot_dimension_numbers");
    dn = *p;
  }
  auto check = [&](const std::vector<int64_t>& batch, const std::vector<int64_t>& contract, int64_t rank,
                   const char* side) -> Status {
    std::set<int64_t> seen;
    for (const auto* list : {&batch, &contract}) {
      for (int64_t d : *list) {
        if (d < 0 || d >= rank || !seen.insert(d).second) {
          return InvalidArgumentError(fmt::format("{}: {} dimension {} is out of range or repeated", what, side, d));
        }
      }
    }
    return OkStatus();
  };
  VKHLO_RETURN_IF_ERROR(check(dn.lhs_batching_dimensions, dn.lhs_contracting_dimensions, lhs.rank(), "lhs"));
  VKHLO_RETURN_IF_ERROR(check(dn.rhs_batching_dimensions, dn.rhs_contracting_dimensions, rhs.rank(), "rhs"));
  if (dn.lhs_batching_dimensions.size() != dn.rhs_batching_dimensions.size() ||
      dn.lhs_contracting_dimensions.size() != dn.rhs_contracting_dimensions.size()) {
    return InvalidArgumentError(what + ": lhs and rhs have different numbers of batching or contracting dimensions");
  }
  for (size_t i = 0; i < dn.lhs_batching_dimensions.size(); ++i) {
    if (lhs.dim(dn.lhs_batching_dimensions[i]) != rhs.dim(dn.rhs_batching_dimensions[i])) {
      return InvalidArgumentError(what + ": batching dimensions differ in size");
    }
  }
  for (size_t i = 0; i < dn.lhs_contracting_dimensions.size(); ++i) {
    if (lhs.dim(dn.lhs_contracting_dimensions[i]) != rhs.dim(dn.rhs_contracting_dimensions[i])) {
      return InvalidArgumentError(what + ": contracting dimensions differ in size");
    }
  }
  auto free_dims = [](const std::vector<int64_t>& batch, const std::vector<int64_t>& contract, int64_t rank) {
    std::vector<int64_t> out;
    for (int64_t d = 0; d < rank; ++d) {
      if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
          std::find(contract.begin(), contract.end(), d) == contract.end()) {
        out.push_back(d);
      }
    }
    return out;
  };
  const auto lhs_free = free_dims(dn.lhs_batching_dimensions, dn.lhs_contracting_dimensions, lhs.rank());
  const auto rhs_free = free_dims(dn.rhs_batching_dimensions, dn.rhs_contracting_dimensions, rhs.rank());

  MatmulProblem p;
  p.what = fmt::format("{} on {} x {} -> {}", what, lhs.ToString(), rhs.ToString(), result.ToString());
  p.a_type = lhs.element_type();
  p.b_type = rhs.element_type();
  p.c_type = result.element_type();
  VKHLO_ASSIGN_OR_RETURN(p.acc, AccumulatorFor(p.a_type, p.b_type, p.c_type));
  p.a.batch = MapOfDims(lhs.dims(), dn.lhs_batching_dimensions);
  p.a.rows = MapOfDims(lhs.dims(), lhs_free);
  p.a.cols = MapOfDims(lhs.dims(), dn.lhs_contracting_dimensions);
  p.b.batch = MapOfDims(rhs.dims(), dn.rhs_batching_dimensions);
  p.b.rows = MapOfDims(rhs.dims(), dn.rhs_contracting_dimensions);
  p.b.cols = MapOfDims(rhs.dims(), rhs_free);
  SetVectorRuns(p.a);
  SetVectorRuns(p.b);
  p.a.elements = lhs.num_elements();
  p.b.elements = rhs.num_elements();
  p.batch = p.a.batch.size();
  p.m = p.a.rows.size();
  p.k = p.a.cols.size();
  p.n = p.b.cols.size();
  std::vector<int64_t> expected;
  for (int64_t d : dn.lhs_batching_dimensions) expected.push_back(lhs.dim(d));
  for (int64_t d : lhs_free) expected.push_back(lhs.dim(d));
  for (int64_t d : rhs_free) expected.push_back(rhs.dim(d));
  if (expected != result.dims()) {
    return InvalidArgumentError(fmt::format("{}: result type {} does not have the shape of the product", what,
                                            result.ToString()));
  }
  p.result_dims = result.dims();
  p.result_batch_dims = static_cast<int64_t>(dn.lhs_batching_dimensions.size());
  p.result_row_dims = static_cast<int64_t>(lhs_free.size());
  // Quantized (ir::kQuantizedTypesAttribute): per-axis rhs channels along a batching or free
  // dimension, numbered as the normalized b (batching dims row-major) or n (rhs free dims).
  QuantizedAxisRules rules;
  rules.rhs_not_allowed = dn.rhs_contracting_dimensions;
  rules.result_dim_of_rhs.assign(static_cast<size_t>(rhs.rank()), -1);
  const int64_t nb = static_cast<int64_t>(dn.rhs_batching_dimensions.size());
  for (int64_t i = 0; i < nb; ++i) rules.result_dim_of_rhs[static_cast<size_t>(dn.rhs_batching_dimensions[i])] = i;
  for (size_t j = 0; j < rhs_free.size(); ++j) {
    rules.result_dim_of_rhs[static_cast<size_t>(rhs_free[j])] = nb + static_cast<int64_t>(lhs_free.size() + j);
  }
  auto channel = [&](int64_t d) -> StatusOr<ChannelMap> {
    auto place = [&](const std::vector<int64_t>& dims, int64_t& div, int64_t& mod, int64_t& mul) {
      for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] != d) continue;
        div = 1;
        for (size_t j = i + 1; j < dims.size(); ++j) div *= rhs.dim(dims[j]);
        mod = rhs.dim(d);
        mul = 1;
        return true;
      }
      return false;
    };
    ChannelMap m;
    if (place(dn.rhs_batching_dimensions, m.b_div, m.b_mod, m.b_mul) || place(rhs_free, m.n_div, m.n_mod, m.n_mul)) {
      return m;
    }
    return InvalidArgumentError(fmt::format("{}: rhs dimension {} is neither batching nor free", what, d));
  };
  VKHLO_ASSIGN_OR_RETURN(p.quant, ReadQuantizedContraction(op, p.what, rules, channel));
  if (p.quant) p.acc = p.quant->hybrid ? ComputeDomain(p.quant->expressed) : AccKind::kI32;
  p.c_batch.parts = {{p.batch, p.m * p.n}};
  p.c_rows.parts = {{p.m, p.n}};
  p.c_cols.parts = {{p.n, 1}};
  return p;
}

Status StoreTransposed(MatmulProblem& p, const std::vector<int64_t>& permutation) {
  const std::vector<int64_t>& dims = p.result_dims;
  const size_t rank = dims.size();
  std::vector<bool> seen(rank, false);
  for (int64_t d : permutation) {
    if (permutation.size() != rank || d < 0 || static_cast<size_t>(d) >= rank || seen[static_cast<size_t>(d)]) {
      return InvalidArgumentError(fmt::format("{}: a stored transpose needs a permutation of the result's {} dimensions",
                                              p.what, rank));
    }
    seen[static_cast<size_t>(d)] = true;
  }
  // Stored dimension i is result dimension permutation[i]; row-major strides of the stored
  // tensor, given to the result dimensions they belong to.
  std::vector<int64_t> stride(rank, 1);
  int64_t s = 1;
  for (size_t i = rank; i-- > 0;) {
    stride[static_cast<size_t>(permutation[i])] = s;
    s *= dims[static_cast<size_t>(permutation[i])];
  }
  auto map = [&](int64_t begin, int64_t end) {
    AxisMap m;
    for (int64_t d = begin; d < end; ++d) m.parts.push_back({dims[static_cast<size_t>(d)], stride[static_cast<size_t>(d)]});
    return m;
  };
  const int64_t nb = p.result_batch_dims, nm = p.result_row_dims;
  p.product_maps = std::array<AxisMap, 3>{p.c_batch, p.c_rows, p.c_cols};
  p.c_batch = map(0, nb);
  p.c_rows = map(nb, nb + nm);
  p.c_cols = map(nb + nm, static_cast<int64_t>(rank));
  return OkStatus();
}

Status GroupColumns(MatmulProblem& p, int64_t groups, int64_t width, int64_t stride, int64_t per_block) {
  const AxisMap b_cols = p.b.cols.Simplified();
  const bool one_free = p.result_batch_dims + p.result_row_dims + 1 == static_cast<int64_t>(p.result_dims.size());
  if (!one_free || p.product_maps || p.quant || b_cols.parts.size() != 1 || groups < 2 || width < 1 || per_block < 1 ||
      width % per_block != 0 || stride < width || (groups - 1) * stride + width > p.n) {
    return InvalidArgumentError(fmt::format("{}: columns cannot be grouped ({} groups of {} every {})", p.what, groups,
                                            width, stride));
  }
  const int64_t sn = b_cols.parts[0].stride;
  auto grouped = [&](int64_t unit) {
    AxisMap m;
    m.parts = {{width / per_block, per_block * unit}, {groups, stride * unit}, {per_block, unit}};
    return m;
  };
  p.b.cols = grouped(sn);
  SetVectorRuns(p.b);
  p.product_maps = std::array<AxisMap, 3>{p.c_batch, p.c_rows, grouped(1)};
  p.grouped = MatmulProblem::GroupedColumns{groups, width, stride, per_block};
  p.n = groups * width;
  p.c_batch.parts = {{p.batch, p.m * width}};
  p.c_rows.parts = {{p.m, width}};
  p.c_cols.parts = {{width, 1}};
  p.result_dims.back() = width;
  return OkStatus();
}

}  // namespace vkhlo::codegen::library
