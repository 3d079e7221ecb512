// The bytecode reader byte by byte: the container's encodings, a minimal module built here, and
// broken files — each must give a clear error naming the byte and what was expected, never a
// crash, a hang or a huge allocation.
#include <gtest/gtest.h>

#include <filesystem>

#include "frontend/bytecode/byte_reader.h"
#include "frontend/bytecode/program.h"
#include "frontend/bytecode/reader.h"
#include "frontend/parser.h"
#include "ir/printer.h"
#include "tests/frontend/bytecode/bytecode_writer.h"
#include "tests/support/test_files.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using frontend::bytecode::ByteReader;
using testing::Bytes;

StatusOr<std::unique_ptr<ir::Module>> Read(const std::vector<uint8_t>& file) {
  frontend::bytecode::ReadOptions options;
  options.source_name = "test.mlirbc";
  return frontend::bytecode::ReadPortableArtifact(file, options);
}

std::string ErrorOf(const std::vector<uint8_t>& file) {
  auto module = Read(file);
  return module.ok() ? "(no error)" : module.status().message();
}

TEST(ByteReader, VarIntsOfEveryLength) {
  for (uint64_t value : {uint64_t{0}, uint64_t{1}, uint64_t{127}, uint64_t{128}, uint64_t{16383}, uint64_t{1} << 20,
                         (uint64_t{1} << 56) - 1, uint64_t{1} << 56, ~uint64_t{0}}) {
    Bytes bytes;
    bytes.VarInt(value);
    ByteReader reader(bytes.data(), bytes.data().data());
    auto read = reader.VarInt("a value");
    ASSERT_TRUE(read.ok()) << read.status().message();
    EXPECT_EQ(*read, value);
    EXPECT_TRUE(reader.empty());
  }
  const std::vector<uint8_t> one{0x03}, two{0x02, 0x02}, nine{0x00, 1, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(*ByteReader(one, one.data()).VarInt(""), 1u);
  EXPECT_EQ(*ByteReader(two, two.data()).VarInt(""), 128u);
  EXPECT_EQ(*ByteReader(nine, nine.data()).VarInt(""), 1u);
}

TEST(ByteReader, SignedVarIntsAreZigZag) {
  for (int64_t value : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{1} << 40, INT64_MIN, INT64_MAX}) {
    Bytes bytes;
    bytes.SignedVarInt(value);
    ByteReader reader(bytes.data(), bytes.data().data());
    EXPECT_EQ(*reader.SignedVarInt(""), value);
  }
}

TEST(ByteReader, TruncationNamesTheByteAndWhatWasRead) {
  const std::vector<uint8_t> data{0x07, 0x08, 0x00};  // 0x08: three more bytes follow, two are there
  ByteReader reader(std::span<const uint8_t>(data).subspan(1), data.data());
  auto read = reader.VarInt("the op's operand count");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(),
            "byte 1: unexpected end of data reading the op's operand count (needs 4 bytes, 2 left)");
}

TEST(ByteReader, CountsBeyondTheDataAreRejectedBeforeAnyAllocation) {
  Bytes bytes;
  bytes.VarInt(uint64_t{1} << 40).Byte(0);
  ByteReader reader(bytes.data(), bytes.data().data());
  auto count = reader.Count("the dialect count");
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.status().message().find("the dialect count is 1099511627776, more than the 1 bytes left"),
            std::string::npos);
}

TEST(ByteReader, SectionsWithAlignmentPadding) {
  Bytes bytes;
  bytes.Byte(0x85).VarInt(2).VarInt(8).Raw({0xCB, 0xCB, 0xCB, 0xCB, 0xCB}).Raw({0x11, 0x22});
  ByteReader reader(bytes.data(), bytes.data().data());
  auto section = frontend::bytecode::ReadSection(reader);
  ASSERT_TRUE(section.ok()) << section.status().message();
  EXPECT_EQ(section->id, 5);
  EXPECT_EQ(section->data.size(), 2u);
  EXPECT_EQ(section->data[0], 0x11);

  Bytes bad;
  bad.Byte(0x85).VarInt(2).VarInt(8).Raw({0xCB, 0x00});
  ByteReader bad_reader(bad.data(), bad.data().data());
  EXPECT_EQ(frontend::bytecode::ReadSection(bad_reader).status().message(),
            "byte 4: expected alignment padding byte 0xCB, found 0x00");
}

