// Every program of ../shared/conformance, serialized as a StableHLO portable artifact by JAX's
// own tooling at eight target versions (0.9.0, 0.10.0, 0.12.0, 0.14.0 — MLIR bytecode versions
// 0, 1, 3, 4 — then 1.0.0, JAX's WEEK_12 and WEEK_4 windows and its newest, all bytecode version
// 6; tools/bytecode/conformance_artifacts.py, run by the bytecode.make_conformance_artifacts
// fixture), read back by vkhlo's bytecode reader:
//   - the IR equals what vkhlo's text parser builds from the program JAX reads back out of the
//     artifact (printed forms compared, after giving both the same splat spelling of constants:
//     MLIR keeps all-equal tensors as splats, the text parser keeps what the text spells);
//   - the IR equals what the text parser builds from the original conformance program, but for
//     what only the text can spell (attributes written with their default value, which MLIR
//     drops too; the spelling of attributes kept as text);
//   - vkhlo-run --check passes on the artifact exactly as on the text: on the reference
//     interpreter at every version, on the Vulkan device at WEEK_4 (what jax.export writes),
//     with the text's expectation lists.
// Without the pinned jax/jaxlib environment (tools/install-deps.sh) the tests skip and say so.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "frontend/bytecode/program.h"
#include "ir/printer.h"
#include "ir/walk.h"
#include "tests/conformance/conformance_chunks.h"
#include "tests/support/test_files.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

struct Artifact {
  std::string version, key, status, artifact, deserialized, detail;
};

const std::vector<Artifact>& Manifest() {
  static const auto* entries = [] {
    auto* list = new std::vector<Artifact>();
    std::ifstream in(fs::path(VKHLO_BYTECODE_ARTIFACTS_DIR) / "manifest.tsv");
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> fields;
      std::istringstream split(line);
      for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
      fields.resize(6);
      list->push_back(Artifact{fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]});
    }
    return list;
  }();
  return *entries;
}

// The target versions, in the manifest's order (oldest first).
std::vector<std::string> Versions() {
  std::vector<std::string> versions;
  for (const Artifact& a : Manifest()) {
    if (std::find(versions.begin(), versions.end(), a.version) == versions.end()) versions.push_back(a.version);
  }
  return versions;
}

// The serialized programs of version `index`, or a reason to skip.
std::vector<const Artifact*> ArtifactsOf(size_t index, std::string* skip) {
  const std::vector<std::string> versions = Versions();
  if (versions.empty()) {
    *skip = fmt::format("no artifacts in {}: the bytecode.make_conformance_artifacts fixture needs the pinned "
                        "jax/jaxlib environment that tools/install-deps.sh makes", VKHLO_BYTECODE_ARTIFACTS_DIR);
    return {};
  }
  if (index >= versions.size()) {
    *skip = fmt::format("only {} target versions were serialized", versions.size());
    return {};
  }
  std::vector<const Artifact*> artifacts;
  for (const Artifact& a : Manifest()) {
    if (a.version == versions[index] && a.status == "ok") artifacts.push_back(&a);
  }
  return artifacts;
}

StatusOr<std::unique_ptr<ir::Module>> ReadArtifact(const Artifact& a) {
  frontend::ParseOptions options;
  options.source_name = a.key;
  return frontend::ParseProgram(testing::ReadFile(a.artifact), options);
}

// The program's original text (the chunk of its file), parsed.
StatusOr<std::unique_ptr<ir::Module>> ParseOriginal(const std::string& key) {
  const size_t colon = key.rfind(':');
  const bool chunked = colon != std::string::npos;
  const std::string relative = chunked ? key.substr(0, colon) : key;
  const std::string text = testing::ReadFile(fs::path(VKHLO_CONFORMANCE_DIR) / relative);
  for (const frontend::SourceChunk& chunk : chunked ? frontend::SplitInputFile(text)
                                                    : std::vector<frontend::SourceChunk>{{text, 1}}) {
    if (!chunked || std::to_string(chunk.first_line) == key.substr(colon + 1)) {
      frontend::ParseOptions options;
      options.first_line = chunk.first_line;
      return frontend::ParseModule(chunk.text, options);
    }
  }
  return NotFoundError("no chunk " + key);
}

// A dense literal whose elements are all equal, as a splat (how MLIR keeps it).
ir::Attribute CanonicalSplats(const ir::Attribute& a) {
  if (const ir::Literal* literal = a.AsDenseElements()) {
    if (literal->is_splat() || literal->num_elements() < 2) return a;
    const size_t width = static_cast<size_t>(ir::StorageBytes(literal->element_type()));
    const std::span<const uint8_t> raw = literal->raw();
    for (size_t offset = width; offset < raw.size(); offset += width) {
      if (!std::equal(raw.begin(), raw.begin() + width, raw.begin() + offset)) return a;
    }
    return ir::Attribute::Dense(*ir::Literal::CreateSplat(literal->type(), raw.first(width)));
  }
  if (const auto* array = a.as<ir::Attribute::Array>()) {
    ir::Attribute::Array out;
    for (const ir::Attribute& e : *array) out.push_back(CanonicalSplats(e));
    return ir::Attribute(std::move(out));
  }
  if (const auto* dict = a.as<ir::Attribute::Dictionary>()) {
    ir::Attribute::Dictionary out;
    for (const auto& [name, value] : *dict) out.emplace_back(name, CanonicalSplats(value));
    return ir::Attribute(std::move(out));
  }
  return a;
}

