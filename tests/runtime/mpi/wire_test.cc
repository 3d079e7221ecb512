// The MPI grid's message headers (src/runtime/mpi/wire.h): every field survives the round trip,
// and bytes that are not a whole header of this version are DATA_LOSS, never a misread header.
#include "runtime/mpi/wire.h"

#include <gtest/gtest.h>

namespace vkhlo::runtime::mpi {
namespace {

Header Full() {
  Header h;
  h.kind = MessageKind::kContribution;
  h.epoch = 7;
  h.grid_label = "all_reduce.mlir:1:1@main";
  h.from = {1, 2};
  h.op_name = "stablehlo.all_reduce";
  h.channel_id = -3;
  h.group = {{0, 2}, {1, 2}, {3, 2}};
  h.execution = 41;
  h.has_payload = false;
  h.reduction = "add,max";
  h.tensors = {{{"f32", {3, 5}}, 0, 60}, {{"i1", {}}, 60, 4}};
  h.payload_bytes = 64;
  h.chunk_bytes = 16;
  h.status_code = 10;
  h.status_message = "'stablehlo.recv' stopped waiting";
  h.secondary = true;
  h.pending_channels = {4, 9};
  return h;
}

TEST(MpiWireTest, EveryFieldRoundTrips) {
  const Header h = Full();
  auto decoded = Decode(Encode(h));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, h);
  EXPECT_EQ(decoded->chunk_count(), 4u);
  Header empty;
  auto plain = Decode(Encode(empty));
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(*plain, empty);
  EXPECT_EQ(plain->chunk_count(), 0u);
}

TEST(MpiWireTest, ChunkCountRoundsUp) {
  Header h;
  h.payload_bytes = 17;
  h.chunk_bytes = 16;
  EXPECT_EQ(h.chunk_count(), 2u);
  h.payload_bytes = 16;
  EXPECT_EQ(h.chunk_count(), 1u);
}

TEST(MpiWireTest, EveryTruncationIsDataLoss) {
  const std::vector<uint8_t> bytes = Encode(Full());
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto decoded = Decode(std::span(bytes.data(), n));
    ASSERT_FALSE(decoded.ok()) << "a prefix of " << n << " bytes decoded";
    EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss);
  }
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  EXPECT_NE(Decode(longer).status().message().find("trailing bytes"), std::string::npos);
}

TEST(MpiWireTest, ForeignBytesAndOtherVersionsAreRejected) {
  std::vector<uint8_t> bytes = Encode(Full());
  std::vector<uint8_t> magic = bytes;
  magic[0] ^= 0xff;
  EXPECT_NE(Decode(magic).status().message().find("wrong magic"), std::string::npos);
  std::vector<uint8_t> version = bytes;
  version[4] = 99;
  EXPECT_NE(Decode(version).status().message().find("every rank must run the same vkhlo"), std::string::npos);
}

TEST(MpiWireTest, TensorsOutsideThePayloadAreRejected) {
  Header h = Full();
  h.tensors[1].offset = 62;  // 62 + 4 > 64
  auto decoded = Decode(Encode(h));
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("outside the payload"), std::string::npos);
  h = Full();
  h.chunk_bytes = 0;
  EXPECT_FALSE(Decode(Encode(h)).ok());
}

TEST(MpiWireTest, NamesAsTheInProcessGridWritesThem) {
  EXPECT_EQ(ProcessName({1, 0}), "(1, 0)");
  EXPECT_EQ(GroupName({{0, 0}, {1, 0}}), "[(0, 0), (1, 0)]");
  EXPECT_EQ(GroupName({}), "[]");
}

}  // namespace
}  // namespace vkhlo::runtime::mpi