TEST(Reader, MinimalModule) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  auto module = Read(m.writer.Finish(m.Ir()));
  ASSERT_TRUE(module.ok()) << module.status().message();
  EXPECT_TRUE(verify::VerifyModule(**module).ok());
  EXPECT_EQ(ir::PrintModule(**module),
            "module {\n"
            "  func.func @main() -> tensor<f32> {\n"
            "    %0 = \"stablehlo.constant\"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>\n"
            "    \"func.return\"(%0) : (tensor<f32>) -> ()\n"
            "  }\n"
            "}\n");
  EXPECT_EQ((*module)->source_name(), "test.mlirbc");  // no positions in the file
}

TEST(Reader, DetectedByMagicNotByName) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  const std::vector<uint8_t> file = m.writer.Finish(m.Ir());
  EXPECT_TRUE(frontend::IsBytecode(std::string_view(reinterpret_cast<const char*>(file.data()), file.size())));
  auto module = frontend::ParseProgram(std::string_view(reinterpret_cast<const char*>(file.data()), file.size()));
  EXPECT_TRUE(module.ok()) << module.status().message();
  EXPECT_TRUE(frontend::ParseProgram("func.func @f() { func.return }").ok());
}

TEST(Reader, HeaderErrors) {
  EXPECT_EQ(ErrorOf({}), "test.mlirbc: byte 0: not MLIR bytecode: the file does not start with the magic bytes "
                          "4D 4C EF 52 (\"ML\\xEFR\")");
  EXPECT_EQ(ErrorOf({'M', 'L', 0xEF, 'X', 0x0D}).substr(0, 40), "test.mlirbc: byte 0: not MLIR bytecode: ");
  EXPECT_EQ(ErrorOf({'M', 'L', 0xEF, 'R', 0x0D, 'S', 't'}),
            "test.mlirbc: byte 5: the producer string has no terminating NUL byte");
  testing::MinimalModule m = testing::MakeMinimalModule();
  const std::string newer = ErrorOf(m.writer.Finish(m.Ir(), /*version=*/7, "StableHLO_v2.3.0"));
  EXPECT_NE(newer.find("MLIR bytecode version 7 (producer \"StableHLO_v2.3.0\") is newer than the versions vkhlo reads "
                       "(0 to 6"),
            std::string::npos)
      << newer;
}

TEST(Reader, MissingAndRepeatedSections) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  EXPECT_NE(ErrorOf(m.writer.Finish(m.Ir(), 6, "StableHLO_v1.15.0", {4})).find("the file has no IR section"),
            std::string::npos);
  EXPECT_NE(ErrorOf(m.writer.Finish(m.Ir(), 6, "StableHLO_v1.15.0", {8}))
                .find("the file has no properties section (required from bytecode version 5)"),
            std::string::npos);
  const std::vector<uint8_t> file = m.writer.Finish(m.Ir());
  std::vector<uint8_t> doubled = file;
  doubled.insert(doubled.end(), {0x00, 0x01, 0x01});  // a second (empty) string section
  EXPECT_NE(ErrorOf(doubled).find("a second string section (the first is at byte"), std::string::npos)
      << ErrorOf(doubled);
  std::vector<uint8_t> unknown = file;
  unknown.insert(unknown.end(), {0x09, 0x01, 0x00});
  EXPECT_NE(ErrorOf(unknown).find("unknown section id 9 (ids 0 to 8 exist)"), std::string::npos);
}

TEST(Reader, OutOfRangeIndices) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  // The constant's properties name attribute 99.
  const uint64_t bad = m.writer.Properties(Bytes().VarInt(99));
  m.constant_properties = bad;
  const std::string error = ErrorOf(m.writer.Finish(m.Ir()));
  EXPECT_NE(error.find("attribute index 99 is out of range (the table has"), std::string::npos) << error;
  EXPECT_EQ(error.rfind("test.mlirbc: byte ", 0), 0u) << error;
}

