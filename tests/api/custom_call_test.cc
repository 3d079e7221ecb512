// custom_call through a Client's registry (include/vkhlo/custom_call.h): SPIR-V kernel targets
// dispatched between the program's own kernels, host callback targets, the compile errors
// (unknown target, signature, SPIR-V, bindings), callback errors at Execute, registrations
// kept by executables, side effects through the passes, and concurrent Executes.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "codegen/glsl_compiler.h"
#include "runtime/runtime_internal.h"
#include "tests/support/device_fixture.h"
#include "vkhlo/vkhlo.h"

namespace vkhlo {
namespace {

std::unique_ptr<Client> NewClient() {
  auto client = runtime::CreateClient(testing::TestDeviceOptions());
  if (!client.ok()) {
    ADD_FAILURE() << client.status().ToString();
    return nullptr;
  }
  return std::make_unique<Client>(std::move(*client));
}

// r = a * 2 + b over f32 (binding 0: a, 1: b, 2: r; the element count as a push constant).
constexpr const char* kAxpbGlsl = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer R { float r[]; };
layout(push_constant) uniform Push { uint n; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) r[i] = a[i] * 2.0 + b[i];
}
)";

// Two results from one operand of i32: r0 = x + 1, r1 = -x.
constexpr const char* kSplitGlsl = R"(#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer X { int x[]; };
layout(set = 0, binding = 1) writeonly buffer R0 { int r0[]; };
layout(set = 0, binding = 2) writeonly buffer R1 { int r1[]; };
layout(push_constant) uniform Push { uint n; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) { r0[i] = x[i] + 1; r1[i] = -x[i]; }
}
)";

std::vector<uint32_t> Spirv(const char* glsl) {
  codegen::GlslCompiler compiler("");
  auto words = compiler.Compile(glsl, {.name = "custom_call_test"});
  if (!words.ok()) {
    ADD_FAILURE() << words.status().ToString();
    return {};
  }
  return **words;
}

// One invocation per element of result 0, its count pushed.
CustomCallKernel ElementwiseKernel(const char* glsl, uint32_t workgroup_size) {
  CustomCallKernel kernel;
  kernel.spirv = Spirv(glsl);
  kernel.launch = [workgroup_size](const CustomCallTypes& types) -> StatusOr<CustomCallLaunch> {
    const int64_t n = types.results[0].num_elements();
    return CustomCallLaunch{{static_cast<uint32_t>((n + workgroup_size - 1) / workgroup_size), 1, 1},
                            {static_cast<uint32_t>(n)}};
  };
  return kernel;
}

Status RegisterAxpb(Client& client) {
  CustomCallKernel kernel = ElementwiseKernel(kAxpbGlsl, 64);
  kernel.signature = CustomCallSignature{{{"f32", std::vector<int64_t>{-1}}, {"f32", std::vector<int64_t>{-1}}},
                                         {{"f32", std::vector<int64_t>{-1}}}};
  kernel.result_types = [](std::span<const TensorType> operands) -> StatusOr<std::vector<TensorType>> {
    if (operands[0] != operands[1]) return InvalidArgumentError("operands must have one shape");
    return std::vector<TensorType>{operands[0]};
  };
  return client.custom_calls().RegisterKernel("test.axpb", std::move(kernel));
}

Literal Iota(int64_t n, float scale) {
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = static_cast<float>(i) * scale;
  return LiteralUtil::CreateR1<float>(values);
}

