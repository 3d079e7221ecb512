// The embedded GLSL library: every file is there by name, includes resolve inside the library,
// every file has its include guard, and the f32 files never need Float64 or Int64.
#include "codegen/glsl/glsl_library.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>

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

TEST(GlslLibraryTest, IncludesResolveAndGuardsArePresent) {
  const std::regex include_line(R"re(#include\s+"([^"]+)")re");
  for (std::string_view name : GlslLibraryFileNames()) {
    const std::string text(*FindGlslLibraryFile(name));
    std::string guard(name.substr(0, name.find('.')));
    std::transform(guard.begin(), guard.end(), guard.begin(), [](unsigned char c) { return std::toupper(c); });
    EXPECT_NE(text.find("#ifndef " + guard + "_GLSL"), std::string::npos) << name;
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
