// Absurd shapes (issue 18): tensors whose element count or byte size overflows 64 bits are
// verification errors, and tensors no memory could hold (a splat of 2^63 elements, which the
// interpreter would read element by element) are RESOURCE_EXHAUSTED before anything runs, on
// the interpreter and on the Vulkan device, located at the op. Zero-element tensors with huge
// dimensions stay valid and run. No time is measured: the suite's TIMEOUT guards the "at once".
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "device/allocator.h"
#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/literal.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "support/host_memory.h"
#include "tests/support/runtime_test_util.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

enum class Path { kReference, kVulkan };

// Parses, verifies and runs @main (no arguments) on `path`.
Status RunOn(const std::string& text, Path path) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseModule(text, {.source_name = "shapes.mlir"}));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  if (path == Path::kReference) return interp::RunFunction(*module, "main", {}).status();
  VKHLO_ASSIGN_OR_RETURN(Executable executable, runtime::CompileModule(testing::SharedClient(), std::move(module)));
  return executable.Execute(std::vector<Buffer>{}).status();
}

struct ShapeCase {
  const char* name;
  const char* program;
  StatusCode code;
  const char* message;  // expected in the error on both paths
};

// A reduction of a huge splat: nothing but the splat's type is large, so only a size check
// keeps the interpreter from adding up 2^63 elements.
constexpr const char* kReduceHugeSplat = R"(func.func @main() -> tensor<i8> {
  %0 = stablehlo.constant dense<1> : tensor<9223372036854775807xi8>
  %1 = stablehlo.constant dense<0> : tensor<i8>
  %2 = stablehlo.reduce(%0 init: %1) applies stablehlo.add across dimensions = [0] : (tensor<9223372036854775807xi8>, tensor<i8>) -> tensor<i8>
  func.return %2 : tensor<i8>
})";

constexpr const char* kBytesOverflow = R"(func.func @main() -> tensor<f32> {
  %0 = stablehlo.constant dense<1.0> : tensor<9223372036854775807xf32>
  %1 = stablehlo.slice %0 [0:1] : (tensor<9223372036854775807xf32>) -> tensor<1xf32>
  %2 = stablehlo.reshape %1 : (tensor<1xf32>) -> tensor<f32>
  func.return %2 : tensor<f32>
})";

constexpr const char* kElementsOverflow = R"(func.func @main() -> tensor<f32> {
  %0 = stablehlo.constant dense<1.0> : tensor<9223372036854775807x4xf32>
  %1 = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%0 init: %1) applies stablehlo.add across dimensions = [0, 1] : (tensor<9223372036854775807x4xf32>, tensor<f32>) -> tensor<f32>
  func.return %2 : tensor<f32>
})";

constexpr const char* kHugeIota = R"(func.func @main() -> tensor<i8> {
  %0 = stablehlo.iota dim = 0 : tensor<4611686018427387904xi8>
  %1 = stablehlo.slice %0 [7:8] : (tensor<4611686018427387904xi8>) -> tensor<1xi8>
  %2 = stablehlo.reshape %1 : (tensor<1xi8>) -> tensor<i8>
  func.return %2 : tensor<i8>
})";

// No elements, but strides (products of trailing sizes) that overflow.
constexpr const char* kStridesOverflow = R"(func.func @main() -> tensor<0x9223372036854775807x4xf32> {
  %0 = stablehlo.iota dim = 1 : tensor<0x9223372036854775807x4xf32>
  func.return %0 : tensor<0x9223372036854775807x4xf32>
})";

const ShapeCase kCases[] = {
    {"ReduceOfHugeSplat", kReduceHugeSplat, StatusCode::kResourceExhausted,
     "shapes.mlir:2:3: error: 'stablehlo.constant' result of type tensor<9223372036854775807xi8> needs "
     "9223372036854775807 bytes, more than the"},
    {"BytesOverflow", kBytesOverflow, StatusCode::kInvalidArgument,
     "shapes.mlir:2:3: error: 'stablehlo.constant' result #0 has an invalid type: expected at most "
     "9223372036854775807 bytes of elements, found tensor<9223372036854775807xf32>"},
    {"ElementsOverflow", kElementsOverflow, StatusCode::kInvalidArgument,
     "shapes.mlir:2:40: error: tensor type tensor<9223372036854775807x4xf32> has too many elements"},
    {"StridesOverflow", kStridesOverflow, StatusCode::kInvalidArgument,
     "expected sizes whose product, zero sizes left out, fits in int64, found tensor<0x9223372036854775807x4xf32>"},
    {"HugeIota", kHugeIota, StatusCode::kResourceExhausted,
     "shapes.mlir:2:3: error: 'stablehlo.iota' result of type tensor<4611686018427387904xi8> needs "
     "4611686018427387904 bytes, more than the"},
};

class ShapeLimitsTest : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(ShapeLimitsTest, ClearErrorOnBothPaths) {
  for (Path path : {Path::kReference, Path::kVulkan}) {
    const Status status = RunOn(GetParam().program, path);
    const char* where = path == Path::kReference ? "interpreter" : "vulkan";
    ASSERT_FALSE(status.ok()) << where;
    EXPECT_EQ(status.code(), GetParam().code) << where << ": " << status.ToString();
    EXPECT_NE(status.message().find(GetParam().message), std::string::npos) << where << ": " << status.message();
  }
}

