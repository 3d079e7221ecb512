// Every op of the op table that is not chlo has an evaluation function (chlo ops are decomposed
// into StableHLO before execution; the terminators are handled by block evaluation).
#include <gtest/gtest.h>

#include "interp/op_registry.h"

namespace vkhlo::interp {
namespace {

TEST(OpRegistryTest, EveryStableHloOpCanBeEvaluated) {
  const OpRegistry& registry = GetOpRegistry();
  for (int i = 0; i < ir::NumOpCodes(); ++i) {
    const ir::OpInfo& info = ir::GetOpInfo(static_cast<ir::OpCode>(i));
    if (info.kind == ir::OpKind::kChlo) continue;
    if (info.code == ir::OpCode::kReturn || info.code == ir::OpCode::kFuncReturn) continue;
    EXPECT_NE(registry.Find(info.code), nullptr) << info.name << " has no evaluation function";
  }
}

}  // namespace
}  // namespace vkhlo::interp
