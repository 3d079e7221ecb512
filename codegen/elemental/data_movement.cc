// Data movement as index arithmetic: broadcast_in_dim (and legacy broadcast), reshape,
// transpose, slice, pad (negative and interior padding), concatenate, reverse, dynamic_slice
// (start indices clamped as the spec says).
//
// Each maps the result index to an operand index and reads the operand there, in whatever form
// it comes (raw values stay raw). Reshape keeps the linear index, so chains of element-wise ops
// and reshapes never divide. Pad and concatenate read their operands inside branches, so no
// out-of-range element is ever read.
#include <fmt/format.h>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/index_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

std::vector<int64_t> I64s(const Operation& op, const char* name) {
  const ir::Attribute* a = op.attribute(name);
  if (a == nullptr) return {};
  return a->AsI64Vector().value_or(std::vector<int64_t>{});
}

const std::vector<int64_t>& OperandDims(const Operation& op, size_t i) { return op.operand(i)->type().dims(); }

// The result of reading `value` into a variable of `type_name` set in branches.
struct BranchResult {
  std::string name;
  bool raw = true;
};

StatusOr<Expr> EmitBroadcastInDim(ElementalEmitter& em, const Operation& op, const Index& index) {
  const std::vector<int64_t>& od = OperandDims(op, 0);
  std::vector<int64_t> dims = I64s(op, "broadcast_dimensions");
  if (dims.size() != od.size()) return em.OpError(op, "has broadcast_dimensions of the wrong length");
  // Same shape in the same order: the index is unchanged.
  if (od == index.dims) {
    bool identity = true;
    for (size_t k = 0; k < dims.size(); ++k) identity = identity && dims[k] == static_cast<int64_t>(k);
    if (identity) return em.Operand(op, 0, Index{od, index.linear, index.multi, index.has_multi});
  }
  std::vector<std::string> multi = em.Multi(index);
  std::vector<std::string> operand(od.size(), "0");
  for (size_t k = 0; k < od.size(); ++k) {
    if (od[k] != 1) operand[k] = multi[static_cast<size_t>(dims[k])];
  }
  return em.Operand(op, 0, Index::Multi(od, operand));
}

// Legacy broadcast: the operand's dimensions are the result's last ones.
StatusOr<Expr> EmitBroadcast(ElementalEmitter& em, const Operation& op, const Index& index) {
  const std::vector<int64_t>& od = OperandDims(op, 0);
  std::vector<std::string> multi = em.Multi(index);
  std::vector<std::string> operand(multi.end() - static_cast<std::ptrdiff_t>(od.size()), multi.end());
  return em.Operand(op, 0, Index::Multi(od, operand));
}

StatusOr<Expr> EmitReshape(ElementalEmitter& em, const Operation& op, const Index& index) {
  const std::vector<int64_t>& od = OperandDims(op, 0);
  if (!FitsLinearIndex(od)) {
    // Beyond 2^32 - 1 elements there is no linear index (emitter.h): a reshape that only adds or
    // drops size-1 dimensions maps coordinates one to one; any other asks for the linear index
    // below, which is the compile error.
    std::vector<int64_t> result_sizes, operand_sizes;
    for (int64_t d : index.dims) {
      if (d != 1) result_sizes.push_back(d);
    }
    for (int64_t d : od) {
      if (d != 1) operand_sizes.push_back(d);
    }
    if (result_sizes == operand_sizes) {
      const std::vector<std::string> multi = em.Multi(index);
      std::vector<std::string> kept, operand;
      for (size_t d = 0; d < index.dims.size(); ++d) {
        if (index.dims[d] != 1) kept.push_back(multi[d]);
      }
      size_t k = 0;
      for (int64_t d : od) operand.push_back(d == 1 ? std::string("0") : kept[k++]);
      return em.Operand(op, 0, Index::Multi(od, operand));
    }
  }
  return em.Operand(op, 0, Index::Linear(OperandDims(op, 0), em.Linear(index)));
}