TEST(Reader, AnAttributeThatContainsItself) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  const uint64_t self = m.writer.Attribute("vhlo", Bytes().VarInt(1).VarInt(1).VarInt(6));  // [#6]: itself
  ASSERT_EQ(self, 6u);
  m.constant_properties = m.writer.Properties(Bytes().VarInt(self));
  EXPECT_NE(ErrorOf(m.writer.Finish(m.Ir())).find("attribute 6 refers to itself"), std::string::npos);
}

TEST(Reader, DeepNestingIsAnErrorNotAStackOverflow) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  uint64_t inner = m.writer.Attribute("vhlo", Bytes().VarInt(1).VarInt(0));
  for (int i = 0; i < 300; ++i) inner = m.writer.Attribute("vhlo", Bytes().VarInt(1).VarInt(1).VarInt(inner));
  m.constant_properties = m.writer.Properties(Bytes().VarInt(inner));
  EXPECT_NE(ErrorOf(m.writer.Finish(m.Ir())).find("nest deeper than 200 levels"), std::string::npos);
}

TEST(Reader, AbsurdValueCount) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  const std::string error = ErrorOf(m.writer.Finish(m.Ir(nullptr, 2, uint64_t{1} << 50)));
  EXPECT_NE(error.find("a region's value count is 1125899906842624, more than the"), std::string::npos) << error;
}

TEST(Reader, ForwardReferences) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  // %1 = add(%0, %0) where %0 is defined after it; then %0 = constant; return %1.
  const uint64_t add = m.writer.OpName("vhlo", "add_v1");
  Bytes ops;
  ops.VarInt(add).Byte(0x06).VarInt(m.unknown_location).VarInt(1).VarInt(m.scalar).VarInt(2).VarInt(1).VarInt(1);
  ops.VarInt(m.constant_op).Byte(0x42).VarInt(m.unknown_location).VarInt(m.constant_properties).VarInt(1).VarInt(m.scalar);
  ops.VarInt(m.return_op).Byte(0x04).VarInt(m.unknown_location).VarInt(1).VarInt(0);
  auto module = Read(m.writer.Finish(m.Ir(&ops, 3, 2)));
  ASSERT_TRUE(module.ok()) << module.status().message();
  const ir::Block& body = (*module)->functions()[0]->body().front();
  EXPECT_EQ(body.operations()[0]->operand(0), body.operations()[1]->result(0));
  EXPECT_EQ(body.operations()[0]->operand(1), body.operations()[1]->result(0));

  Bytes dangling;  // uses value 1, which nothing defines
  dangling.VarInt(m.return_op).Byte(0x04).VarInt(m.unknown_location).VarInt(1).VarInt(1);
  EXPECT_NE(ErrorOf(m.writer.Finish(m.Ir(&dangling, 1, 2))).find("value 1 is used (by func.return) but never defined"),
            std::string::npos);
}

TEST(Reader, UnknownOpsAttributesAndTypes) {
  {
    testing::MinimalModule m = testing::MakeMinimalModule();
    const uint64_t unknown = m.writer.OpName("vhlo", "frobnicate_v1");
    Bytes ops;
    ops.VarInt(unknown).Byte(0x00).VarInt(m.unknown_location);
    const std::string error = ErrorOf(m.writer.Finish(m.Ir(&ops, 1, 0), 6, "StableHLO_v1.25.0"));
    EXPECT_NE(error.find("unknown VHLO op vhlo.frobnicate_v1 (vkhlo reads the VHLO ops of StableHLO 0.9.0 to 1.20.0"),
              std::string::npos) << error;
    EXPECT_NE(error.find("the artifact was written for StableHLO 1.25.0; vkhlo reads 0.9.0 to 1.20.0"), std::string::npos)
        << error;
  }
  {
    testing::MinimalModule m = testing::MakeMinimalModule();
    m.constant_properties = m.writer.Properties(Bytes().VarInt(m.writer.Attribute("vhlo", Bytes().VarInt(99))));
    EXPECT_NE(ErrorOf(m.writer.Finish(m.Ir())).find("unknown vhlo attribute code 99"), std::string::npos);
  }
  {
    testing::MinimalModule m = testing::MakeMinimalModule();
    const uint64_t type = m.writer.Type("vhlo", Bytes().VarInt(99));
    Bytes ops;
    ops.VarInt(m.constant_op).Byte(0x42).VarInt(m.unknown_location).VarInt(m.constant_properties).VarInt(1).VarInt(type);
    EXPECT_NE(ErrorOf(m.writer.Finish(m.Ir(&ops, 1, 1))).find("unknown vhlo type code 99"), std::string::npos);
  }
}