TEST(CustomCallTest, KernelTargetRunsBetweenDeviceKernelsInOneCommandList) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(RegisterAxpb(*client).ok());
  constexpr int64_t kN = 1000;
  XlaBuilder b("fused");
  const Shape shape = ShapeUtil::MakeShape(F32, {kN});
  auto x = Parameter(&b, 0, shape, "x");
  auto y = Parameter(&b, 1, shape, "y");
  auto before = Add(x, ConstantR0<float>(&b, 1.0f));            // a device kernel
  auto call = CustomCall(&b, "test.axpb", {before, y}, shape);  // (x + 1) * 2 + y
  Mul(call, call);                                              // another device kernel
  auto computation = b.Build();
  ASSERT_TRUE(computation.ok()) << computation.status().ToString();
  auto exe = client->Compile(*computation);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();

  const Literal xs = Iota(kN, 0.5f), ys = Iota(kN, -0.25f);
  auto xb = client->TransferToDevice(xs);
  auto yb = client->TransferToDevice(ys);
  ASSERT_TRUE(xb.ok() && yb.ok());
  auto results = (*exe)->Execute({&*xb, &*yb});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  auto out = (*results)[0].ToLiteral();
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  for (int64_t i = 0; i < kN; ++i) {
    const float x_i = xs.data<float>()[static_cast<size_t>(i)], y_i = ys.data<float>()[static_cast<size_t>(i)];
    const float c = (x_i + 1.0f) * 2.0f + y_i;
    ASSERT_EQ(out->data<float>()[static_cast<size_t>(i)], c * c) << "element " << i;
  }
  const ExecutionStats stats = (*exe)->last_stats();
  EXPECT_EQ(stats.kernels_dispatched, 3u);  // add, the target, multiply
  EXPECT_EQ(stats.command_buffers, 1u);     // no synchronization with the host
}

TEST(CustomCallTest, KernelTargetWithSeveralResultsFromTextAndTheBuilder) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->custom_calls().RegisterKernel("test.split", ElementwiseKernel(kSplitGlsl, 32)).ok());
  auto exe = client->Compile(R"(
func.func @main(%x: tensor<2x50xi32>) -> (tensor<2x50xi32>, tensor<2x50xi32>) {
  %r:2 = stablehlo.custom_call @test.split(%x) : (tensor<2x50xi32>) -> (tensor<2x50xi32>, tensor<2x50xi32>)
  %s = stablehlo.multiply %r#0, %r#1 : tensor<2x50xi32>
  return %s, %r#1 : tensor<2x50xi32>, tensor<2x50xi32>
}
)");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  std::vector<int32_t> values(100);
  for (int i = 0; i < 100; ++i) values[static_cast<size_t>(i)] = i * 7 - 300;
  auto x = client->TransferToDevice(LiteralUtil::CreateR1<int32_t>(values).Reshape({2, 50}).value());
  ASSERT_TRUE(x.ok());
  auto results = exe->Execute({&*x});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  auto product = (*results)[0].ToLiteral();
  auto negated = (*results)[1].ToLiteral();
  ASSERT_TRUE(product.ok() && negated.ok());
  for (size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(product->data<int32_t>()[i], (values[i] + 1) * -values[i]) << i;
    EXPECT_EQ(negated->data<int32_t>()[i], -values[i]) << i;
  }

  // The builder's tuple-shaped CustomCall is the same op with one result per element.
  XlaBuilder b("split");
  const Shape shape = ShapeUtil::MakeShape(S32, {2, 50});
  auto call = CustomCall(&b, "test.split", {Parameter(&b, 0, shape, "x")}, ShapeUtil::MakeTupleShape({shape, shape}));
  Sub(GetTupleElement(call, 0), GetTupleElement(call, 1));
  auto built = client->Compile(b.Build().value());
  ASSERT_TRUE(built.ok()) << built.status().ToString();
  auto difference = (*built)->Execute({&*x});
  ASSERT_TRUE(difference.ok()) << difference.status().ToString();
  auto literal = (*difference)[0].ToLiteral();
  ASSERT_TRUE(literal.ok());
  for (size_t i = 0; i < 100; ++i) EXPECT_EQ(literal->data<int32_t>()[i], 2 * values[i] + 1) << i;
}

