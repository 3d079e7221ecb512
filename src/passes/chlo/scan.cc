// chlo.scan: a stablehlo.while over the positions of the scanned dimension. The loop carries
// the position, the scan's carries and one accumulator per output; each iteration slices every
// input at the position (dynamic_slice, then reshape away the scanned dimension), runs a copy
// of the scan body, and writes the output slices back with dynamic_update_slice. `is_reverse`
// walks the positions from the end. The loop body reads the inputs from the enclosing scope.
#include <fmt/format.h>

#include "ir/walk.h"
#include "passes/chlo/rewrites.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

Values Scan(OpBuilder& b, const Operation& op) {
  const ir::Attribute* segments_attr = op.attribute("operandSegmentSizes");
  auto segments = segments_attr != nullptr ? segments_attr->AsI64Vector() : std::nullopt;
  if (!segments || segments->size() != 2) return RewriteError(op, "needs operandSegmentSizes (inputs, inits)");
  const size_t num_inputs = static_cast<size_t>((*segments)[0]);
  const size_t num_carries = static_cast<size_t>((*segments)[1]);
  if (num_inputs < 1 || num_inputs + num_carries != op.num_operands() || op.num_results() < num_carries) {
    return RewriteError(op, "operandSegmentSizes do not match the operands and results");
  }
  const size_t num_outputs = op.num_results() - num_carries;
  const ir::Attribute* dimension_attr = op.attribute("dimension");
  auto dimension = dimension_attr != nullptr ? dimension_attr->AsInt() : std::nullopt;
  if (!dimension) return RewriteError(op, "has no integer `dimension`");
  const ir::Attribute* reverse_attr = op.attribute("is_reverse");
  const bool reverse = reverse_attr != nullptr && reverse_attr->AsBool().value_or(false);
  if (op.num_regions() != 1 || op.region(0).empty()) return RewriteError(op, "needs a body region");
  const ir::Block& scan_body = op.region(0).front();
  const ir::Operation* scan_return = scan_body.back();
  if (scan_return == nullptr || scan_return->code() != OpCode::kReturn ||
      scan_return->num_operands() != op.num_results() || scan_body.num_arguments() != op.num_operands()) {
    return RewriteError(op, "its body must take a slice of every input and every carry and return every output and carry");
  }
  const int64_t d = *dimension;
  const int64_t length = op.operand(0)->type().dim(d);

  // Loop state: position, carries, output accumulators.
  const ir::Type position_type = ir::Type::Scalar(ElementType::kS64);
  std::vector<Value*> init = {b.Splat(position_type, 0)};
  std::vector<ir::Type> state_types = {position_type};
  for (size_t k = 0; k < num_carries; ++k) {
    init.push_back(op.operand(num_inputs + k));
    state_types.push_back(op.operand(num_inputs + k)->type());
  }
  for (size_t j = 0; j < num_outputs; ++j) {
    init.push_back(b.Splat(op.result(j)->type(), 0));
    state_types.push_back(op.result(j)->type());
  }
  ir::Operation* loop = b.CreateWithTypes(OpCode::kWhile, init, state_types, {}, /*num_regions=*/2);
  if (!b.ok()) return b.status();

  // cond: position < length.
  ir::Block* cond = b.AddBlock(loop, 0, state_types);
  OpBuilder c = OpBuilder::AtEnd(*cond, op.location());
  c.Return({c.Compare("LT", cond->argument(0), c.Splat(position_type, static_cast<double>(length)))});
  if (!c.ok()) return c.status();

  // body.
  ir::Block* body = b.AddBlock(loop, 1, state_types);
  OpBuilder w = OpBuilder::AtEnd(*body, op.location());
  Math m(w);
  Value* position = body->argument(0);
  Value* index = reverse ? m.Sub(static_cast<double>(length - 1), position) : position;
  Value* zero = w.Splat(position_type, 0);
  auto starts = [&](int64_t rank) {
    std::vector<Value*> s(static_cast<size_t>(rank), zero);
    s[static_cast<size_t>(d)] = index;
    return s;
  };
  ir::ValueMap mapping;
  for (size_t i = 0; i < num_inputs; ++i) {
    Value* input = op.operand(i);
    std::vector<int64_t> sizes = input->type().dims();
    sizes[static_cast<size_t>(d)] = 1;
    Value* slice = w.DynamicSlice(input, starts(input->type().rank()), sizes);
    mapping[scan_body.argument(i)] = w.Reshape(slice, scan_body.argument(i)->type());
  }
  for (size_t k = 0; k < num_carries; ++k) mapping[scan_body.argument(num_inputs + k)] = body->argument(1 + k);
  for (const auto& inner : scan_body.operations()) {
    if (inner.get() == scan_return) break;
    w.Insert(ir::CloneOp(*inner, mapping));
  }
  auto mapped = [&](Value* v) {
    auto it = mapping.find(v);
    return it == mapping.end() ? v : it->second;
  };
  std::vector<Value*> next = {m.Add(position, 1.0)};
  for (size_t k = 0; k < num_carries; ++k) next.push_back(mapped(scan_return->operand(num_outputs + k)));
  for (size_t j = 0; j < num_outputs; ++j) {
    Value* accumulator = body->argument(1 + num_carries + j);
    std::vector<int64_t> dims = accumulator->type().dims();
    dims[static_cast<size_t>(d)] = 1;
    Value* update = w.Reshape(mapped(scan_return->operand(j)), accumulator->type().WithDims(dims));
    next.push_back(w.DynamicUpdateSlice(accumulator, update, starts(accumulator->type().rank())));
  }
  w.Return(next);
  if (!w.ok()) return w.status();

  std::vector<Value*> results;
  for (size_t j = 0; j < num_outputs; ++j) results.push_back(loop->result(1 + num_carries + j));
  for (size_t k = 0; k < num_carries; ++k) results.push_back(loop->result(1 + k));
  return results;
}

}  // namespace

void AddScanRewrites(RewriteTable& t) { t[OpCode::kChloScan] = Scan; }

}  // namespace vkhlo::passes::chlo