TEST(Reader, PlainMlirBytecodeSaysWhatItIs) {
  testing::BytecodeWriter w;
  w.Dialect("builtin");
  w.Dialect("stablehlo");
  w.Dialect("func");
  Bytes ir;
  ir.VarIntWithFlag(0, false);
  const std::string error = ErrorOf(w.Finish(ir, 6, "MLIR21.0.0git"));
  EXPECT_NE(error.find("this is plain MLIR bytecode (producer \"MLIR21.0.0git\", dialects stablehlo, func), not a "
                       "StableHLO portable artifact"),
            std::string::npos)
      << error;
}

// What jaxlib's deserialize_portable_artifact_str gives back for mlp_forward: StableHLO's own
// (unversioned) bytecode, not a portable artifact.
TEST(Reader, RealPlainStablehloBytecode) {
  const std::string text =
      testing::ReadFile(std::filesystem::path(VKHLO_BYTECODE_DATA_DIR) / "mlp_forward_plain_stablehlo.mlirbc");
  ASSERT_FALSE(text.empty());
  const std::string error = ErrorOf(std::vector<uint8_t>(text.begin(), text.end()));
  EXPECT_NE(error.find("this is plain MLIR bytecode (producer \"MLIR23.0.0git\", dialects func, stablehlo), not a "
                       "StableHLO portable artifact"),
            std::string::npos)
      << error;
}

// jax.export's Shardy companions: a mesh, argument shardings and a constraint (annotations,
// dropped), a sharding rule on a LAPACK custom call (dropped, the call kept with its layouts),
// and a shard_map (a partitioned computation, refused).
std::unique_ptr<ir::Module> ReadData(const std::string& name, std::string* error) {
  const std::string text = testing::ReadFile(std::filesystem::path(VKHLO_BYTECODE_DATA_DIR) / name);
  auto module = Read(std::vector<uint8_t>(text.begin(), text.end()));
  if (!module.ok()) *error = module.status().message();
  return module.ok() ? std::move(module).value() : nullptr;
}

TEST(Reader, ShardyAnnotationsDroppedComputationsRefused) {
  std::string error;
  std::unique_ptr<ir::Module> sharded = ReadData("sharded_shardy.mlirbc", &error);
  ASSERT_NE(sharded, nullptr) << error;
  EXPECT_TRUE(verify::VerifyModule(*sharded).ok());
  const std::string printed = ir::PrintModule(*sharded);
  EXPECT_EQ(printed.find("sdy"), std::string::npos) << printed;
  EXPECT_NE(printed.find("\"stablehlo.add\"(%2, %arg1)"), std::string::npos) << printed;

  std::unique_ptr<ir::Module> eigh = ReadData("eigh_lapack.mlirbc", &error);
  ASSERT_NE(eigh, nullptr) << error;
  const std::string lapack = ir::PrintModule(*eigh);
  EXPECT_EQ(lapack.find("sdy"), std::string::npos) << lapack;
  EXPECT_NE(lapack.find("call_target_name = \"lapack_ssyevd_ffi\""), std::string::npos) << lapack;
  EXPECT_NE(lapack.find("operand_layouts = [dense<[0, 1]> : tensor<2xindex>]"), std::string::npos) << lapack;

  EXPECT_EQ(ReadData("shard_map_shardy.mlirbc", &error), nullptr);
  EXPECT_NE(error.find("sdy.manual_computation: Shardy's partitioned computations (shard_map"), std::string::npos)
      << error;
}

