// The PJRT plugin through its C API table, as a framework drives it, without JAX: the table and
// its stubs, the client and its device, compiling text and portable artifacts, strided uploads
// and downloads in other layouts, execution with completion events, donation, errors with codes
// and vkhlo's messages, compile options, the compile cache.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <thread>

#include "pjrt/api_table.h"
#include "pjrt/objects.h"
#include "tests/pjrt/pjrt_test_client.h"
#include "vkhlo/portable_artifact.h"

namespace vkhlo::pjrt {
namespace {

using testing::Int64Option;
using testing::StringOption;
using testing::TakeError;
using testing::TestClient;

constexpr const char* kAdd = R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
})";

const PJRT_Api* Api() { return PluginApi(); }

class PjrtClientTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(client_.Create().ok()); }
  TestClient client_{Api()};
};

TEST(PjrtApiTable, EveryEntryIsSetAndTheVersionIsTheHeaders) {
  const PJRT_Api* api = Api();
  EXPECT_EQ(api->struct_size, PJRT_Api_STRUCT_SIZE);
  EXPECT_EQ(api->pjrt_api_version.major_version, PJRT_API_MAJOR);
  EXPECT_EQ(api->pjrt_api_version.minor_version, PJRT_API_MINOR);
  // The function pointers fill the table from PJRT_Error_Destroy to its end.
  const size_t first = offsetof(PJRT_Api, PJRT_Error_Destroy);
  size_t entries = 0;
  for (size_t offset = first; offset + sizeof(void*) <= PJRT_Api_STRUCT_SIZE; offset += sizeof(void*), ++entries) {
    void* entry = nullptr;
    std::memcpy(&entry, reinterpret_cast<const char*>(api) + offset, sizeof(void*));
    EXPECT_NE(entry, nullptr) << "entry " << entries << " is null";
  }
  EXPECT_EQ(entries, 113u);  // PJRT C API 0.72
}

TEST(PjrtApiTable, StubsAreUnimplementedAndNameTheirFunction) {
  PJRT_Client_TopologyDescription_Args args{PJRT_Client_TopologyDescription_Args_STRUCT_SIZE};
  Status status = TakeError(Api(), Api()->PJRT_Client_TopologyDescription(&args));
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented);
  EXPECT_NE(status.message().find("PJRT_Client_TopologyDescription is not implemented"), std::string::npos) << status.ToString();
  // Stubs never touch their arguments: a null one is fine.
  status = TakeError(Api(), Api()->PJRT_Executable_Serialize(nullptr));
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented);
}

TEST(PjrtApiTable, NullArgumentsAreErrorsNotCrashes) {
  Status status = TakeError(Api(), Api()->PJRT_Client_Compile(nullptr));
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  PJRT_Buffer_ToHostBuffer_Args args{PJRT_Buffer_ToHostBuffer_Args_STRUCT_SIZE};
  status = TakeError(Api(), Api()->PJRT_Buffer_ToHostBuffer(&args));
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("src is null"), std::string::npos) << status.ToString();
  // A caller built against an older API passes a shorter struct.
  PJRT_Client_Compile_Args old{16};
  status = TakeError(Api(), Api()->PJRT_Client_Compile(&old));
  EXPECT_NE(status.message().find("struct_size is 16"), std::string::npos) << status.ToString();
}

TEST(PjrtPlugin, AttributesPinTheStableHloVersionsTheReaderSupports) {
  PJRT_Plugin_Attributes_Args args{PJRT_Plugin_Attributes_Args_STRUCT_SIZE};
  ASSERT_TRUE(TakeError(Api(), Api()->PJRT_Plugin_Attributes(&args)).ok());
  std::map<std::string, std::vector<int64_t>> lists;
  for (size_t i = 0; i < args.num_attributes; ++i) {
    const PJRT_NamedValue& v = args.attributes[i];
    ASSERT_EQ(v.type, PJRT_NamedValue_kInt64List);
    lists[std::string(v.name, v.name_size)] = std::vector<int64_t>(v.int64_array_value, v.int64_array_value + v.value_size);
  }
  const StableHloVersion newest = PortableArtifactNewestVersion(), oldest = PortableArtifactOldestVersion();
  EXPECT_EQ(lists["stablehlo_current_version"], (std::vector<int64_t>{newest.major, newest.minor, newest.patch}));
  EXPECT_EQ(lists["stablehlo_minimum_version"], (std::vector<int64_t>{oldest.major, oldest.minor, oldest.patch}));
}

