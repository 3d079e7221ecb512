#include "tests/benchmarks/generated_artifact.h"

#include <algorithm>

#include "tests/frontend/bytecode/bytecode_writer.h"

namespace vkhlo::testing {

std::vector<uint8_t> HexConstantArtifact(uint64_t text_bytes, uint64_t elements_per_constant) {
  // The text generator's sizes and values (generated_programs.cc).
  const uint64_t per_constant_text = elements_per_constant * 8 + 100;
  const uint64_t constants = std::max<uint64_t>(1, text_bytes / per_constant_text);
  BytecodeWriter w;
  w.Dialect("builtin");
  w.Dialect("vhlo");
  const uint64_t module_op = w.OpName("builtin", "module"), func_op = w.OpName("vhlo", "func_v1"),
                 constant_op = w.OpName("vhlo", "constant_v1"), add_op = w.OpName("vhlo", "add_v1"),
                 return_op = w.OpName("vhlo", "return_v1");
  const uint64_t location = w.Attribute("builtin", Bytes().VarInt(15));
  const uint64_t module_name = w.Attribute("builtin", Bytes().VarInt(2).VarInt(w.String("generated")));
  const uint64_t f32 = w.Type("vhlo", Bytes().VarInt(4));
  const uint64_t tensor = w.Type("vhlo", Bytes().VarInt(20).VarInt(1).SignedVarInt(static_cast<int64_t>(elements_per_constant)).VarInt(f32));
  const uint64_t function = w.Type("vhlo", Bytes().VarInt(8).VarInt(0).VarInt(1).VarInt(tensor));
  const uint64_t empty = w.Attribute("vhlo", Bytes().VarInt(1).VarInt(0));
  const uint64_t type = w.Attribute("vhlo", Bytes().VarInt(17).VarInt(function));
  const uint64_t name = w.Attribute("vhlo", Bytes().VarInt(14).VarInt(w.String("main")));
  const uint64_t visibility = w.Attribute("vhlo", Bytes().VarInt(14).VarInt(w.String("public")));
  const uint64_t module_properties = w.Properties(Bytes().VarIntWithFlag(module_name, true).VarIntWithFlag(0, false));
  const uint64_t func_properties =
      w.Properties(Bytes().VarInt(empty).VarInt(type).VarInt(empty).VarInt(name).VarInt(visibility));
  Bytes body;
  uint32_t x = 12345;
  std::vector<uint8_t> data(elements_per_constant * 4);
  for (uint64_t c = 0; c < constants; ++c) {
    for (uint8_t& byte : data) {
      x = x * 1664525u + 1013904223u;
      byte = static_cast<uint8_t>((((x >> 24) & 15) << 4) | ((x >> 16) & 15));
    }
    const uint64_t value = w.Attribute("vhlo", Bytes().VarInt(15).VarInt(tensor).Blob(data));
    const uint64_t properties = w.Properties(Bytes().VarInt(value));
    body.VarInt(constant_op).Byte(0x42).VarInt(location).VarInt(properties).VarInt(1).VarInt(tensor);
  }
  // %sum0 = add %c0, %c0; %sum<i> = add %sum<i-1>, %c<i>; return %sum<last>.
  for (uint64_t c = 0; c < constants; ++c) {
    body.VarInt(add_op).Byte(0x06).VarInt(location).VarInt(1).VarInt(tensor).VarInt(2);
    body.VarInt(c == 0 ? 0 : constants + c - 1).VarInt(c);
  }
  body.VarInt(return_op).Byte(0x04).VarInt(location).VarInt(1).VarInt(2 * constants - 1);
  Bytes function_region;
  function_region.VarInt(1).VarInt(2 * constants).VarIntWithFlag(2 * constants + 1, false).Raw(body.data());
  return w.Finish(ModuleOfOneFunction(module_op, module_properties, func_op, func_properties, location, function_region));
}

}  // namespace vkhlo::testing