std::string CanonicalPrint(ir::Module& module) {
  ir::WalkOps(module, [](ir::Operation& op) {
    for (const auto& [name, value] : std::vector<ir::NamedAttribute>(op.attributes())) {
      op.SetAttribute(name, CanonicalSplats(value));
    }
  });
  return ir::PrintModule(module);
}

// What a program's text may spell that its artifact cannot keep: attributes written with
// StableHLO's default value (MLIR drops them when it reads the artifact, vkhlo's reader does
// the same) and the line breaks inside attributes kept as text. Removed before the original
// program's IR is compared with the artifact's.
bool AllEqualTo(const ir::Attribute& value, int64_t expected) {
  const auto values = value.AsI64Vector();
  return values && std::all_of(values->begin(), values->end(), [&](int64_t v) { return v == expected; });
}

bool IsSpelledDefault(const ir::Operation& op, const std::string& name, const ir::Attribute& value) {
  if (name == "indices_are_sorted" || name == "unique_indices") return value.AsBool() == false;
  if (name == "window_strides" || name == "lhs_dilation" || name == "rhs_dilation" || name == "base_dilations" ||
      name == "window_dilations") {
    return AllEqualTo(value, 1);
  }
  if (name == "window_reversal") {
    const auto values = value.AsBoolVector();
    return values && std::none_of(values->begin(), values->end(), [](bool v) { return v; });
  }
  if (name == "padding") return AllEqualTo(value, 0);
  if (name == "infeed_config" || name == "outfeed_config") return value.AsString() && value.AsString()->empty();
  if (name == "channel_handle" && op.code() != ir::OpCode::kSend && op.code() != ir::OpCode::kRecv) {
    return *value.as<ir::ChannelHandle>() == ir::ChannelHandle{};
  }
  if (name == "precision_config") {
    for (const ir::Attribute& e : *value.as<ir::Attribute::Array>()) {
      if (e.AsEnum("precision") != "DEFAULT") return false;
    }
    return true;
  }
  return false;
}

// The text of an attribute kept as text, without line breaks and without empty-list fields
// (`name = [], `), which MLIR's printer writes out and a program's text may leave out.
std::string WithoutLineBreaks(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!std::isspace(static_cast<unsigned char>(text[i]))) {
      out += text[i];
      continue;
    }
    size_t end = i;
    while (end < text.size() && std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    const bool inner = !out.empty() && out.back() != '<' && end < text.size() && text[end] != '>';
    if (inner) out += ' ';
    i = end - 1;
  }
  for (size_t empty; (empty = out.find(" = [], ")) != std::string::npos;) {
    const size_t name = out.find_last_of("<, ", empty - 1) + 1;
    out.erase(name, empty + 7 - name);
  }
  return out;
}

void WithoutSpellingOnlyDifferences(ir::Module& module) {
  ir::WalkOps(module, [](ir::Operation& op) {
    for (const auto& [name, value] : std::vector<ir::NamedAttribute>(op.attributes())) {
      if (IsSpelledDefault(op, name, value)) {
        op.RemoveAttribute(name);
      } else if (const auto* opaque = value.as<ir::OpaqueValue>()) {
        op.SetAttribute(name, ir::Attribute(ir::OpaqueValue{WithoutLineBreaks(opaque->text)}));
      }
    }
  });
}

// The artifact must pass or fail as the text does. The expectation lists say how the text
// fares; when the artifact's outcome differs from them, the text runs too (only then: on
// Vulkan it costs a second compile), so a failure shared with the text is reported as the
// text's, not blamed on the reader.
void ExpectOutcomeAsText(const Artifact& a, const std::string& failure, const std::map<std::string, std::string>& expected,
                         const tools::CheckOptions& options) {
  const bool expected_to_fail = expected.count(a.key) != 0;
  if (failure.empty() != expected_to_fail) return;
  const std::string text_failure = testing::CheckModule(ParseOriginal(a.key), options);
  EXPECT_EQ(failure.empty(), text_failure.empty())
      << a.key << " at " << a.version << ": as an artifact " << (failure.empty() ? "passes" : "fails: " + failure)
      << "; as text " << (text_failure.empty() ? "passes" : "fails: " + text_failure);
  if (failure.empty() == text_failure.empty()) {
    std::printf("%s: %s as text and as an artifact, unlike its expectation: %s\n", a.key.c_str(),
                failure.empty() ? "passes" : "fails", failure.c_str());
  }
}

class BytecodeConformance : public ::testing::TestWithParam<int> {};

