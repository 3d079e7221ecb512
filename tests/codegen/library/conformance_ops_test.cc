// Every dot_general, dot and convolution op of the conformance corpus (../shared/conformance:
// the spec's interpret tests and the JAX exports) through the library kernels vs the
// interpreter, with the op's constant operands where it has them and random data otherwise.
// An op the device cannot run (a masked feature under VKHLO_PROFILE=mobile, a format that needs
// the GLSL library) must be refused with a clear UNIMPLEMENTED error naming the op.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "frontend/parser.h"
#include "ir/walk.h"
#include "tests/codegen/library/library_test_util.h"
#include "tests/support/device_fixture.h"
#include "tests/support/test_files.h"

namespace vkhlo::testing {
namespace {

class ConformanceOpsTest : public DeviceTest {};

TEST_F(ConformanceOpsTest, EveryDotAndConvolution) {
  const codegen::TargetInfo target = TargetFromDevice(dev());
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(VKHLO_CONFORMANCE_DIR)) {
    if (entry.path().extension() != ".mlir") continue;
    const std::string name = entry.path().filename().string();
    if (name.find("dot") == std::string::npos && name.find("conv") == std::string::npos) continue;
    if (name.find("dynamic") != std::string::npos) continue;  // dynamic_conv is another op
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no conformance files under " << VKHLO_CONFORMANCE_DIR;
  std::mt19937_64 rng(5);
  int ran = 0, refused = 0;
  for (const auto& path : files) {
    const std::string text = ReadFile(path);
    for (const auto& chunk : frontend::SplitInputFile(text)) {
      auto module = frontend::ParseModule(chunk.text);
      if (!module.ok()) continue;  // the parser's own tests cover what it refuses
      std::vector<const ir::Operation*> ops;
      ir::WalkOps(**module, [&](ir::Operation& op) {
        if (op.code() == ir::OpCode::kDotGeneral || op.code() == ir::OpCode::kDot ||
            op.code() == ir::OpCode::kConvolution) {
          ops.push_back(&op);
        }
      });
      for (const ir::Operation* op : ops) {
        SCOPED_TRACE(fmt::format("{}:{}: {}", path.filename().string(), chunk.first_line + op->location().line - 1,
                                 op->name()));
        if (op->operand(0)->type().is_quantized() || op->operand(1)->type().is_quantized()) continue;
        std::vector<ir::Literal> operands;
        for (int i = 0; i < 2; ++i) {
          const ir::Operation* def = op->operand(i)->defining_op();
          const ir::Literal* constant = nullptr;
          if (def != nullptr && def->code() == ir::OpCode::kConstant && def->attribute("value")) {
            constant = def->attribute("value")->AsDenseElements();
          }
          operands.push_back(constant && constant->type() == op->operand(i)->type()
                                 ? *constant
                                 : RandomLiteral(op->operand(i)->type(), rng));
        }
        auto plan = op->code() == ir::OpCode::kConvolution ? codegen::library::PlanConvolution(*op, target)
                                                           : codegen::library::PlanDotGeneral(*op, target);
        if (!plan.ok()) {
          ++refused;
          // Expected only for masked features (mobile profile) and narrow formats whose codec
          // lives in the GLSL library when this build lacks it.
          const bool library = plan.status().message().find("GLSL library") != std::string::npos;
          if (target.profile == "native" && !library) ADD_FAILURE() << "refused natively: " << plan.status().ToString();
          std::printf("refused: %s\n", plan.status().ToString().c_str());
          EXPECT_EQ(plan.status().code(), StatusCode::kUnimplemented) << plan.status().ToString();
          EXPECT_NE(plan.status().message().find(std::string(op->name())), std::string::npos) << plan.status().ToString();
          continue;
        }
        auto expected = Reference(*op, operands);
        ASSERT_TRUE(expected.ok()) << expected.status().ToString();
        auto actual = RunPlan(dev(), TestCompiler(), target, *plan, operands);
        ASSERT_TRUE(actual.ok()) << actual.status().ToString() << "\n" << plan->summary;
        int64_t k = plan->problem.k;
        EXPECT_EQ(Compare(*expected, *actual, k, 64.0), "") << plan->summary;
        ++ran;
      }
    }
  }
  std::printf("%d ops ran on the device, %d refused with a clear error\n", ran, refused);
  EXPECT_GT(ran, target.profile == "native" ? 30 : 10);
  if (target.profile == "native" && codegen::library::HaveGlslLibrary()) {
    EXPECT_EQ(refused, 0);
  }
}

}  // namespace
}  // namespace vkhlo::testing
