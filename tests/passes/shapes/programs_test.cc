// Every dynamic op, hand-written (tests/passes/shapes/programs/*.mlir): each chunk runs at the sizes of
// its `// RUN:` lines three ways — the interpreter on the program as written (dynamic types,
// the oracle), the interpreter on the module shape refinement makes for those arguments (which
// must be static and verified), and the Vulkan device through a self-specialising executable —
// and the three must agree (bit for bit between the interpreters, within rounding on the
// device). `// ERROR:` lines must fail on all three paths with the message given.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "passes/shapes/refine.h"
#include "runtime/runtime_internal.h"
#include "tests/support/test_files.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string label;            // file:line
  std::string text;             // the chunk
  uint32_t first_line = 1;
  std::vector<std::string> runs;    // argument lists
  std::vector<std::pair<std::string, std::string>> errors;  // argument list, message
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.label; }

std::vector<std::string> Directives(const std::string& text, std::string_view prefix) {
  std::vector<std::string> out;
  for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    const size_t end = text.find('\n', at);
    out.push_back(text.substr(at + prefix.size(), end == std::string::npos ? std::string::npos : end - at - prefix.size()));
  }
  return out;
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const auto& entry : fs::directory_iterator(VKHLO_SHAPES_PROGRAMS_DIR)) {
    if (entry.path().extension() != ".mlir") continue;
    const std::string text = testing::ReadFile(entry.path());
    for (const frontend::SourceChunk& chunk : frontend::SplitInputFile(text)) {
      Case c;
      c.label = fmt::format("{}:{}", entry.path().filename().string(), chunk.first_line);
      c.text = std::string(chunk.text);
      c.first_line = chunk.first_line;
      c.runs = Directives(c.text, "// RUN: ");
      for (const std::string& e : Directives(c.text, "// ERROR: ")) {
        const size_t colon = e.find(" : ");
        c.errors.push_back({e.substr(0, colon), colon == std::string::npos ? "" : e.substr(colon + 3)});
      }
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

// "tensor<3x4xf32>, tensor<i64>=5" -> random literals of those types; `=N` sets a scalar.
std::vector<ir::Literal> Arguments(const std::string& spec, uint64_t seed) {
  std::vector<ir::Literal> literals;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  size_t start = 0;
  while (start < spec.size()) {
    size_t end = spec.find(", tensor", start);
    const std::string item = spec.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const size_t equal = item.find('=');
    auto type = frontend::ParseType(item.substr(0, equal));
    EXPECT_TRUE(type.ok()) << item << ": " << type.status().message();
    if (!type.ok()) return {};
    auto literal = ir::Literal::Create(*type);
    EXPECT_TRUE(literal.ok());
    for (int64_t i = 0; i < literal->num_elements(); ++i) {
      if (ir::IsFloat(type->element_type())) {
        literal->SetFloat(i, real(rng));
      } else {
        literal->SetInt(i, static_cast<int64_t>(rng() % 16));
      }
    }
    if (equal != std::string::npos) literal->SetInt(0, std::stoll(item.substr(equal + 1)));
    literals.push_back(std::move(*literal));
    start = end == std::string::npos ? spec.size() : end + 2;
  }
  return literals;
}

StatusOr<std::unique_ptr<ir::Module>> Parse(const Case& c) {
  VKHLO_ASSIGN_OR_RETURN(auto module, frontend::ParseModule(c.text, {"dynamic_ops.mlir", c.first_line}));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  return module;
}

StatusOr<interp::InterpValues> Interpret(const ir::Module& module, const std::vector<ir::Literal>& arguments) {
  interp::InterpValues values;
  for (const ir::Literal& l : arguments) values.push_back(interp::InterpValue::Tensor(l));
  VKHLO_ASSIGN_OR_RETURN(interp::RunResult result, interp::RunFunction(module, "main", std::move(values)));
  return result.outputs;
}

StatusOr<std::unique_ptr<ir::Module>> Refine(const ir::Module& module, const std::vector<ir::Literal>& arguments) {
  passes::shapes::RefinementInputs inputs;
  VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> shape_arguments, passes::shapes::ShapeArguments(module, "main"));
  for (const ir::Literal& l : arguments) inputs.argument_types.push_back(l.type());
  for (int64_t i : shape_arguments) inputs.argument_values[i] = arguments[static_cast<size_t>(i)].GetInt(0);
  return passes::shapes::Specialize(module, "main", inputs);
}

StatusOr<std::vector<ir::Literal>> OnDevice(const Client& client, std::unique_ptr<ir::Module> module,
                                            const std::vector<ir::Literal>& arguments) {
  VKHLO_ASSIGN_OR_RETURN(Executable executable, runtime::CompileModule(client, std::move(module)));
  std::vector<Buffer> buffers;
  for (const ir::Literal& l : arguments) {
    VKHLO_ASSIGN_OR_RETURN(Buffer b, runtime::BufferFromLiteral(client, l));
    buffers.push_back(std::move(b));
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable.Execute(buffers));
  std::vector<ir::Literal> out;
  for (const Buffer& b : results) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal l, runtime::BufferToLiteral(b));
    out.push_back(std::move(l));
  }
  return out;
}