INSTANTIATE_TEST_SUITE_P(Absurd, ShapeLimitsTest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ShapeCase>& info) { return std::string(info.param.name); });

// Which memory the size was measured against: the host's for the interpreter, the device's
// (heap or budget) for Vulkan.
TEST(ShapeLimitsTest, ErrorsNameTheMemory) {
  const Status reference = RunOn(kReduceHugeSplat, Path::kReference);
  EXPECT_NE(reference.message().find("bytes of host memory vkhlo may use"), std::string::npos) << reference.message();
  const Status vulkan = RunOn(kReduceHugeSplat, Path::kVulkan);
  EXPECT_NE(vulkan.message().find("bytes of device memory vkhlo may use on '"), std::string::npos) << vulkan.message();
}

// Zero elements: any dimension may be huge, nothing is allocated or iterated.
TEST(ShapeLimitsTest, EmptyTensorsWithHugeDimensionsRun) {
  const std::string program = R"(func.func @main() -> (tensor<9223372036854775807x0xf32>, tensor<0x9223372036854775807xf32>) {
  %0 = stablehlo.constant dense<1.0> : tensor<9223372036854775807x0xf32>
  %1 = "stablehlo.sort"(%0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<9223372036854775807x0xf32>) -> tensor<9223372036854775807x0xf32>
  %2 = stablehlo.reverse %1, dims = [0] : tensor<9223372036854775807x0xf32>
  %3 = stablehlo.transpose %2, dims = [1, 0] : (tensor<9223372036854775807x0xf32>) -> tensor<0x9223372036854775807xf32>
  func.return %2, %3 : tensor<9223372036854775807x0xf32>, tensor<0x9223372036854775807xf32>
})";
  for (Path path : {Path::kReference, Path::kVulkan}) {
    EXPECT_TRUE(RunOn(program, path).ok()) << (path == Path::kReference ? "interpreter: " : "vulkan: ")
                                         << RunOn(program, path).ToString();
  }
}

// The host limit: VKHLO_HOST_MEMORY_LIMIT lowers it (read on every call), a malformed value is
// an error naming the variable, and literals over it fail before allocating.
TEST(HostMemoryLimitTest, LiteralsOverTheLimitFailAtOnce) {
  ASSERT_GT(PhysicalMemoryBytes(), 0u);
  EXPECT_EQ(ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kS8, {int64_t{1} << 62})).status().code(),
            StatusCode::kResourceExhausted);
  ASSERT_EQ(setenv("VKHLO_HOST_MEMORY_LIMIT", "1M", 1), 0);
  EXPECT_EQ(*HostMemoryLimitBytes(), uint64_t{1} << 20);
  EXPECT_TRUE(ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kF32, {1024})).ok());
  auto big = ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kF32, {1 << 20}));
  EXPECT_EQ(big.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(big.status().message().find("VKHLO_HOST_MEMORY_LIMIT"), std::string::npos) << big.status().message();
  // The interpreter checks the whole program first: a 4 MiB iota fails before it is built.
  const Status iota = RunOn(R"(func.func @main() -> tensor<1048576xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<1048576xf32>
  func.return %0 : tensor<1048576xf32>
})", Path::kReference);
  EXPECT_EQ(iota.code(), StatusCode::kResourceExhausted) << iota.ToString();
  ASSERT_EQ(setenv("VKHLO_HOST_MEMORY_LIMIT", "12 apples", 1), 0);
  EXPECT_EQ(HostMemoryLimitBytes().status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(HostMemoryLimitBytes().status().message().find("VKHLO_HOST_MEMORY_LIMIT"), std::string::npos);
  ASSERT_EQ(unsetenv("VKHLO_HOST_MEMORY_LIMIT"), 0);
  EXPECT_EQ(*HostMemoryLimitBytes(), PhysicalMemoryBytes());
}

// The byte-level API: types whose size overflows, and allocations larger than the device's
// memory, are errors at once.
TEST(DeviceShapeLimitsTest, BuffersBeyondMemoryAreErrors) {
  const Client& client = testing::SharedClient();
  auto overflow = client.BufferFromHost(TensorType{"f32", {INT64_MAX, 2}}, {});
  EXPECT_EQ(overflow.status().code(), StatusCode::kInvalidArgument) << overflow.status().ToString();
  auto bytes_overflow = client.BufferFromHost(TensorType{"f32", {INT64_MAX}}, {});
  EXPECT_EQ(bytes_overflow.status().code(), StatusCode::kInvalidArgument) << bytes_overflow.status().ToString();
  EXPECT_EQ((TensorType{"f32", {INT64_MAX, 2}}.num_elements()), -1);
  device::Allocator& allocator = client.state()->device->allocator();
  auto huge = allocator.Allocate(uint64_t{1} << 62);
  EXPECT_EQ(huge.status().code(), StatusCode::kResourceExhausted) << huge.status().ToString();
  auto wrapping = allocator.Allocate(UINT64_MAX - 3);
  EXPECT_EQ(wrapping.status().code(), StatusCode::kResourceExhausted) << wrapping.status().ToString();
}

}  // namespace
}  // namespace vkhlo