TEST(PjrtPlugin, UnknownCreateOptionsAreRefused) {
  TestClient client(Api());
  const std::string name = "devcie", value = "0";
  Status status = client.Create({StringOption(name, value)});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("unknown option 'devcie'"), std::string::npos) << status.ToString();
  const std::string profile = "profile", bad = "tiny";
  EXPECT_FALSE(TestClient(Api()).Create({StringOption(profile, bad)}).ok());
}

TEST_F(PjrtClientTest, OneDeviceWithOneMemory) {
  PJRT_Client_PlatformName_Args name{PJRT_Client_PlatformName_Args_STRUCT_SIZE};
  name.client = client_.client();
  ASSERT_TRUE(TakeError(Api(), Api()->PJRT_Client_PlatformName(&name)).ok());
  EXPECT_EQ(std::string(name.platform_name, name.platform_name_size), "vkhlo");
  PJRT_Client_Devices_Args devices{PJRT_Client_Devices_Args_STRUCT_SIZE};
  devices.client = client_.client();
  ASSERT_TRUE(TakeError(Api(), Api()->PJRT_Client_Devices(&devices)).ok());
  ASSERT_EQ(devices.num_devices, 1u);
  PJRT_Device_DefaultMemory_Args memory{PJRT_Device_DefaultMemory_Args_STRUCT_SIZE};
  memory.device = devices.devices[0];
  ASSERT_TRUE(TakeError(Api(), Api()->PJRT_Device_DefaultMemory(&memory)).ok());
  PJRT_Memory_Kind_Args kind{PJRT_Memory_Kind_Args_STRUCT_SIZE};
  kind.memory = memory.memory;
  ASSERT_TRUE(TakeError(Api(), Api()->PJRT_Memory_Kind(&kind)).ok());
  EXPECT_EQ(std::string(kind.kind, kind.kind_size), "device");
  PJRT_Client_LookupDevice_Args lookup{PJRT_Client_LookupDevice_Args_STRUCT_SIZE};
  lookup.client = client_.client();
  lookup.id = 1;
  EXPECT_EQ(TakeError(Api(), Api()->PJRT_Client_LookupDevice(&lookup)).code(), StatusCode::kInvalidArgument);
}

TEST_F(PjrtClientTest, CompilesRunsAndDownloads) {
  auto exe = client_.Compile(kAdd);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  const float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {10, 20, 30, 40, 50, 60};
  auto x = client_.Upload(a, PJRT_Buffer_Type_F32, {2, 3});
  auto y = client_.Upload(b, PJRT_Buffer_Type_F32, {2, 3});
  ASSERT_TRUE(x.ok() && y.ok());
  PJRT_Event* done = nullptr;
  auto out = client_.Execute(*exe, {*x, *y}, &done);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_TRUE(client_.AwaitEvent(done).ok());
  auto values = client_.DownloadAs<float>((*out)[0]);
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_EQ(*values, (std::vector<float>{11, 22, 33, 44, 55, 66}));
  for (PJRT_Buffer* buffer : {*x, *y, (*out)[0]}) client_.Destroy(buffer);
  client_.Destroy(*exe);
}

