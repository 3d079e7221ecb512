// Golden kernel text: the GLSL that small fixed programs compile to, compared with the files in
// tests/codegen/golden/ (one per kernel dispatch, `<program>.<kernel>.comp`), so that a change in
// emitted code shows up in review as a change of these files.
//
// The kernels are emitted for a fixed target (TargetInfo::Everything(), a device-independent
// description), not for the device the tests run on, so the text is the same on every machine
// and under VKHLO_PROFILE=mobile. No device is needed; every kernel is also compiled (glslang,
// spirv-val, spirv-opt) so a golden file is always a valid shader.
//
// After an intended change, regenerate the files and review the diff:
//   VKHLO_UPDATE_GOLDEN=1 build/bin/kernel_text_golden_test
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/device_kernel.h"
#include "codegen/fusion.h"
#include "codegen/glsl_compiler.h"
#include "codegen/kernel.h"
#include "frontend/parser.h"
#include "support/env.h"
#include "verify/verifier.h"

#ifndef VKHLO_GOLDEN_DIR
#error "VKHLO_GOLDEN_DIR (tests/codegen/golden) must be defined by the build"
#endif

namespace vkhlo::codegen {
namespace {

struct Program {
  std::string name;  // the files' prefix
  std::string text;
};

// One of each kernel family the issue names: a loop fusion, a reduction with a fused producer
// and consumer, a matmul with a bias + relu epilogue, and a normalization (row) kernel.
const std::vector<Program>& Programs() {
  static const auto* programs = new std::vector<Program>{
      {"loop_fusion", R"(func.func @main(%x: tensor<4x64xf32>, %y: tensor<4x64xf32>, %s: tensor<f32>) -> tensor<4x64xf32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
  %0 = stablehlo.multiply %x, %y : tensor<4x64xf32>
  %1 = stablehlo.add %0, %b : tensor<4x64xf32>
  %2 = stablehlo.exponential %1 : tensor<4x64xf32>
  return %2 : tensor<4x64xf32>
}
)"},
      {"reduction", R"(func.func @main(%x: tensor<16x256xf32>, %y: tensor<16x256xf32>) -> tensor<16xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<256.0> : tensor<16xf32>
  %p = stablehlo.multiply %x, %y : tensor<16x256xf32>
  %sum = stablehlo.reduce(%p init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<16x256xf32>, tensor<f32>) -> tensor<16xf32>
  %mean = stablehlo.divide %sum, %n : tensor<16xf32>
  return %mean : tensor<16xf32>
}
)"},
      {"matmul_epilogue", R"(func.func @main(%a: tensor<32x64xf32>, %w: tensor<64x48xf32>, %bias: tensor<48xf32>) -> tensor<32x48xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<32x48xf32>
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x48xf32>) -> tensor<32x48xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<48xf32>) -> tensor<32x48xf32>
  %2 = stablehlo.add %0, %1 : tensor<32x48xf32>
  %3 = stablehlo.maximum %2, %zero : tensor<32x48xf32>
  return %3 : tensor<32x48xf32>
}
)"},
      {"softmax_rows", R"(func.func @main(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %max = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
  %mb = stablehlo.broadcast_in_dim %max, dims = [0] : (tensor<8xf32>) -> tensor<8x128xf32>
  %d = stablehlo.subtract %x, %mb : tensor<8x128xf32>
  %e = stablehlo.exponential %d : tensor<8x128xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<8xf32>) -> tensor<8x128xf32>
  %r = stablehlo.divide %e, %sb : tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}
)"},
  };
  return *programs;
}

struct Kernel {
  std::string file;  // "<program>.<kernel>.comp"
  std::string glsl;
};