StatusOr<Expr> EmitTranspose(ElementalEmitter& em, const Operation& op, const Index& index) {
  const std::vector<int64_t>& od = OperandDims(op, 0);
  std::vector<int64_t> permutation = I64s(op, "permutation");
  if (permutation.size() != od.size()) return em.OpError(op, "has a permutation of the wrong length");
  std::vector<std::string> multi = em.Multi(index);
  std::vector<std::string> operand(od.size());
  // result dimension k is operand dimension permutation[k].
  for (size_t k = 0; k < od.size(); ++k) operand[static_cast<size_t>(permutation[k])] = multi[k];
  return em.Operand(op, 0, Index::Multi(od, operand));
}

StatusOr<Expr> EmitReverse(ElementalEmitter& em, const Operation& op, const Index& index) {
  const std::vector<int64_t>& od = OperandDims(op, 0);
  std::vector<std::string> multi = em.Multi(index);
  for (int64_t d : I64s(op, "dimensions")) {
    multi[static_cast<size_t>(d)] = em.Var("int", fmt::format("{} - {}", od[static_cast<size_t>(d)] - 1,
                                                              multi[static_cast<size_t>(d)]));
  }
  return em.Operand(op, 0, Index::Multi(od, multi));
}

StatusOr<Expr> EmitSlice(ElementalEmitter& em, const Operation& op, const Index& index) {
  const std::vector<int64_t>& od = OperandDims(op, 0);
  std::vector<int64_t> start = I64s(op, "start_indices"), strides = I64s(op, "strides");
  if (start.size() != od.size()) return em.OpError(op, "has start_indices of the wrong length");
  if (strides.empty()) strides.assign(od.size(), 1);
  std::vector<std::string> multi = em.Multi(index);
  for (size_t d = 0; d < od.size(); ++d) {
    if (start[d] == 0 && strides[d] == 1) continue;
    std::string term = strides[d] == 1 ? multi[d] : fmt::format("{} * {}", multi[d], strides[d]);
    multi[d] = em.Var("int", start[d] == 0 ? term : fmt::format("{} + {}", term, start[d]));
  }
  return em.Operand(op, 0, Index::Multi(od, multi));
}

// Declares `result` before a branch, assigns it in each arm. Values are carried raw (every
// element type has a raw form), so arms may produce either form.
struct Branches {
  ElementalEmitter& em;
  const TypeFacts& facts;
  std::string name;

  Branches(ElementalEmitter& e, ir::ElementType type) : em(e), facts(e.Facts(type)) {
    name = em.Var(std::string(facts.raw_glsl), RawLiteral(facts.storage_bits, 0));
  }
  void Assign(const Expr& value) { em.Line(fmt::format("{} = {};", name, em.Raw(value).code)); }
  Expr Value() const { return Expr{name, facts.type, true}; }
};

StatusOr<Expr> EmitPad(ElementalEmitter& em, const Operation& op, const Index& index) {
  return PadElement(em, op, index, I64s(op, "edge_padding_low"), I64s(op, "interior_padding"));
}

}  // namespace

StatusOr<Expr> PadElement(ElementalEmitter& em, const Operation& op, const Index& index, std::vector<int64_t> low,
                          std::vector<int64_t> interior) {
  const std::vector<int64_t>& od = OperandDims(op, 0);
  if (low.size() != od.size()) return em.OpError(op, "has edge_padding_low of the wrong length");
  if (interior.empty()) interior.assign(od.size(), 0);
  std::vector<std::string> multi = em.Multi(index);
  std::vector<std::string> operand(od.size());
  std::vector<std::string> conditions;
  for (size_t d = 0; d < od.size(); ++d) {
    const int64_t step = interior[d] + 1;
    std::string j = low[d] == 0 ? multi[d] : em.Var("int", fmt::format("{} - {}", multi[d], IntLiteral(low[d])));
    if (step == 1) {
      operand[d] = j;
      conditions.push_back(fmt::format("{0} >= 0 && {0} < {1}", j, od[d]));
    } else {
      operand[d] = em.Var("int", fmt::format("{} / {}", j, step));
      conditions.push_back(fmt::format("{0} >= 0 && {0} % {1} == 0 && {2} < {3}", j, step, operand[d], od[d]));
    }
  }
  Branches result(em, ResultElementType(op));
  std::string all = conditions.empty() ? "true" : fmt::format("({})", fmt::join(conditions, ") && ("));
  em.Open(fmt::format("if ({})", all));
  VKHLO_ASSIGN_OR_RETURN(Expr inside, em.Operand(op, 0, Index::Multi(od, operand)));
  result.Assign(inside);
  em.Else();
  VKHLO_ASSIGN_OR_RETURN(Expr padding, em.Operand(op, 1, Index::Scalar()));
  result.Assign(padding);
  em.Close();
  return result.Value();
}

