// chlo.broadcast_*: implicitly broadcasting binary ops (and select). Each operand whose shape
// differs from the result's is made explicit with broadcast_in_dim (numpy rules: aligned at the
// right, or through `broadcast_dimensions` for the lower-rank operand), then the StableHLO op
// runs on equal shapes.
#include "passes/chlo/rewrites.h"
#include "verify/verifier.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

OpCode Target(OpCode code) {
  switch (code) {
    case OpCode::kChloBroadcastAdd: return OpCode::kAdd;
    case OpCode::kChloBroadcastSubtract: return OpCode::kSubtract;
    case OpCode::kChloBroadcastMultiply: return OpCode::kMultiply;
    case OpCode::kChloBroadcastDivide: return OpCode::kDivide;
    case OpCode::kChloBroadcastMaximum: return OpCode::kMaximum;
    case OpCode::kChloBroadcastMinimum: return OpCode::kMinimum;
    case OpCode::kChloBroadcastCompare: return OpCode::kCompare;
    case OpCode::kChloBroadcastAnd: return OpCode::kAnd;
    case OpCode::kChloBroadcastOr: return OpCode::kOr;
    case OpCode::kChloBroadcastXor: return OpCode::kXor;
    case OpCode::kChloBroadcastPower: return OpCode::kPower;
    case OpCode::kChloBroadcastRemainder: return OpCode::kRemainder;
    case OpCode::kChloBroadcastAtan2: return OpCode::kAtan2;
    default: return OpCode::kSelect;
  }
}

Values Broadcasting(OpBuilder& b, const Operation& op) {
  const ir::Type& result = op.result(0)->type();
  const std::vector<int64_t>& dims = result.dims();
  const int64_t rank = result.rank();
  std::optional<std::vector<int64_t>> given;
  if (const ir::Attribute* a = op.attribute("broadcast_dimensions")) given = a->AsI64Vector();
  std::vector<Value*> operands;
  for (Value* x : op.operands()) {
    const ir::Type& type = x->type();
    if (type.dims() == dims) {
      operands.push_back(x);
      continue;
    }
    std::vector<int64_t> map;
    if (given && type.rank() < rank && static_cast<int64_t>(given->size()) == type.rank()) {
      map = *given;
    } else {
      for (int64_t i = 0; i < type.rank(); ++i) map.push_back(rank - type.rank() + i);
    }
    operands.push_back(b.BroadcastInDim(x, type.WithDims(dims), map));
  }
  const OpCode target = Target(op.code());
  if (target == OpCode::kCompare) {
    const ir::Attribute* direction = op.attribute("comparison_direction");
    auto dir = direction != nullptr ? direction->AsEnum("comparison_direction") : std::nullopt;
    if (!dir) return RewriteError(op, "has no `comparison_direction`");
    std::string compare_type;
    if (const ir::Attribute* t = op.attribute("compare_type")) {
      compare_type = t->AsEnum("comparison_type").value_or("");
      if (compare_type == "NOTYPE") compare_type.clear();
    }
    return std::vector<Value*>{b.Compare(*dir, operands[0], operands[1], compare_type)};
  }
  // The chlo op's own result type (which may be a compatible quantized type), verified.
  ir::Operation* out = b.CreateWithTypes(target, operands, {op.result(0)->type()});
  if (Status verified = verify::VerifyOperation(*out); !verified.ok()) b.Fail(verified);
  return std::vector<Value*>{out->result(0)};
}

}  // namespace

void AddBroadcastRewrites(RewriteTable& t) {
  for (OpCode code : {OpCode::kChloBroadcastAdd, OpCode::kChloBroadcastSubtract, OpCode::kChloBroadcastMultiply,
                      OpCode::kChloBroadcastDivide, OpCode::kChloBroadcastMaximum, OpCode::kChloBroadcastMinimum,
                      OpCode::kChloBroadcastCompare, OpCode::kChloBroadcastAnd, OpCode::kChloBroadcastOr,
                      OpCode::kChloBroadcastXor, OpCode::kChloBroadcastPower, OpCode::kChloBroadcastRemainder,
                      OpCode::kChloBroadcastAtan2, OpCode::kChloBroadcastSelect}) {
    t[code] = Broadcasting;
  }
}

}  // namespace vkhlo::passes::chlo