// The container's version 0 (StableHLO 0.9.0): no op-name count, no flags on dialect and op
// names, no properties (inherent attributes in each op's dictionary), isolated regions inline.
TEST(Reader, ContainerVersion0) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  testing::BytecodeWriter& w = m.writer;
  const auto key = [&](std::string_view name) { return w.Attribute("builtin", Bytes().VarInt(2).VarInt(w.String(name))); };
  const uint64_t value = key("value"), arg_attrs = key("arg_attrs"), function_type = key("function_type"),
                 res_attrs = key("res_attrs"), sym_name = key("sym_name"), sym_visibility = key("sym_visibility");
  const uint64_t constant_dictionary =
      w.Attribute("builtin", Bytes().VarInt(1).VarInt(1).VarInt(value).VarInt(m.constant_value));
  const uint64_t func_dictionary = w.Attribute(
      "builtin", Bytes().VarInt(1).VarInt(5).VarInt(arg_attrs).VarInt(m.empty_array).VarInt(function_type).VarInt(m.type)
                     .VarInt(res_attrs).VarInt(m.empty_array).VarInt(sym_name).VarInt(m.name).VarInt(sym_visibility)
                     .VarInt(m.empty_string));
  Bytes ir;
  ir.VarIntWithFlag(1, false);
  ir.VarInt(m.module_op).Byte(0x10).VarInt(m.unknown_location).VarIntWithFlag(1, true);
  ir.VarInt(1).VarInt(0).VarIntWithFlag(1, false);
  ir.VarInt(m.func_op).Byte(0x11).VarInt(m.unknown_location).VarInt(func_dictionary).VarIntWithFlag(1, true);
  ir.VarInt(1).VarInt(1).VarIntWithFlag(2, false);
  ir.VarInt(m.constant_op).Byte(0x03).VarInt(m.unknown_location).VarInt(constant_dictionary).VarInt(1).VarInt(m.scalar);
  ir.VarInt(m.return_op).Byte(0x04).VarInt(m.unknown_location).VarInt(1).VarInt(0);
  auto version0 = Read(w.Finish(ir, 0, "StableHLO_v0.9.0"));
  ASSERT_TRUE(version0.ok()) << version0.status().message();
  auto version6 = Read(m.writer.Finish(m.Ir()));
  ASSERT_TRUE(version6.ok()) << version6.status().message();
  EXPECT_EQ(ir::PrintModule(**version0), ir::PrintModule(**version6));
}

// Quantized element types (jaxlib has no quant dialect to make artifacts with them): a function
// of one quantized tensor argument returning it, per tensor and per axis.
StatusOr<ir::Type> QuantizedArgument(const Bytes& quantized_type_encoding, const std::vector<int64_t>& dims) {
  testing::BytecodeWriter w;
  w.Dialect("builtin");
  w.Dialect("vhlo");
  const uint64_t module_op = w.OpName("builtin", "module"), func_op = w.OpName("vhlo", "func_v1"),
                 return_op = w.OpName("vhlo", "return_v1");
  const uint64_t location = w.Attribute("builtin", Bytes().VarInt(15));
  w.Type("vhlo", Bytes().VarInt(11));  // si8: type 0
  w.Type("vhlo", Bytes().VarInt(4));   // f32: type 1
  const uint64_t quantized = w.Type("vhlo", quantized_type_encoding);
  Bytes tensor_encoding;
  tensor_encoding.VarInt(20).VarInt(dims.size());
  for (int64_t d : dims) tensor_encoding.SignedVarInt(d);
  const uint64_t tensor = w.Type("vhlo", tensor_encoding.VarInt(quantized));
  const uint64_t function = w.Type("vhlo", Bytes().VarInt(8).VarInt(1).VarInt(tensor).VarInt(1).VarInt(tensor));
  const uint64_t empty = w.Attribute("vhlo", Bytes().VarInt(1).VarInt(0));
  const uint64_t type = w.Attribute("vhlo", Bytes().VarInt(17).VarInt(function));
  const uint64_t name = w.Attribute("vhlo", Bytes().VarInt(14).VarInt(w.String("main")));
  const uint64_t visibility = w.Attribute("vhlo", Bytes().VarInt(14).VarInt(w.String("")));
  const uint64_t module_properties = w.Properties(Bytes().VarIntWithFlag(0, false).VarIntWithFlag(0, false));
  const uint64_t func_properties =
      w.Properties(Bytes().VarInt(empty).VarInt(type).VarInt(empty).VarInt(name).VarInt(visibility));
  Bytes function_region;  // ^bb0(%arg0): return %arg0
  function_region.VarInt(1).VarInt(1).VarIntWithFlag(1, true).VarInt(1).VarIntWithFlag(tensor, false).Byte(0);
  function_region.VarInt(return_op).Byte(0x04).VarInt(location).VarInt(1).VarInt(0);
  const Bytes ir =
      testing::ModuleOfOneFunction(module_op, module_properties, func_op, func_properties, location, function_region);
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, Read(w.Finish(ir)));
  return module->functions()[0]->body().front().argument(0)->type();
}