TEST(CustomCallTest, HostCallbackSeesOperandsAndContextAndFeedsDeviceOps) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  std::string seen_config, seen_target;
  bool seen_effect = false;
  Status registered = client->custom_calls().RegisterHostCallback(
      "test.prefix_sum",
      [&](std::span<const Literal> in, std::span<Literal> out, const CustomCallContext& context) -> Status {
        seen_config = std::string(context.backend_config);
        seen_target = std::string(context.target);
        seen_effect = context.has_side_effect;
        if (in.size() != 1 || out.size() != 1) return InvalidArgumentError("one operand, one result");
        const int32_t scale = std::stoi(seen_config.substr(seen_config.find('=') + 1));
        int32_t sum = 0;
        for (size_t i = 0; i < in[0].data<int32_t>().size(); ++i) {
          sum += in[0].data<int32_t>()[i];
          out[0].data<int32_t>()[i] = sum * scale;
        }
        return OkStatus();
      },
      CustomCallSignature{{{"i32", std::nullopt}}, {{"i32", std::nullopt}}});
  ASSERT_TRUE(registered.ok()) << registered.ToString();

  XlaBuilder b("host");
  const Shape shape = ShapeUtil::MakeShape(S32, {6});
  auto x = Parameter(&b, 0, shape, "x");
  auto doubled = Add(x, x);
  auto call = CustomCall(&b, "test.prefix_sum", {doubled}, shape, "scale=3", /*has_side_effect=*/true);
  Sub(call, ConstantR0<int32_t>(&b, 1));
  auto computation = b.Build();
  ASSERT_TRUE(computation.ok()) << computation.status().ToString();
  auto arg = LiteralUtil::CreateR1<int32_t>({1, 2, 3, 4, 5, 6});
  auto result = client->ExecuteAndTransfer(*computation, {&arg});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  // 2x = 2 4 6 8 10 12; prefix sums 2 6 12 20 30 42; times 3, minus 1.
  EXPECT_EQ(*result, LiteralUtil::CreateR1<int32_t>({5, 17, 35, 59, 89, 125}));
  EXPECT_EQ(seen_config, "scale=3");
  EXPECT_EQ(seen_target, "test.prefix_sum");
  EXPECT_TRUE(seen_effect);
}

TEST(CustomCallTest, HostCallbacksExchangeNarrowTypesAsLiterals) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  std::vector<std::string> seen;
  ASSERT_TRUE(client->custom_calls()
                  .RegisterHostCallback("test.identity",
                                        [&seen](std::span<const Literal> in, std::span<Literal> out,
                                                const CustomCallContext&) {
                                          for (size_t i = 0; i < in.size(); ++i) {
                                            seen.push_back(in[i].ToString());
                                            out[i] = in[i].Clone();
                                          }
                                          return OkStatus();
                                        })
                  .ok());
  auto exe = client->Compile(R"(
func.func @main(%a: tensor<5xi4>, %b: tensor<3xi1>, %c: tensor<2xbf16>) -> (tensor<5xi4>, tensor<3xi1>, tensor<2xbf16>) {
  %na = stablehlo.negate %a : tensor<5xi4>
  %r:3 = stablehlo.custom_call @test.identity(%na, %b, %c) : (tensor<5xi4>, tensor<3xi1>, tensor<2xbf16>) -> (tensor<5xi4>, tensor<3xi1>, tensor<2xbf16>)
  %x = stablehlo.negate %r#0 : tensor<5xi4>
  %y = stablehlo.not %r#1 : tensor<3xi1>
  %z = stablehlo.add %r#2, %r#2 : tensor<2xbf16>
  return %x, %y, %z : tensor<5xi4>, tensor<3xi1>, tensor<2xbf16>
}
)");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  const Literal a = LiteralUtil::CreateR1<int4>({int4(-8), int4(-1), int4(0), int4(3), int4(7)});
  const Literal b = LiteralUtil::CreateR1<bool>({true, false, true});
  const Literal c = LiteralUtil::CreateR1<bfloat16>({bfloat16(1.5f), bfloat16(-0.25f)});
  auto ab = client->TransferToDevice(a);
  auto bb = client->TransferToDevice(b);
  auto cb = client->TransferToDevice(c);
  ASSERT_TRUE(ab.ok() && bb.ok() && cb.ok());
  auto results = exe->Execute({&*ab, &*bb, &*cb});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], LiteralUtil::CreateR1<int4>({int4(-8), int4(1), int4(0), int4(-3), int4(-7)}).ToString());
  EXPECT_EQ(seen[1], b.ToString());
  EXPECT_EQ(seen[2], c.ToString());
  EXPECT_EQ((*results)[0].ToLiteral().value(), a);
  EXPECT_EQ((*results)[1].ToLiteral().value(), LiteralUtil::CreateR1<bool>({false, true, false}));
  EXPECT_EQ((*results)[2].ToLiteral().value(), LiteralUtil::CreateR1<bfloat16>({bfloat16(3.0f), bfloat16(-0.5f)}));
}

