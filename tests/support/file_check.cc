#include "tests/support/file_check.h"

#include <optional>

namespace vkhlo::testing {
namespace {

std::string CollapseSpaces(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out.push_back(c);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<CheckDirective> ParseCheckDirectives(std::string_view text, int first_line) {
  static constexpr std::pair<std::string_view, CheckDirective::Kind> kPrefixes[] = {
      {"// CHECK-NEXT:", CheckDirective::kNext},
      {"// CHECK-SAME:", CheckDirective::kSame},
      {"// CHECK-NOT:", CheckDirective::kNot},
      {"// CHECK:", CheckDirective::kCheck}};
  std::vector<CheckDirective> out;
  int line_number = first_line;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line = Trim(text.substr(start, end == std::string_view::npos ? text.npos : end - start));
    for (const auto& [prefix, kind] : kPrefixes) {
      if (line.starts_with(prefix)) {
        out.push_back({kind, CollapseSpaces(Trim(line.substr(prefix.size()))), line_number});
        break;
      }
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
    ++line_number;
  }
  return out;
}

std::string RunFileCheck(std::string_view raw_output, const std::vector<CheckDirective>& checks) {
  const std::string output = CollapseSpaces(raw_output);
  size_t position = 0;          // where the next search starts
  size_t last_match_line = 0;   // offset of the start of the line of the last match
  std::vector<const CheckDirective*> pending_nots;
  auto line_start = [&](size_t offset) {
    size_t nl = output.rfind('\n', offset == 0 ? 0 : offset - 1);
    return nl == std::string::npos || offset == 0 ? 0 : nl + 1;
  };
  auto fail = [&](const CheckDirective& d, std::string_view what) {
    return "line " + std::to_string(d.line) + ": " + std::string(what) + " '" + d.pattern +
           "'\n--- output ---\n" + std::string(raw_output);
  };
  auto check_nots = [&](size_t until) -> std::optional<std::string> {
    for (const CheckDirective* d : pending_nots) {
      size_t found = output.find(d->pattern, position);
      if (found != std::string::npos && found < until) return fail(*d, "CHECK-NOT found");
    }
    pending_nots.clear();
    return std::nullopt;
  };
  for (const CheckDirective& d : checks) {
    if (d.kind == CheckDirective::kNot) {
      pending_nots.push_back(&d);
      continue;
    }
    size_t found = output.find(d.pattern, position);
    if (found == std::string::npos) return fail(d, "no match for");
    if (auto error = check_nots(found)) return *error;
    size_t found_line = line_start(found);
    if (d.kind == CheckDirective::kNext) {
      size_t next_line = output.find('\n', last_match_line);
      if (next_line == std::string::npos || found_line != next_line + 1) {
        return fail(d, "CHECK-NEXT not on the next line:");
      }
    } else if (d.kind == CheckDirective::kSame && found_line != last_match_line) {
      return fail(d, "CHECK-SAME not on the same line:");
    }
    last_match_line = found_line;
    position = found + d.pattern.size();
  }
  if (auto error = check_nots(std::string::npos)) return *error;
  return "";
}

}  // namespace vkhlo::testing