// Every kernel dispatch of the program's entry block, in execution order.
StatusOr<std::vector<Kernel>> EmitKernels(const Program& program, const TargetInfo& target) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseModule(program.text));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  const ir::Block& body = module->functions().front()->body().front();
  VKHLO_ASSIGN_OR_RETURN(BlockPlan plan, PlanBlock(body, target));
  KernelOptions options;
  options.source_name = program.name + ".mlir";
  options.function = "main";
  std::vector<Kernel> kernels;
  for (const Fusion& fusion : plan.fusions) {
    if (fusion.device_op == nullptr) {
      VKHLO_ASSIGN_OR_RETURN(KernelSource source, EmitLoopKernel(fusion, target, options));
      kernels.push_back({program.name + "." + source.name + ".comp", source.glsl});
      continue;
    }
    const DeviceKernelEmitter* emitter = FindDeviceKernelEmitter(*fusion.device_op);
    if (emitter == nullptr) return InternalError(fusion.name + ": no device kernel emitter");
    VKHLO_ASSIGN_OR_RETURN(DeviceKernel kernel, emitter->emit(fusion, target, options));
    for (const KernelDispatch& d : kernel.dispatches) {
      if (!d.glsl.empty()) kernels.push_back({program.name + "." + d.name + ".comp", d.glsl});
    }
  }
  return kernels;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The differing middle of two texts, diff style: the first and last lines that differ with two
// lines of context, `-` the golden file, `+` the generated text.
std::string Diff(const std::string& golden, const std::string& generated) {
  const std::vector<std::string> a = Lines(golden), b = Lines(generated);
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  const size_t context = 2, first = head > context ? head - context : 0;
  std::ostringstream out;
  out << "@@ line " << head + 1 << " @@\n";
  for (size_t i = first; i < head; ++i) out << "  " << a[i] << "\n";
  for (size_t i = head; i < a.size() - tail; ++i) out << "- " << a[i] << "\n";
  for (size_t i = head; i < b.size() - tail; ++i) out << "+ " << b[i] << "\n";
  for (size_t i = a.size() - tail; i < a.size() && i < a.size() - tail + context; ++i) out << "  " << a[i] << "\n";
  return out.str();
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class KernelTextGolden : public ::testing::TestWithParam<Program> {};

TEST_P(KernelTextGolden, MatchesTheCheckedInText) {
  const Program& program = GetParam();
  const TargetInfo target = TargetInfo::Everything();
  auto kernels = EmitKernels(program, target);
  ASSERT_TRUE(kernels.ok()) << kernels.status().ToString();
  ASSERT_FALSE(kernels->empty());
  const std::filesystem::path dir = VKHLO_GOLDEN_DIR;
  const bool update = GetEnv("VKHLO_UPDATE_GOLDEN").value_or("") == "1";
  GlslCompiler compiler("");
  std::set<std::string> expected_files;
  for (const Kernel& k : *kernels) {
    expected_files.insert(k.file);
    auto spirv = compiler.Compile(k.glsl, GlslCompileOptions::ForTarget(target, k.file));
    EXPECT_TRUE(spirv.ok()) << k.file << ": " << spirv.status().ToString();
    const std::filesystem::path path = dir / k.file;
    if (update) {
      std::ofstream(path, std::ios::binary) << k.glsl;
      continue;
    }
    ASSERT_TRUE(std::filesystem::exists(path))
        << path << " is missing; generate it with VKHLO_UPDATE_GOLDEN=1 " << ::testing::internal::GetArgvs()[0];
    const std::string golden = ReadFile(path);
    EXPECT_EQ(golden, k.glsl) << "the kernel text of " << k.file << " changed:\n"
                              << Diff(golden, k.glsl)
                              << "If the change is intended, regenerate the golden files with\n  VKHLO_UPDATE_GOLDEN=1 "
                              << ::testing::internal::GetArgvs()[0] << "\nand review the diff of tests/codegen/golden/.";
  }
  // A kernel the program no longer has leaves a stale file behind.
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind(program.name + ".", 0) != 0 || expected_files.count(file)) continue;
    if (update) {
      std::filesystem::remove(entry.path());
    } else {
      ADD_FAILURE() << "stale golden file " << entry.path() << ": the program emits no such kernel now";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, KernelTextGolden, ::testing::ValuesIn(Programs()),
                         [](const ::testing::TestParamInfo<Program>& info) { return info.param.name; });

TEST(KernelTextGoldenDiff, ShowsTheChangedLinesWithContext) {
  EXPECT_EQ(Diff("a\nb\nc\nd\ne\n", "a\nb\nX\nd\ne\n"), "@@ line 3 @@\n  a\n  b\n- c\n+ X\n  d\n  e\n");
  EXPECT_EQ(Diff("a\nb\n", "a\nb\nc\n"), "@@ line 3 @@\n  a\n  b\n+ c\n");
}

}  // namespace
}  // namespace vkhlo::codegen
