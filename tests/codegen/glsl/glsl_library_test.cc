// The embedded GLSL library: every file is there by name, includes resolve inside the library,
// every file has its include guard (or is a precision bracket or a source written once for both
// precisions, which refuses to be included the wrong way), such a source has its f32 and f64
// instances, and the f32 files never need Float64 or Int64.
#include "codegen/glsl/glsl_library.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace vkhlo::codegen {
namespace {

TEST(GlslLibraryTest, FilesAreFoundByName) {
  auto names = GlslLibraryFileNames();
  ASSERT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (std::string_view required :
       {"hlo_float_codec.glsl", "hlo_float_codec_f64.glsl", "hlo_math_f32.glsl", "hlo_math_f64.glsl",
        "hlo_complex_f32.glsl", "hlo_complex_f64.glsl"}) {
    EXPECT_TRUE(std::find(names.begin(), names.end(), required) != names.end()) << required;
    EXPECT_TRUE(FindGlslLibraryFile(required).has_value()) << required;
  }
  EXPECT_FALSE(FindGlslLibraryFile("no_such_file.glsl").has_value());
  EXPECT_FALSE(FindGlslLibraryFile("").has_value());
}

// A source written once for both precisions (hlo_complex.glsl) has no include guard: its f32 and
// f64 instances include it once each, between hlo_precision_f32/f64.glsl and
// hlo_precision_end.glsl, and it stops a kernel that includes it directly.
constexpr std::string_view kNeedsPrecision = "#ifndef HLO_PRECISION\n#error ";

bool IsPrecisionBracket(std::string_view name) { return name.starts_with("hlo_precision_"); }

std::string Uppercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
  return out;
}

TEST(GlslLibraryTest, IncludesResolveAndGuardsArePresent) {
  const std::regex include_line(R"re(#include\s+"([^"]+)")re");
  for (std::string_view name : GlslLibraryFileNames()) {
    const std::string text(*FindGlslLibraryFile(name));
    if (IsPrecisionBracket(name)) {
      // Opening a precision twice, or closing none, is an error rather than a silent mix.
      EXPECT_NE(text.find(name == "hlo_precision_end.glsl" ? "#ifndef HLO_PRECISION\n#error "
                                                            : "#ifdef HLO_PRECISION\n#error "),
                std::string::npos)
          << name;
    } else if (text.find(kNeedsPrecision) == std::string::npos) {
      const std::string guard = Uppercase(name.substr(0, name.find('.')));
      EXPECT_NE(text.find("#ifndef " + guard + "_GLSL"), std::string::npos) << name;
    }
    for (std::sregex_iterator it(text.begin(), text.end(), include_line), end; it != end; ++it) {
      const std::string included = (*it)[1];
      EXPECT_TRUE(FindGlslLibraryFile(included).has_value()) << name << " includes " << included;
      // A device without shaderFloat64 must be able to include every non-f64 file.
      if (name.find("_f64") == std::string_view::npos) {
        EXPECT_EQ(included.find("_f64"), std::string::npos) << name << " includes " << included;
      }
    }
  }
}

TEST(GlslLibraryTest, PrecisionGenericSourcesHaveBothInstances) {
  int generic_sources = 0;
  for (std::string_view name : GlslLibraryFileNames()) {
    if (IsPrecisionBracket(name) || FindGlslLibraryFile(name)->find(kNeedsPrecision) == std::string_view::npos) {
      continue;
    }
    ++generic_sources;
    for (std::string_view precision : {"f32", "f64"}) {
      const std::string bracketed = "#include \"hlo_precision_" + std::string(precision) + ".glsl\"\n#include \"" +
                                    std::string(name) + "\"\n#include \"hlo_precision_end.glsl\"\n";
      // The instance: one library file, named _f64 for f64 (hlo_complex_f64.glsl) and not for f32
      // (hlo_complex_f32.glsl, hlo_float_codec.glsl), so the Float64 rule above holds.
      std::vector<std::string_view> instances;
      for (std::string_view other : GlslLibraryFileNames()) {
        if (FindGlslLibraryFile(other)->find(bracketed) != std::string_view::npos) instances.push_back(other);
      }
      ASSERT_EQ(instances.size(), 1u) << name << " wants one " << precision << " instance";
      EXPECT_EQ(instances[0].find("_f64") != std::string_view::npos, precision == "f64") << instances[0];
    }
  }
  EXPECT_GE(generic_sources, 3);  // hlo_complex.glsl, hlo_double_word.glsl, hlo_float_codec_encoders.glsl
}

// GLSL cannot paste the LF suffix onto a literal, so the f64 instance reads HLO_LIT(x) as
// double(x): the value of xLF only where x is exact in f32 (else double(x) is x rounded to f32).
TEST(GlslLibraryTest, PrecisionGenericLiteralsAreExactInF32) {
  const std::regex number(R"re((?:^|[^\w.])(\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.]))re");
  int literals = 0;
  for (std::string_view name : GlslLibraryFileNames()) {
    if (IsPrecisionBracket(name)) continue;
    const std::string text(*FindGlslLibraryFile(name));
    const std::string code = std::regex_replace(text, std::regex(R"(//[^\n]*)"), "");
    for (size_t at = code.find("HLO_LIT("); at != std::string::npos; at = code.find("HLO_LIT(", at + 1)) {
      // The argument runs to the parenthesis that closes HLO_LIT(.
      size_t end = at + 8;
      for (int depth = 1; end < code.size() && depth > 0; ++end) depth += code[end] == '(' ? 1 : code[end] == ')' ? -1 : 0;
      const std::string argument = code.substr(at + 8, end - 1 - (at + 8));
      for (std::sregex_iterator it(argument.begin(), argument.end(), number), last; it != last; ++it) {
        const std::string digits = (*it)[1];
        const double value = std::strtod(digits.c_str(), nullptr);
        EXPECT_EQ(static_cast<double>(static_cast<float>(value)), value) << name << ": HLO_LIT(" << argument << ")";
        ++literals;
      }
    }
  }
  EXPECT_GT(literals, 0);
}

TEST(GlslLibraryTest, F32FilesUseOnly32BitTypes) {
  const std::regex wide(R"re(\b(double|dvec[234]|dmat\w*|int64_t|uint64_t|i64vec\d|u64vec\d|float16_t)\b)re");
  for (std::string_view name : GlslLibraryFileNames()) {
    if (name.find("_f64") != std::string_view::npos) continue;
    const std::string text(*FindGlslLibraryFile(name));
    // Comments may mention doubles; code may not.
    const std::string code = std::regex_replace(text, std::regex(R"(//[^\n]*)"), "");
    std::smatch match;
    EXPECT_FALSE(std::regex_search(code, match, wide)) << name << " uses " << match.str();
  }
}

}  // namespace
}  // namespace vkhlo::codegen