TEST(CustomCallTest, UnknownTargetsAndCheckTargetsAreCompileErrors) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  auto unknown = client->Compile(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = stablehlo.custom_call @foo(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
)");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find(":3:3: error: custom_call target @foo is not registered with this client"),
            std::string::npos)
      << unknown.status().ToString();

  XlaBuilder b("unknown");
  CustomCall(&b, "bar", {Parameter(&b, 0, ShapeUtil::MakeShape(F32, {2}), "x")}, ShapeUtil::MakeShape(F32, {2}));
  auto built = client->Compile(b.Build().value());
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.status().message().find("custom_call target @bar is not registered"), std::string::npos)
      << built.status().ToString();

  Status check = client->custom_calls().RegisterHostCallback(
      "check.expect_eq", [](auto, auto, const auto&) { return OkStatus(); });
  EXPECT_EQ(check.code(), StatusCode::kInvalidArgument) << check.ToString();
  auto test_op = client->Compile(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  stablehlo.custom_call @check.expect_eq(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> ()
  return %x : tensor<4xf32>
}
)");
  ASSERT_FALSE(test_op.ok());
  EXPECT_NE(test_op.status().message().find("is a test op"), std::string::npos) << test_op.status().ToString();
}

TEST(CustomCallTest, SignatureAndKernelMismatchesAreCompileErrorsWithLocation) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(RegisterAxpb(*client).ok());
  auto compile_error = [&](const std::string& body) {
    auto exe = client->Compile("func.func @main(%x: tensor<4xf32>, %i: tensor<4xi32>, %y: tensor<8xf32>) -> tensor<4xf32> {\n" +
                               body + "\n  return %x : tensor<4xf32>\n}\n");
    return exe.ok() ? std::string("compiled") : exe.status().message();
  };
  // Operand count, operand type, result type (result_types), result count.
  std::string error = compile_error(
      "  %r = stablehlo.custom_call @test.axpb(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>");
  EXPECT_NE(error.find(":2:3: error: custom_call @test.axpb takes 2 operands, found 1"), std::string::npos) << error;
  error = compile_error(
      "  %r = stablehlo.custom_call @test.axpb(%x, %i) {has_side_effect = true} : (tensor<4xf32>, tensor<4xi32>) -> "
      "tensor<4xf32>");
  EXPECT_NE(error.find("operand 1: expected tensor<?xf32>, found tensor<4xi32>"), std::string::npos) << error;
  error = compile_error(
      "  %r = stablehlo.custom_call @test.axpb(%x, %x) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> "
      "tensor<8xf32>");
  EXPECT_NE(error.find("produces (tensor<4xf32>) for operands"), std::string::npos) << error;
  error = compile_error(
      "  %r = stablehlo.custom_call @test.axpb(%x, %y) {has_side_effect = true} : (tensor<4xf32>, tensor<8xf32>) -> "
      "tensor<4xf32>");
  EXPECT_NE(error.find("operands must have one shape"), std::string::npos) << error;

  // A kernel whose bindings do not match the op: three declared, two bound.
  ASSERT_TRUE(client->custom_calls().RegisterKernel("test.three_bindings", ElementwiseKernel(kAxpbGlsl, 64)).ok());
  error = compile_error(
      "  %r = stablehlo.custom_call @test.three_bindings(%x) {has_side_effect = true} : (tensor<4xf32>) -> "
      "tensor<4xf32>");
  EXPECT_NE(error.find("binds 1 operands then 1 results as storage buffers at set 0, bindings 0..1"), std::string::npos)
      << error;

  // SPIR-V that fails spirv-val: the module cut short.
  CustomCallKernel broken = ElementwiseKernel(kAxpbGlsl, 64);
  broken.spirv.resize(broken.spirv.size() - 3);
  ASSERT_TRUE(client->custom_calls().RegisterKernel("test.broken", std::move(broken)).ok());
  error = compile_error(
      "  %r = stablehlo.custom_call @test.broken(%x, %x) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> "
      "tensor<4xf32>");
  EXPECT_NE(error.find(":2:3: error: custom_call @test.broken has SPIR-V that fails spirv-val"), std::string::npos)
      << error;

  // Push constants that do not fit the kernel's, a wrong entry point, a launch error.
  CustomCallKernel no_push = ElementwiseKernel(kAxpbGlsl, 64);
  no_push.launch = [](const CustomCallTypes&) -> StatusOr<CustomCallLaunch> { return CustomCallLaunch{}; };
  ASSERT_TRUE(client->custom_calls().RegisterKernel("test.no_push", std::move(no_push)).ok());
  error = compile_error(
      "  %r = stablehlo.custom_call @test.no_push(%x, %x) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> "
      "tensor<4xf32>");
  EXPECT_NE(error.find("launches with 0 bytes of push constants; its kernel declares 4"), std::string::npos) << error;
  CustomCallKernel entry = ElementwiseKernel(kAxpbGlsl, 64);
  entry.entry_point = "axpb";
  ASSERT_TRUE(client->custom_calls().RegisterKernel("test.entry", std::move(entry)).ok());
  error = compile_error(
      "  %r = stablehlo.custom_call @test.entry(%x, %x) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> "
      "tensor<4xf32>");
  EXPECT_NE(error.find("names entry point 'axpb'"), std::string::npos) << error;

  // Registration itself rejects what is plainly not a kernel.
  EXPECT_FALSE(client->custom_calls().RegisterKernel("test.empty", CustomCallKernel{}).ok());
  CustomCallKernel no_launch;
  no_launch.spirv = Spirv(kAxpbGlsl);
  EXPECT_FALSE(client->custom_calls().RegisterKernel("test.no_launch", std::move(no_launch)).ok());
  EXPECT_FALSE(client->custom_calls().RegisterHostCallback("", [](auto, auto, const auto&) { return OkStatus(); }).ok());
}