bool IsStatic(const ir::Module& module) {
  bool all = true;
  for (const auto& f : module.functions()) {
    for (const ir::Type& t : f->type().inputs) all &= t.is_static();
    ir::WalkOps(f->body(), [&](ir::Operation& op) {
      for (size_t i = 0; i < op.num_results(); ++i) all &= op.result(i)->type().is_static() && !op.result(i)->type().is_index();
    });
  }
  return all;
}

class DynamicOpPrograms : public ::testing::TestWithParam<Case> {};

TEST_P(DynamicOpPrograms, AgreeAtEverySize) {
  const Case& c = GetParam();
  auto module = Parse(c);
  ASSERT_TRUE(module.ok()) << module.status().message();
  ASSERT_FALSE(c.runs.empty() && c.errors.empty()) << c.label << " has no RUN or ERROR line";
  auto client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.status().message();
  for (const std::string& run : c.runs) {
    SCOPED_TRACE(c.label + " with " + run);
    const std::vector<ir::Literal> arguments = Arguments(run, std::hash<std::string>()(run));
    auto expected = Interpret(**module, arguments);
    ASSERT_TRUE(expected.ok()) << expected.status().message();

    auto refined = Refine(**module, arguments);
    ASSERT_TRUE(refined.ok()) << refined.status().message();
    EXPECT_TRUE(IsStatic(**refined));
    EXPECT_TRUE(verify::VerifyModule(**refined).ok());
    auto again = Interpret(**refined, arguments);
    ASSERT_TRUE(again.ok()) << again.status().message();
    ASSERT_EQ(again->size(), expected->size());
    for (size_t i = 0; i < expected->size(); ++i) {
      EXPECT_EQ((*again)[i].ToString(), (*expected)[i].ToString()) << "result " << i;
    }

    auto fresh = Parse(c);
    ASSERT_TRUE(fresh.ok());
    auto device = OnDevice(**client, std::move(*fresh), arguments);
    ASSERT_TRUE(device.ok()) << device.status().message();
    ASSERT_EQ(device->size(), expected->size());
    for (size_t i = 0; i < expected->size(); ++i) {
      const ir::Literal& want = (*expected)[i].literal();
      const ir::Literal& got = (*device)[i];
      ASSERT_EQ(got.type(), want.type()) << "result " << i;
      for (int64_t k = 0; k < want.num_elements(); ++k) {
        if (ir::IsFloat(want.element_type())) {
          EXPECT_NEAR(got.GetFloat(k), want.GetFloat(k), 1e-5 + 1e-5 * std::abs(want.GetFloat(k)))
              << "result " << i << " element " << k;
        } else {
          EXPECT_EQ(got.GetInt(k), want.GetInt(k)) << "result " << i << " element " << k;
        }
      }
    }
  }
  for (const auto& [run, message] : c.errors) {
    SCOPED_TRACE(c.label + " with " + run);
    const std::vector<ir::Literal> arguments = Arguments(run, 7);
    auto interpreted = Interpret(**module, arguments);
    ASSERT_FALSE(interpreted.ok());
    EXPECT_NE(interpreted.status().message().find(message), std::string::npos) << interpreted.status().message();
    auto refined = Refine(**module, arguments);
    ASSERT_FALSE(refined.ok());
    EXPECT_NE(refined.status().message().find(message), std::string::npos) << refined.status().message();
    EXPECT_NE(refined.status().message().find("dynamic_ops.mlir:"), std::string::npos) << "located";
    auto fresh = Parse(c);
    ASSERT_TRUE(fresh.ok());
    auto device = OnDevice(**client, std::move(*fresh), arguments);
    ASSERT_FALSE(device.ok());
    EXPECT_NE(device.status().message().find(message), std::string::npos) << device.status().message();
  }
}

INSTANTIATE_TEST_SUITE_P(Chunks, DynamicOpPrograms, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string name = info.param.label;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace vkhlo
