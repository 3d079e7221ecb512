// A small FileCheck: checks text (a printed module) against `// CHECK...` lines of a test file.
//
//   // CHECK: text        the next occurrence of `text` at or after the current position
//   // CHECK-NEXT: text   `text` on the line right after the previous match
//   // CHECK-SAME: text   `text` later on the same line as the previous match
//   // CHECK-NOT: text    `text` absent between the previous match and the next one (or the end)
// Matching is by substring with runs of spaces collapsed on both sides.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vkhlo::testing {

struct CheckDirective {
  enum Kind { kCheck, kNext, kSame, kNot } kind;
  std::string pattern;
  int line;  // in the test file, for messages
};

// The CHECK directives of `text` (a test file or one of its `// -----` chunks).
std::vector<CheckDirective> ParseCheckDirectives(std::string_view text, int first_line = 1);

// Empty when `output` satisfies the directives; otherwise what failed and where.
std::string RunFileCheck(std::string_view output, const std::vector<CheckDirective>& checks);

}  // namespace vkhlo::testing