TEST(CustomCallTest, CallbackErrorsFailExecuteWithTheOpLocation) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(client->custom_calls()
                  .RegisterHostCallback("test.reject",
                                        [](std::span<const Literal> in, std::span<Literal>, const CustomCallContext&) {
                                          if (in[0].data<float>()[0] < 0) {
                                            return OutOfRangeError("negative input " + in[0].ToString());
                                          }
                                          return OkStatus();
                                        })
                  .ok());
  ASSERT_TRUE(client->custom_calls()
                  .RegisterHostCallback("test.reshape_result",
                                        [](std::span<const Literal>, std::span<Literal> out, const CustomCallContext&) {
                                          out[0] = LiteralUtil::CreateR1<float>({1, 2, 3});
                                          return OkStatus();
                                        })
                  .ok());
  auto exe = client->Compile(R"(
func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
  %n = stablehlo.negate %x : tensor<1xf32>
  %r = stablehlo.custom_call @test.reject(%n) : (tensor<1xf32>) -> tensor<1xf32>
  return %r : tensor<1xf32>
}
)");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  auto good = client->TransferToDevice(LiteralUtil::CreateR1<float>({-2}));
  auto bad = client->TransferToDevice(LiteralUtil::CreateR1<float>({2}));
  ASSERT_TRUE(good.ok() && bad.ok());
  EXPECT_TRUE(exe->Execute({&*good}).ok());
  auto failed = exe->Execute({&*bad});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kOutOfRange);
  EXPECT_NE(failed.status().message().find(":4:3: error: custom_call @test.reject failed: negative input"),
            std::string::npos)
      << failed.status().ToString();
  // The executable is still usable after a failed run.
  EXPECT_TRUE(exe->Execute({&*good}).ok());

  auto reshaped = client->Compile(R"(
func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
  %r = stablehlo.custom_call @test.reshape_result(%x) : (tensor<1xf32>) -> tensor<1xf32>
  return %r : tensor<1xf32>
}
)");
  ASSERT_TRUE(reshaped.ok()) << reshaped.status().ToString();
  auto changed = reshaped->Execute({&*good});
  ASSERT_FALSE(changed.ok());
  EXPECT_NE(changed.status().message().find("changed result 0 to f32[3]"), std::string::npos)
      << changed.status().ToString();
}