TEST(Reader, QuantizedTypes) {
  const uint64_t half = 0x3FE0000000000000, quarter = 0x3FD0000000000000;  // 0.5, 0.25 as f64 bits
  Bytes per_tensor;  // flags (signed), storage, expressed, scale, zero point, min, max
  per_tensor.VarInt(24).VarInt(1).VarInt(0).VarInt(1).SignedVarInt(static_cast<int64_t>(half)).SignedVarInt(3);
  per_tensor.SignedVarInt(-127).SignedVarInt(127);
  auto type = QuantizedArgument(per_tensor, {4});
  ASSERT_TRUE(type.ok()) << type.status().message();
  EXPECT_EQ(*type, *frontend::ParseType("tensor<4x!quant.uniform<i8<-127:127>:f32, 5.000000e-01:3>>"))
      << type->ToString();

  Bytes per_axis;  // flags, storage, expressed, dimension, min, max, scales, zero points
  per_axis.VarInt(30).VarInt(1).VarInt(0).VarInt(1).VarInt(0).SignedVarInt(-128).SignedVarInt(127);
  per_axis.VarInt(2).SignedVarInt(static_cast<int64_t>(half)).SignedVarInt(static_cast<int64_t>(quarter));
  per_axis.VarInt(2).SignedVarInt(1).SignedVarInt(-2);
  type = QuantizedArgument(per_axis, {2, 3});
  ASSERT_TRUE(type.ok()) << type.status().message();
  EXPECT_EQ(*type, *frontend::ParseType("tensor<2x3x!quant.uniform<i8:f32:0, {5.000000e-01:1, 2.500000e-01:-2}>>"))
      << type->ToString();

  Bytes broken;  // two scales, one zero point
  broken.VarInt(30).VarInt(1).VarInt(0).VarInt(1).VarInt(0).SignedVarInt(-128).SignedVarInt(127);
  broken.VarInt(2).SignedVarInt(static_cast<int64_t>(half)).SignedVarInt(static_cast<int64_t>(quarter));
  broken.VarInt(1).SignedVarInt(1);
  type = QuantizedArgument(broken, {2, 3});
  ASSERT_FALSE(type.ok());
  EXPECT_NE(type.status().message().find("a per-axis quantized type with 2 scales and 1 zero points"), std::string::npos)
      << type.status().message();
}

