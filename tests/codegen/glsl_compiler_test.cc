// The in-process GLSL compiler: valid SPIR-V out, errors with the GLSL attached, the caches.
#include "codegen/glsl_compiler.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

namespace vkhlo::codegen {
namespace {

namespace fs = std::filesystem;

constexpr const char* kAddOne = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint words[]; } data;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < uint(data.words.length())) data.words[i] = floatBitsToUint(uintBitsToFloat(data.words[i]) + 1.0);
}
)";

// A fresh directory for one test's disk cache.
class CacheDir {
 public:
  explicit CacheDir(const std::string& name)
      : path_(fs::temp_directory_path() / ("vkhlo_" + name + "_" + std::to_string(getpid()))) {
    fs::remove_all(path_);
  }
  ~CacheDir() { fs::remove_all(path_); }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

TEST(GlslCompiler, CompilesToValidSpirv) {
  GlslCompiler compiler("");
  auto spirv = compiler.Compile(kAddOne);
  ASSERT_TRUE(spirv.ok()) << spirv.status().ToString();
  ASSERT_GT((*spirv)->size(), 5u);
  EXPECT_EQ((**spirv)[0], 0x07230203u);
  EXPECT_TRUE(ValidateSpirv(**spirv).ok());
  EXPECT_NE(DisassembleSpirv(**spirv).find("OpEntryPoint GLCompute"), std::string::npos);
}

TEST(GlslCompiler, Vulkan10TargetsSpirv10) {
  GlslCompiler compiler("");
  auto spirv = compiler.Compile(kAddOne, {.name = "k", .vulkan_api_minor = 0});
  ASSERT_TRUE(spirv.ok()) << spirv.status().ToString();
  EXPECT_EQ((**spirv)[1], 0x00010000u);  // SPIR-V 1.0
  auto spirv13 = compiler.Compile(kAddOne);
  ASSERT_TRUE(spirv13.ok());
  EXPECT_EQ((**spirv13)[1], 0x00010300u);
}

TEST(GlslCompiler, ErrorsCarryTheNumberedSource) {
  GlslCompiler compiler("");
  auto spirv = compiler.Compile("#version 450\nlayout(local_size_x = 1) in;\nvoid main() { undefined_thing(); }\n",
                                {.name = "broken"});
  ASSERT_FALSE(spirv.ok());
  EXPECT_EQ(spirv.status().code(), StatusCode::kInternal);
  EXPECT_NE(spirv.status().message().find("kernel 'broken'"), std::string::npos);
  EXPECT_NE(spirv.status().message().find("undefined_thing"), std::string::npos);
  EXPECT_NE(spirv.status().message().find("   3  void main()"), std::string::npos);
}

TEST(GlslCompiler, UnknownIncludeIsAnError) {
  GlslCompiler compiler("");
  auto spirv = compiler.Compile(
      "#version 450\n#extension GL_GOOGLE_include_directive : require\n#include \"no_such_file.glsl\"\n"
      "layout(local_size_x = 1) in;\nvoid main() {}\n");
  ASSERT_FALSE(spirv.ok());
  EXPECT_NE(spirv.status().message().find("no_such_file.glsl"), std::string::npos);
}

TEST(GlslCompiler, ValidatorRejectsGarbage) {
  std::vector<uint32_t> words = {0x07230203u, 0x00010300u, 0, 1, 0, 12345};
  Status status = ValidateSpirv(words);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("spirv-val"), std::string::npos);
}

TEST(GlslCompiler, MemoryCacheReturnsTheSameModule) {
  GlslCompiler compiler("");
  auto a = compiler.Compile(kAddOne);
  auto b = compiler.Compile(kAddOne);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ(compiler.stats().compiles, 1u);
  EXPECT_EQ(compiler.stats().memory_hits, 1u);
  // Other options are another key.
  auto c = compiler.Compile(kAddOne, {.name = "k", .vulkan_api_minor = 1, .optimize = false});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(compiler.stats().compiles, 2u);
}