TEST_F(PjrtClientTest, StridedUploadsAndDownloadsInOtherLayouts) {
  // A 2x3 array stored column-major (numpy's a.T of a 3x2 array): strides {4, 8}.
  const float column_major[6] = {1, 4, 2, 5, 3, 6};
  auto x = client_.Upload(column_major, PJRT_Buffer_Type_F32, {2, 3}, {4, 8});
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_EQ(*client_.DownloadAs<float>(*x), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // Negative strides (a reversed view): data points at the last element in memory order.
  const int32_t forward[4] = {1, 2, 3, 4};
  auto reversed = client_.Upload(forward + 3, PJRT_Buffer_Type_S32, {4}, {-4});
  ASSERT_TRUE(reversed.ok()) << reversed.status().ToString();
  EXPECT_EQ(*client_.DownloadAs<int32_t>(*reversed), (std::vector<int32_t>{4, 3, 2, 1}));
  // Zero strides (a broadcast view).
  const int16_t one = 7;
  auto broadcast = client_.Upload(&one, PJRT_Buffer_Type_S16, {2, 2}, {0, 0});
  ASSERT_TRUE(broadcast.ok()) << broadcast.status().ToString();
  EXPECT_EQ(*client_.DownloadAs<int16_t>(*broadcast), (std::vector<int16_t>{7, 7, 7, 7}));
  // Back out column-major: minor_to_major {0, 1}.
  const int64_t minor_to_major[2] = {0, 1};
  PJRT_Buffer_MemoryLayout layout{PJRT_Buffer_MemoryLayout_STRUCT_SIZE};
  layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  layout.tiled.minor_to_major = minor_to_major;
  layout.tiled.minor_to_major_size = 2;
  auto bytes = client_.Download(*x, &layout);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::vector<float> values(6);
  std::memcpy(values.data(), bytes->data(), 24);
  EXPECT_EQ(values, (std::vector<float>(column_major, column_major + 6)));
  // Tiles are refused, clearly.
  const int64_t tile[1] = {8};
  const size_t tile_sizes[1] = {1};
  layout.tiled.tile_dims = tile;
  layout.tiled.tile_dim_sizes = tile_sizes;
  layout.tiled.num_tiles = 1;
  EXPECT_EQ(client_.Download(*x, &layout).status().code(), StatusCode::kUnimplemented);
  for (PJRT_Buffer* buffer : {*x, *reversed, *broadcast}) client_.Destroy(buffer);
}

TEST_F(PjrtClientTest, ArgumentsAreCheckedAgainstTheProgram) {
  auto exe = client_.Compile(kAdd);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  const int32_t data[6] = {};
  auto wrong = client_.Upload(data, PJRT_Buffer_Type_S32, {2, 3});
  ASSERT_TRUE(wrong.ok());
  Status status = client_.Execute(*exe, {*wrong, *wrong}).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("argument 0 of main must be tensor<2x3xf32>, given tensor<2x3xi32>"), std::string::npos)
      << status.ToString();
  status = client_.Execute(*exe, {*wrong}).status();
  EXPECT_NE(status.message().find("takes 2 arguments, given 1"), std::string::npos) << status.ToString();
  client_.Destroy(*wrong);
  client_.Destroy(*exe);
}