// custom_call_v1 upgraded (no result tilings), its defaults dropped, the typed-FFI backend
// config and API version kept as the text parser reads them.
TEST(Reader, CustomCallAsTheTextParserReadsIt) {
  testing::MinimalModule m = testing::MakeMinimalModule();
  testing::BytecodeWriter& w = m.writer;
  const uint64_t custom_call = w.OpName("vhlo", "custom_call_v1");
  const uint64_t si32 = w.Type("vhlo", Bytes().VarInt(13));
  const uint64_t key = w.Attribute("vhlo", Bytes().VarInt(14).VarInt(w.String("k")));
  const uint64_t one = w.Attribute("vhlo", Bytes().VarInt(9).VarInt(si32).SignedVarInt(1));
  const uint64_t alias = w.Attribute("vhlo", Bytes().VarInt(10).VarInt(1).SignedVarInt(0).SignedVarInt(0).VarInt(0));
  // Sorted: api_version, backend_config, call_target_name, called_computations, has_side_effect,
  // operand_layouts, output_operand_aliases, result_layouts.
  const uint64_t properties = w.Properties(
      Bytes()
          .VarInt(w.Attribute("vhlo", Bytes().VarInt(5).VarInt(4)))
          .VarInt(w.Attribute("vhlo", Bytes().VarInt(6).VarInt(1).VarInt(key).VarInt(one)))
          .VarInt(w.Attribute("vhlo", Bytes().VarInt(14).VarInt(w.String("my.target"))))
          .VarInt(m.empty_array)
          .VarInt(w.Attribute("vhlo", Bytes().VarInt(2).VarInt(1)))
          .VarInt(m.empty_array)
          .VarInt(w.Attribute("vhlo", Bytes().VarInt(1).VarInt(1).VarInt(alias)))
          .VarInt(m.empty_array));
  Bytes ops;
  ops.VarInt(custom_call).Byte(0x42).VarInt(m.unknown_location).VarInt(properties).VarInt(1).VarInt(m.scalar);
  ops.VarInt(m.return_op).Byte(0x04).VarInt(m.unknown_location).VarInt(1).VarInt(0);
  auto module = Read(w.Finish(m.Ir(&ops, 2, 1)));
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto text = frontend::ParseModule(R"(
    func.func @main() -> tensor<f32> {
      %0 = stablehlo.custom_call @my.target() {api_version = 4 : i32, backend_config = {k = 1 : i32}, has_side_effect = true,
        output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>]} : () -> tensor<f32>
      return %0 : tensor<f32>
    })");
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(ir::PrintModule(**module), ir::PrintModule(**text));
}

// A real jax.export artifact cut at every length, and with every byte flipped: errors or
// modules, never a crash (the fuzzer explores further).
TEST(Reader, EveryTruncationAndByteFlipOfARealArtifact) {
  const std::string text = testing::ReadFile(std::filesystem::path(VKHLO_BYTECODE_MODELS_DIR) / "mlp_forward.mlirbc");
  const std::vector<uint8_t> file(text.begin(), text.end());
  ASSERT_GT(file.size(), 100u);
  ASSERT_TRUE(Read(file).ok());
  for (size_t n = 0; n < file.size(); ++n) {
    auto module = Read(std::vector<uint8_t>(file.begin(), file.begin() + n));
    EXPECT_FALSE(module.ok()) << "a prefix of " << n << " bytes reads";
    if (!module.ok()) {
      EXPECT_NE(module.status().message().find("byte "), std::string::npos) << module.status().message();
    }
  }
  for (size_t i = 0; i < file.size(); ++i) {
    std::vector<uint8_t> flipped = file;
    flipped[i] ^= 0xFF;
    (void)Read(flipped);
  }
}

TEST(Reader, LocationsOfAJaxExport) {
  const std::string text = testing::ReadFile(std::filesystem::path(VKHLO_BYTECODE_MODELS_DIR) / "mlp_forward.mlirbc");
  auto module = frontend::ParseProgram(text, {.source_name = "mlp_forward.mlirbc"});
  ASSERT_TRUE(module.ok()) << module.status().message();
  // Positions are in the exporting Python file; the module is named after it.
  EXPECT_TRUE((*module)->source_name().ends_with("export_models.py")) << (*module)->source_name();
  int located = 0;
  for (const auto& op : (*module)->functions()[0]->body().front().operations()) located += op->location().known();
  EXPECT_GT(located, 0);
}

}  // namespace
}  // namespace vkhlo
