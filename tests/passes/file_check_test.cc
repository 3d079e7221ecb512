// The FileCheck helper itself: each directive kind must be able to fail.
#include <gtest/gtest.h>

#include "tests/support/file_check.h"

namespace vkhlo::testing {
namespace {

std::string Check(std::string_view output, std::string_view directives) {
  return RunFileCheck(output, ParseCheckDirectives(directives));
}

TEST(FileCheck, CheckFindsInOrder) {
  EXPECT_EQ(Check("a\nb\nc\n", "// CHECK: a\n// CHECK: c\n"), "");
  EXPECT_NE(Check("a\nb\nc\n", "// CHECK: c\n// CHECK: a\n"), "");
  EXPECT_NE(Check("a\n", "// CHECK: z\n"), "");
}

TEST(FileCheck, NextAndSame) {
  EXPECT_EQ(Check("a x\nb\n", "// CHECK: a\n// CHECK-SAME: x\n// CHECK-NEXT: b\n"), "");
  EXPECT_NE(Check("a\nq\nb\n", "// CHECK: a\n// CHECK-NEXT: b\n"), "");
  EXPECT_NE(Check("a\nx\n", "// CHECK: a\n// CHECK-SAME: x\n"), "");
}

TEST(FileCheck, NotBetweenMatches) {
  EXPECT_EQ(Check("a\nb\nc\n", "// CHECK: a\n// CHECK-NOT: z\n// CHECK: c\n"), "");
  EXPECT_NE(Check("a\nb\nc\n", "// CHECK: a\n// CHECK-NOT: b\n// CHECK: c\n"), "");
  EXPECT_NE(Check("a\nb\n", "// CHECK: a\n// CHECK-NOT: b\n"), "");
}

TEST(FileCheck, SpacesCollapse) {
  EXPECT_EQ(Check("x  =   1\n", "// CHECK: x = 1\n"), "");
}

}  // namespace
}  // namespace vkhlo::testing