TEST(CustomCallTest, SideEffectsSurviveThePassesAndExecutablesKeepTheirRegistration) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  std::atomic<int> calls{0}, logged{0};
  auto count = [&calls](std::span<const Literal> in, std::span<Literal> out, const CustomCallContext&) {
    calls++;
    out[0] = in[0].Clone();
    return OkStatus();
  };
  ASSERT_TRUE(client->custom_calls().RegisterHostCallback("test.count", count).ok());
  ASSERT_TRUE(client->custom_calls()
                  .RegisterHostCallback("test.log",
                                        [&logged](std::span<const Literal> in, std::span<Literal> out,
                                                  const CustomCallContext&) {
                                          logged += static_cast<int>(in.size()) * 10 + static_cast<int>(out.size());
                                          return OkStatus();
                                        })
                  .ok());
  // The unused side-effecting call runs; the unused pure one is removed (dce); the two identical
  // pure ones merge (cse): two calls in all. A call with no results runs too.
  auto exe = client->Compile(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = stablehlo.custom_call @test.count(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %p = stablehlo.custom_call @test.count(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %a = stablehlo.custom_call @test.count(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = stablehlo.custom_call @test.count(%x) : (tensor<4xf32>) -> tensor<4xf32>
  stablehlo.custom_call @test.log(%x) {has_side_effect = true} : (tensor<4xf32>) -> ()
  %r = stablehlo.add %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
)");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  auto x = client->TransferToDevice(LiteralUtil::CreateR1<float>({1, 2, 3, 4}));
  ASSERT_TRUE(x.ok());
  auto results = exe->Execute({&*x});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  EXPECT_EQ((*results)[0].ToLiteral().value(), LiteralUtil::CreateR1<float>({2, 4, 6, 8}));
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(logged.load(), 10);

  // Replacing or removing the target changes later compiles only.
  ASSERT_TRUE(client->custom_calls()
                  .RegisterHostCallback("test.count",
                                        [](std::span<const Literal>, std::span<Literal>, const CustomCallContext&) {
                                          return InternalError("replaced");
                                        })
                  .ok());
  EXPECT_TRUE(client->custom_calls().Unregister("test.log"));
  EXPECT_FALSE(client->custom_calls().Contains("test.log"));
  EXPECT_TRUE(exe->Execute({&*x}).ok());
  EXPECT_EQ(calls.load(), 4);
  EXPECT_FALSE(client->custom_calls().Unregister("test.log"));
}

TEST(CustomCallTest, TargetsRunInsideControlFlowRegions) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(RegisterAxpb(*client).ok());
  std::atomic<int> calls{0};
  ASSERT_TRUE(client->custom_calls()
                  .RegisterHostCallback("test.halve",
                                        [&calls](std::span<const Literal> in, std::span<Literal> out,
                                                 const CustomCallContext&) {
                                          calls++;
                                          for (size_t i = 0; i < in[0].data<float>().size(); ++i) {
                                            out[0].data<float>()[i] = in[0].data<float>()[i] / 2;
                                          }
                                          return OkStatus();
                                        })
                  .ok());
  // Three iterations of x = halve(x * 2 + x) = 1.5 x.
  auto exe = client->Compile(R"(
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<3xf32>
    cond {
      %three = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %k = stablehlo.custom_call @test.axpb(%v, %v) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %h = stablehlo.custom_call @test.halve(%k) {has_side_effect = true} : (tensor<3xf32>) -> tensor<3xf32>
      stablehlo.return %j, %h : tensor<i32>, tensor<3xf32>
    }
  return %r#1 : tensor<3xf32>
}
)");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  auto x = client->TransferToDevice(LiteralUtil::CreateR1<float>({8, -16, 0.5f}));
  ASSERT_TRUE(x.ok());
  auto results = exe->Execute({&*x});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  EXPECT_EQ((*results)[0].ToLiteral().value(), LiteralUtil::CreateR1<float>({27, -54, 1.6875f}));
  EXPECT_EQ(calls.load(), 3);
}

