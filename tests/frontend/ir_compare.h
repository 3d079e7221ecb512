// Structural equality of parsed IR for tests: same ops, attributes, types and regions, with
// values matched by position (so SSA names do not matter).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "ir/module.h"

namespace vkhlo::frontend::testing {

inline ::testing::AssertionResult SameRegion(const ir::Region& a, const ir::Region& b,
                                             std::map<const ir::Value*, const ir::Value*>& values);

inline ::testing::AssertionResult SameOp(const ir::Operation& a, const ir::Operation& b,
                                         std::map<const ir::Value*, const ir::Value*>& values) {
  if (a.code() != b.code()) {
    return ::testing::AssertionFailure() << "op " << a.name() << " vs " << b.name();
  }
  if (a.attributes() != b.attributes()) {
    auto print = [](const ir::Operation& op) {
      std::string s;
      for (const auto& [name, value] : op.attributes()) s += name + " = " + value.ToString() + "; ";
      return s;
    };
    return ::testing::AssertionFailure() << a.name() << " attributes differ:\n  " << print(a) << "\n  " << print(b);
  }
  if (a.num_operands() != b.num_operands()) {
    return ::testing::AssertionFailure() << a.name() << " operand counts differ";
  }
  for (size_t i = 0; i < a.num_operands(); ++i) {
    auto it = values.find(a.operand(i));
    if (it == values.end() || it->second != b.operand(i)) {
      return ::testing::AssertionFailure() << a.name() << " operand " << i << " differs";
    }
  }
  if (a.num_results() != b.num_results()) return ::testing::AssertionFailure() << a.name() << " result counts differ";
  for (size_t i = 0; i < a.num_results(); ++i) {
    if (a.result(i)->type() != b.result(i)->type()) {
      return ::testing::AssertionFailure() << a.name() << " result " << i << " type "
                                           << a.result(i)->type().ToString() << " vs "
                                           << b.result(i)->type().ToString();
    }
    values[a.result(i)] = b.result(i);
  }
  if (a.num_regions() != b.num_regions()) return ::testing::AssertionFailure() << a.name() << " region counts differ";
  for (size_t i = 0; i < a.num_regions(); ++i) {
    auto same = SameRegion(a.region(i), b.region(i), values);
    if (!same) return same << " (in region " << i << " of " << a.name() << ")";
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult SameRegion(const ir::Region& a, const ir::Region& b,
                                             std::map<const ir::Value*, const ir::Value*>& values) {
  if (a.blocks().size() != b.blocks().size()) return ::testing::AssertionFailure() << "block counts differ";
  for (size_t i = 0; i < a.blocks().size(); ++i) {
    const ir::Block& ba = *a.blocks()[i];
    const ir::Block& bb = *b.blocks()[i];
    if (ba.num_arguments() != bb.num_arguments()) return ::testing::AssertionFailure() << "block argument counts differ";
    for (size_t j = 0; j < ba.num_arguments(); ++j) {
      if (ba.argument(j)->type() != bb.argument(j)->type()) {
        return ::testing::AssertionFailure() << "block argument " << j << " type " << ba.argument(j)->type().ToString()
                                             << " vs " << bb.argument(j)->type().ToString();
      }
      values[ba.argument(j)] = bb.argument(j);
    }
    if (ba.operations().size() != bb.operations().size()) {
      return ::testing::AssertionFailure() << "op counts differ: " << ba.operations().size() << " vs "
                                           << bb.operations().size();
    }
    for (size_t j = 0; j < ba.operations().size(); ++j) {
      auto same = SameOp(*ba.operations()[j], *bb.operations()[j], values);
      if (!same) return same;
    }
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult SameModule(const ir::Module& a, const ir::Module& b) {
  if (a.name() != b.name() || a.attributes() != b.attributes()) {
    return ::testing::AssertionFailure() << "module name or attributes differ";
  }
  if (a.functions().size() != b.functions().size()) return ::testing::AssertionFailure() << "function counts differ";
  for (size_t i = 0; i < a.functions().size(); ++i) {
    const ir::Function& fa = *a.functions()[i];
    const ir::Function& fb = *b.functions()[i];
    if (fa.name() != fb.name() || !(fa.type() == fb.type()) || fa.visibility() != fb.visibility() ||
        fa.arg_attributes() != fb.arg_attributes() || fa.result_attributes() != fb.result_attributes() ||
        fa.attributes() != fb.attributes()) {
      return ::testing::AssertionFailure() << "function " << fa.name() << " signature differs";
    }
    std::map<const ir::Value*, const ir::Value*> values;
    auto same = SameRegion(fa.body(), fb.body(), values);
    if (!same) return same << " (in function " << fa.name() << ")";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace vkhlo::frontend::testing