TEST_F(PjrtClientTest, DonatedArgumentsAreTakenUnlessTheCallerSaysNot) {
  auto exe = client_.Compile(R"(
func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> tensor<4xf32> {
  %0 = stablehlo.multiply %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  const float data[4] = {1, 2, 3, 4};
  auto x = client_.Upload(data, PJRT_Buffer_Type_F32, {4});
  ASSERT_TRUE(x.ok());
  auto kept = client_.Execute(*exe, {*x}, nullptr, /*non_donatable=*/{0});
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_FALSE(client_.IsDeleted(*x));
  auto out = client_.Execute(*exe, {*x});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(client_.IsDeleted(*x));
  EXPECT_EQ(*client_.DownloadAs<float>((*out)[0]), (std::vector<float>{1, 4, 9, 16}));
  Status again = client_.Execute(*exe, {*x}).status();
  EXPECT_EQ(again.code(), StatusCode::kFailedPrecondition) << again.ToString();
  EXPECT_EQ(client_.Download(*x).status().code(), StatusCode::kFailedPrecondition);
  for (PJRT_Buffer* buffer : {*x, (*kept)[0], (*out)[0]}) client_.Destroy(buffer);
  client_.Destroy(*exe);
}

TEST_F(PjrtClientTest, ResultsAreTypedBeforeTheRunAndEventsSayWhenItEnds) {
  auto exe = client_.Compile(R"(
func.func @main(%n: tensor<i32>) -> (tensor<i32>, tensor<3xui8>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %s = %c0) : tensor<i32>, tensor<i32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      %s1 = stablehlo.add %s, %i1 : tensor<i32>
      stablehlo.return %i1, %s1 : tensor<i32>, tensor<i32>
    }
  %u = stablehlo.iota dim = 0 : tensor<3xui8>
  return %r#1, %u : tensor<i32>, tensor<3xui8>
})");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  const int32_t n = 200;
  auto arg = client_.Upload(&n, PJRT_Buffer_Type_S32, {});
  ASSERT_TRUE(arg.ok());
  PJRT_Event* done = nullptr;
  auto out = client_.Execute(*exe, {*arg}, &done);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->size(), 2u);
  PJRT_Buffer_ElementType_Args type{PJRT_Buffer_ElementType_Args_STRUCT_SIZE};
  type.buffer = (*out)[1];
  ASSERT_TRUE(TakeError(Api(), Api()->PJRT_Buffer_ElementType(&type)).ok());
  EXPECT_EQ(type.type, PJRT_Buffer_Type_U8);
  // A callback on the completion event runs once the 200 iterations are done.
  std::atomic<bool> called{false};
  PJRT_Event_OnReady_Args on_ready{PJRT_Event_OnReady_Args_STRUCT_SIZE};
  on_ready.event = done;
  on_ready.callback = [](PJRT_Error* error, void* flag) {
    EXPECT_EQ(error, nullptr);
    static_cast<std::atomic<bool>*>(flag)->store(true);
  };
  on_ready.user_arg = &called;
  ASSERT_TRUE(TakeError(Api(), Api()->PJRT_Event_OnReady(&on_ready)).ok());
  EXPECT_TRUE(client_.AwaitEvent(done).ok());
  for (int i = 0; i < 1000 && !called.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(called.load());
  EXPECT_EQ(*client_.DownloadAs<int32_t>((*out)[0]), (std::vector<int32_t>{200 * 201 / 2}));
  EXPECT_EQ(*client_.Download((*out)[1]), (std::vector<uint8_t>{0, 1, 2}));
  for (PJRT_Buffer* buffer : {*arg, (*out)[0], (*out)[1]}) client_.Destroy(buffer);
  client_.Destroy(*exe);
}

TEST(PjrtExecute, AFailedRunReachesItsEventAndItsOutputs) {
  TestClient client(Api());
  // A device memory limit the run cannot keep to (the device's staging memory takes part of it;
  // each result alone fits, so that compiling succeeds).
  const std::string name = "device_memory_limit";
  Status created = client.Create({Int64Option(name, 48 << 20)});
  ASSERT_TRUE(created.ok()) << created.ToString();
  auto exe = client.Compile(R"(
func.func @main(%x: tensor<f32>) -> (tensor<3145728xf32>, tensor<3145728xf32>) {
  %0 = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<3145728xf32>
  %1 = stablehlo.add %0, %0 : tensor<3145728xf32>
  return %0, %1 : tensor<3145728xf32>, tensor<3145728xf32>
})");
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  const float x = 1;
  auto arg = client.Upload(&x, PJRT_Buffer_Type_F32, {});
  ASSERT_TRUE(arg.ok());
  PJRT_Event* done = nullptr;
  auto out = client.Execute(*exe, {*arg}, &done);
  ASSERT_TRUE(out.ok()) << out.status().ToString();  // queued: the failure comes through the events
  Status status = client.AwaitEvent(done);
  EXPECT_EQ(status.code(), StatusCode::kResourceExhausted) << status.ToString();
  EXPECT_EQ(client.Download((*out)[0]).status(), status);
  client.Destroy(*arg);
  for (PJRT_Buffer* buffer : *out) client.Destroy(buffer);
  client.Destroy(*exe);
}

