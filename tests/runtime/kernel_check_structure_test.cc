// The runtime-only library's check of a loaded kernel's SPIR-V (runtime/kernel_check.h,
// kernel_check_structure.cc): linked against vkhlo_runtime_only alone, the definition an app
// without SPIRV-Tools gets.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/kernel_check.h"

namespace vkhlo::runtime {
namespace {

plan::Kernel KernelOf(std::vector<uint32_t> words) {
  plan::Kernel kernel;
  kernel.name = "fusion_0";
  kernel.spirv = std::move(words);
  return kernel;
}

// Header (SPIR-V 1.3, bound 8), OpCapability Shader, OpMemoryModel Logical GLSL450.
std::vector<uint32_t> Wellformed() { return {0x07230203u, 0x00010300u, 0, 8, 0, (2u << 16) | 17, 1, (3u << 16) | 14, 0, 1}; }

std::string Problem(std::vector<uint32_t> words) {
  const Status status = CheckLoadedKernel(KernelOf(std::move(words)), 1);
  if (status.ok()) return "";
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("plan kernel 'fusion_0'"), std::string::npos) << status.message();
  return status.message();
}

TEST(KernelCheckStructure, WellformedStreamsPass) { EXPECT_EQ(Problem(Wellformed()), ""); }

TEST(KernelCheckStructure, BrokenHeadersAndStreamsAreRefused) {
  EXPECT_NE(Problem({}).find("no SPIR-V header"), std::string::npos);
  std::vector<uint32_t> w = Wellformed();
  w[0] = 0x03022307u;  // the magic number byte-swapped
  EXPECT_NE(Problem(w).find("no SPIR-V header"), std::string::npos);
  w = Wellformed();
  w[1] = 0x00020000u;
  EXPECT_NE(Problem(w).find("SPIR-V version 2.0"), std::string::npos);
  w = Wellformed();
  w[3] = 0;
  EXPECT_NE(Problem(w).find("bound of zero"), std::string::npos);
  w = Wellformed();
  w.pop_back();  // OpMemoryModel cut short
  EXPECT_NE(Problem(w).find("the instruction at word 7 claims 3 words, 2 remain"), std::string::npos) << Problem(w);
  w = Wellformed();
  w[5] = 17;  // a word count of zero
  EXPECT_NE(Problem(w).find("claims 0 words"), std::string::npos) << Problem(w);
}

}  // namespace
}  // namespace vkhlo::runtime