TEST(CustomCallTest, ConcurrentExecutesCallTheCallbackFromEachThread) {
  auto client = NewClient();
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(RegisterAxpb(*client).ok());
  std::atomic<int> calls{0};
  ASSERT_TRUE(client->custom_calls()
                  .RegisterHostCallback("test.reverse",
                                        [&calls](std::span<const Literal> in, std::span<Literal> out,
                                                 const CustomCallContext&) {
                                          calls++;
                                          auto src = in[0].data<float>();
                                          auto dst = out[0].data<float>();
                                          for (size_t i = 0; i < src.size(); ++i) dst[i] = src[src.size() - 1 - i];
                                          return OkStatus();
                                        })
                  .ok());
  // A kernel target, then the callback, then a device op: each run synchronizes once mid-way.
  auto exe = client->Compile(R"(
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %k = stablehlo.custom_call @test.axpb(%x, %x) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %r = stablehlo.custom_call @test.reverse(%k) : (tensor<64xf32>) -> tensor<64xf32>
  %s = stablehlo.subtract %r, %x : tensor<64xf32>
  return %s : tensor<64xf32>
}
)");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  constexpr int kThreads = 4, kRuns = 5;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < kRuns; ++run) {
        std::vector<float> values(64);
        for (size_t i = 0; i < 64; ++i) values[i] = static_cast<float>(t * 1000 + run * 100) + static_cast<float>(i);
        auto x = client->TransferToDevice(LiteralUtil::CreateR1<float>(values));
        if (!x.ok()) {
          failures[static_cast<size_t>(t)] = x.status().ToString();
          return;
        }
        auto results = exe->Execute({&*x});
        auto out = results.ok() ? (*results)[0].ToLiteral() : StatusOr<Literal>(results.status());
        if (!out.ok()) {
          failures[static_cast<size_t>(t)] = out.status().ToString();
          return;
        }
        for (size_t i = 0; i < 64; ++i) {
          const float expected = 3.0f * values[63 - i] - values[i];
          if (out->data<float>()[i] != expected) {
            failures[static_cast<size_t>(t)] = "element " + std::to_string(i) + " of run " + std::to_string(run);
            return;
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[static_cast<size_t>(t)], "") << "thread " << t;
  EXPECT_EQ(calls.load(), kThreads * kRuns);
}

}  // namespace
}  // namespace vkhlo