// The memory cache keeps at most its byte limit, least recently used out first; an evicted
// module is compiled again (no disk cache here).
// CompileAll: on several threads, the same modules as one at a time, in the jobs' order; a
// source given twice compiled once; an error stays with its own job.
TEST(GlslCompiler, CompileAllMatchesSerialCompiles) {
  std::vector<std::string> sources;
  for (int k = 0; k < 8; ++k) {
    std::string s = kAddOne;
    s.replace(s.find("+ 1.0"), 5, "+ " + std::to_string(k) + ".5");
    sources.push_back(s);
  }
  sources.push_back(sources[3]);
  sources.push_back("#version 450\nvoid main() { undeclared = 1; }\n");
  std::vector<GlslCompiler::Job> jobs;
  for (const std::string& s : sources) jobs.push_back({s, {}});
  GlslCompiler serial(""), parallel("");
  std::vector<GlslCompiler::JobTiming> timings;
  auto all = parallel.CompileAll(jobs, 4, &timings);
  ASSERT_EQ(all.size(), sources.size());
  ASSERT_EQ(timings.size(), sources.size());
  for (size_t i = 0; i + 1 < sources.size(); ++i) {
    auto one = serial.Compile(sources[i]);
    ASSERT_TRUE(one.ok() && all[i].ok()) << i;
    EXPECT_EQ(**one, **all[i]) << i;
  }
  EXPECT_FALSE(all.back().ok());
  EXPECT_FALSE(timings[8].compiled);  // the repeated source
  EXPECT_EQ(parallel.stats().compiles, 8u);  // 8 distinct modules (a failed parse is not counted)
  auto again = parallel.CompileAll(std::span(jobs).first(8), 4);
  EXPECT_EQ(parallel.stats().compiles, 8u);  // all from the memory cache now
  EXPECT_EQ(*again[5], *all[5]);
}

TEST(GlslCompiler, MemoryCacheIsBoundedByBytes) {
  auto kernel = [](int i) { return std::string(kAddOne) + "// variant " + std::to_string(i) + "\n"; };
  auto one = GlslCompiler("").Compile(kernel(0));
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  const uint64_t module_bytes = (*one)->size() * 4;
  GlslCompiler compiler("", 2 * module_bytes + 200);  // room for two modules and their keys
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(compiler.Compile(kernel(i)).ok());
  GlslCompilerStats stats = compiler.stats();
  EXPECT_EQ(stats.memory_entries, 2u);
  EXPECT_EQ(stats.memory_evictions, 1u);
  EXPECT_LE(stats.memory_bytes, 2 * module_bytes + 200);
  ASSERT_TRUE(compiler.Compile(kernel(2)).ok());  // the most recent: still in memory
  EXPECT_EQ(compiler.stats().compiles, 3u);
  ASSERT_TRUE(compiler.Compile(kernel(0)).ok());  // the oldest: compiled again
  EXPECT_EQ(compiler.stats().compiles, 4u);
}

TEST(GlslCompiler, DiskCacheSurvivesAndIgnoresDamage) {
  CacheDir dir("spirv_cache");
  std::vector<uint32_t> first;
  {
    GlslCompiler compiler(dir.str());
    auto spirv = compiler.Compile(kAddOne);
    ASSERT_TRUE(spirv.ok());
    first = **spirv;
    EXPECT_EQ(compiler.stats().disk_writes, 1u);
  }
  {
    GlslCompiler compiler(dir.str());
    auto spirv = compiler.Compile(kAddOne);
    ASSERT_TRUE(spirv.ok());
    EXPECT_EQ(**spirv, first);
    EXPECT_EQ(compiler.stats().compiles, 0u);
    EXPECT_EQ(compiler.stats().disk_hits, 1u);
  }
  // Damage every cache file: flip a byte in the middle and truncate another copy.
  for (const auto& entry : fs::directory_iterator(fs::path(dir.str()) / "spirv")) {
    std::fstream f(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(80);
    f.put('\x5a');
  }
  {
    GlslCompiler compiler(dir.str());
    auto spirv = compiler.Compile(kAddOne);
    ASSERT_TRUE(spirv.ok());
    EXPECT_EQ(**spirv, first);
    EXPECT_EQ(compiler.stats().damaged_files, 1u);
    EXPECT_EQ(compiler.stats().compiles, 1u);
  }
  for (const auto& entry : fs::directory_iterator(fs::path(dir.str()) / "spirv")) {
    fs::resize_file(entry.path(), 30);
  }
  GlslCompiler compiler(dir.str());
  auto spirv = compiler.Compile(kAddOne);
  ASSERT_TRUE(spirv.ok());
  EXPECT_EQ(compiler.stats().damaged_files, 1u);
  EXPECT_EQ(**spirv, first);
}

}  // namespace
}  // namespace vkhlo::codegen