TEST_F(PjrtClientTest, CompilesPortableArtifacts) {
  std::ifstream file(VKHLO_AXPY_ARTIFACT, std::ios::binary);
  const std::string artifact((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(IsPortableArtifact(std::span(reinterpret_cast<const uint8_t*>(artifact.data()), artifact.size())));
  auto exe = client_.Compile(artifact);
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  const float alpha = 3, xs[4] = {1, 2, 3, 4}, ys[4] = {10, 20, 30, 40};
  auto a = client_.Upload(&alpha, PJRT_Buffer_Type_F32, {});
  auto x = client_.Upload(xs, PJRT_Buffer_Type_F32, {4});
  auto y = client_.Upload(ys, PJRT_Buffer_Type_F32, {4});
  auto out = client_.Execute(*exe, {*a, *x, *y});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*client_.DownloadAs<float>((*out)[0]), (std::vector<float>{13, 26, 39, 52}));
  for (PJRT_Buffer* buffer : {*a, *x, *y, (*out)[0]}) client_.Destroy(buffer);
  client_.Destroy(*exe);
}

TEST_F(PjrtClientTest, CompileErrorsCarryVkhlosMessage) {
  Status status = client_.Compile("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a : tensor<2xf32>\n").status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
  EXPECT_NE(status.message().find("3:1: error: expected operation"), std::string::npos) << status.ToString();
  status = client_.Compile(R"(
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @my_missing_kernel(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})").status();
  EXPECT_NE(status.message().find("@my_missing_kernel is not registered"), std::string::npos) << status.ToString();
  status = client_.Compile("func.func @main(%a: !stablehlo.token) -> !stablehlo.token {\n  return %a : !stablehlo.token\n}").status();
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented) << status.ToString();
  EXPECT_NE(status.message().find("token"), std::string::npos) << status.ToString();
}

TEST_F(PjrtClientTest, CompileOptionsForSeveralDevicesAreRefused) {
  // CompileOptionsProto{executable_build_options (3): {num_replicas (4): 2}}.
  const std::string two_replicas("\x1a\x02\x20\x02", 4);
  Status status = client_.Compile(kAdd, two_replicas).status();
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented) << status.ToString();
  EXPECT_NE(status.message().find("2 replica(s) x 1 partition(s)"), std::string::npos) << status.ToString();
  // {executable_build_options: {num_partitions (5): 1, device_assignment (9): {computation_devices (3):
  //   {replica_device_ids (1, packed): [3]}}}}
  const std::string device_three("\x1a\x09\x28\x01\x4a\x05\x1a\x03\x0a\x01\x03", 11);
  status = client_.Compile(kAdd, device_three).status();
  EXPECT_NE(status.message().find("assign the program to device 3"), std::string::npos) << status.ToString();
  // Truncated: the nested message claims more bytes than there are.
  status = client_.Compile(kAdd, std::string("\x1a\x05\x20", 3)).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
  EXPECT_NE(status.message().find("byte 2"), std::string::npos) << status.ToString();
  // One replica on device 0, and fields the plugin does not read, are fine.
  const std::string one("\x1a\x06\x20\x01\x28\x01\x30\x01\x20\x00", 10);
  EXPECT_TRUE(client_.Compile(kAdd, one).ok());
}

TEST_F(PjrtClientTest, TheCompileCacheAnswersTheSameProgramAgain) {
  auto first = client_.Compile(kAdd);
  ASSERT_TRUE(first.ok());
  const uint64_t hits = client_.client()->compile_cache.hits();
  auto second = client_.Compile(kAdd);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(client_.client()->compile_cache.hits(), hits + 1);
  EXPECT_EQ((*first)->Program(), (*second)->Program());
  auto other = client_.Compile(std::string(kAdd) + "\n");
  ASSERT_TRUE(other.ok());
  EXPECT_NE((*first)->Program(), (*other)->Program());
  for (PJRT_LoadedExecutable* exe : {*first, *second, *other}) client_.Destroy(exe);
}

}  // namespace
}  // namespace vkhlo::pjrt