TEST_P(BytecodeConformance, ReadsAsTheTextParserReadsTheSameProgram) {
  std::string skip;
  const std::vector<const Artifact*> artifacts = ArtifactsOf(static_cast<size_t>(GetParam()), &skip);
  if (!skip.empty()) GTEST_SKIP() << skip;
  int same_as_deserialized = 0, same_as_original = 0;
  for (const Artifact* a : artifacts) {
    auto read = ReadArtifact(*a);
    ASSERT_TRUE(read.ok()) << a->key << " at " << a->version << ": " << read.status().message();
    EXPECT_TRUE(verify::VerifyModule(**read).ok()) << a->key;
    const std::string printed = CanonicalPrint(**read);
    auto deserialized = frontend::ParseModule(testing::ReadFile(a->deserialized));
    ASSERT_TRUE(deserialized.ok()) << a->deserialized << ": " << deserialized.status().message();
    const bool same = printed == CanonicalPrint(**deserialized);
    EXPECT_TRUE(same) << a->key << " at " << a->version << ": the artifact reads as\n" << printed
                      << "but JAX reads it back as\n" << CanonicalPrint(**deserialized);
    same_as_deserialized += same;
    auto original = ParseOriginal(a->key);
    ASSERT_TRUE(original.ok()) << a->key << ": " << original.status().message();
    WithoutSpellingOnlyDifferences(**original);
    WithoutSpellingOnlyDifferences(**read);
    const bool same_original = CanonicalPrint(**read) == CanonicalPrint(**original);
    EXPECT_TRUE(same_original) << a->key << " at " << a->version << ": the artifact reads as\n" << printed
                               << "but the original program as\n" << CanonicalPrint(**original);
    same_as_original += same_original;
  }
  std::printf("StableHLO %s: %zu artifacts; IR equal to JAX's reading: %d, to the original text: %d\n",
              artifacts.empty() ? "?" : artifacts.front()->version.c_str(), artifacts.size(), same_as_deserialized,
              same_as_original);
}

// Passes or fails as the text does (reference_expectations.txt lists the text's failures).
TEST_P(BytecodeConformance, ChecksPassOnTheReferenceAsOnText) {
  std::string skip;
  const std::vector<const Artifact*> artifacts = ArtifactsOf(static_cast<size_t>(GetParam()), &skip);
  if (!skip.empty()) GTEST_SKIP() << skip;
  const auto expectations = testing::ReadExpectations(VKHLO_REFERENCE_EXPECTATIONS_FILE);
  int passed = 0;
  for (const Artifact* a : artifacts) {
    const std::string failure = testing::CheckModule(ReadArtifact(*a));
    ExpectOutcomeAsText(*a, failure, expectations, {});
    passed += failure.empty();
  }
  std::printf("StableHLO %s: %d of %zu artifacts pass their checks on the reference interpreter\n",
              artifacts.empty() ? "?" : artifacts.front()->version.c_str(), passed, artifacts.size());
}

INSTANTIATE_TEST_SUITE_P(Version, BytecodeConformance, ::testing::Range(0, 8));

// The version jax.export writes: JAX's WEEK_4 window, as the artifacts' versions.tsv names it.
size_t Week4Index() {
  std::ifstream in(fs::path(VKHLO_BYTECODE_ARTIFACTS_DIR) / "versions.tsv");
  std::string name, version;
  while (in >> name >> version) {
    if (name != "WEEK_4") continue;
    const std::vector<std::string> versions = Versions();
    return static_cast<size_t>(std::find(versions.begin(), versions.end(), version) - versions.begin());
  }
  return Versions().size();
}

// The Vulkan device, on WEEK_4's artifacts, in shards.
constexpr int kVulkanShards = 4;

class BytecodeConformanceOnVulkan : public ::testing::TestWithParam<int> {};

TEST_P(BytecodeConformanceOnVulkan, ChecksPassAsOnText) {
  std::string skip;
  const std::vector<const Artifact*> artifacts = ArtifactsOf(Week4Index(), &skip);
  if (!skip.empty()) GTEST_SKIP() << skip;
  const auto expectations = testing::ReadExpectations(VKHLO_VULKAN_EXPECTATIONS_FILE, "native");
  auto client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  ExecutionStats totals;
  const tools::CheckOptions options = testing::VulkanCheckOptions(client->get(), &totals);
  int run = 0, passed = 0;
  for (size_t i = static_cast<size_t>(GetParam()); i < artifacts.size(); i += kVulkanShards) {
    const Artifact& a = *artifacts[i];
    const std::string failure = testing::CheckModule(ReadArtifact(a), options);
    ExpectOutcomeAsText(a, failure, expectations, options);
    ++run;
    passed += failure.empty();
  }
  EXPECT_EQ(totals.host_evaluated_ops, 0u);
  std::printf("shard %d: %d of %d artifacts pass their checks on Vulkan\n", GetParam(), passed, run);
}

INSTANTIATE_TEST_SUITE_P(Shard, BytecodeConformanceOnVulkan, ::testing::Range(0, kVulkanShards));

}  // namespace
}  // namespace vkhlo