namespace {

StatusOr<Expr> EmitConcatenate(ElementalEmitter& em, const Operation& op, const Index& index) {
  const auto dimension = op.attribute("dimension") ? op.attribute("dimension")->AsInt() : std::nullopt;
  if (!dimension) return em.OpError(op, "has no dimension");
  const size_t d = static_cast<size_t>(*dimension);
  std::vector<std::string> multi = em.Multi(index);
  Branches result(em, ResultElementType(op));
  int64_t offset = 0;
  int opened = 0;
  for (size_t k = 0; k < op.num_operands(); ++k) {
    const std::vector<int64_t>& od = OperandDims(op, k);
    if (od[d] == 0) continue;
    const bool last = k + 1 == op.num_operands();
    if (!last) {
      if (opened > 0) em.Else();
      em.Open(fmt::format("if ({} < {})", multi[d], offset + od[d]));
      ++opened;
    } else if (opened > 0) {
      em.Else();
    }
    std::vector<std::string> operand = multi;
    if (offset != 0) operand[d] = em.Var("int", fmt::format("{} - {}", multi[d], offset));
    VKHLO_ASSIGN_OR_RETURN(Expr value, em.Operand(op, k, Index::Multi(od, operand)));
    result.Assign(value);
    offset += od[d];
  }
  // Each Open nests its "else"; close them all.
  for (int i = 0; i < opened; ++i) em.Close();
  return result.Value();
}

// The start index operand `i` clamped to [0, limit], as an int.
StatusOr<std::string> ClampedStart(ElementalEmitter& em, const Operation& op, size_t i, int64_t limit) {
  VKHLO_ASSIGN_OR_RETURN(Expr start, em.Operand(op, i, Index::Scalar()));
  return ClampedIndex(em, op, start, limit);
}

StatusOr<Expr> EmitDynamicSlice(ElementalEmitter& em, const Operation& op, const Index& index) {
  const std::vector<int64_t>& od = OperandDims(op, 0);
  std::vector<int64_t> sizes = I64s(op, "slice_sizes");
  if (sizes.size() != od.size() || op.num_operands() != od.size() + 1) {
    return em.OpError(op, "needs one slice size and one start index per operand dimension");
  }
  std::vector<std::string> multi = em.Multi(index);
  for (size_t d = 0; d < od.size(); ++d) {
    VKHLO_ASSIGN_OR_RETURN(std::string start, ClampedStart(em, op, d + 1, od[d] - sizes[d]));
    multi[d] = em.Var("int", fmt::format("{} + {}", multi[d], start));
  }
  return em.Operand(op, 0, Index::Multi(od, multi));
}

}  // namespace

void RegisterDataMovementEmitters(OpEmitterTable& t) {
  using ir::OpCode;
  t.Register(OpCode::kBroadcastInDim, EmitBroadcastInDim);
  t.Register(OpCode::kBroadcast, EmitBroadcast);
  t.Register(OpCode::kReshape, EmitReshape);
  t.Register(OpCode::kTranspose, EmitTranspose);
  t.Register(OpCode::kReverse, EmitReverse);
  t.Register(OpCode::kSlice, EmitSlice);
  t.Register(OpCode::kPad, EmitPad);
  t.Register(OpCode::kConcatenate, EmitConcatenate);
  t.Register(OpCode::kDynamicSlice, EmitDynamicSlice);
}

}  // namespace vkhlo::codegen
