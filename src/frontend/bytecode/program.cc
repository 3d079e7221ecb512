#include "frontend/bytecode/program.h"

#include "frontend/bytecode/reader.h"

namespace vkhlo::frontend {
namespace {

std::span<const uint8_t> AsBytes(std::string_view contents) {
  return {reinterpret_cast<const uint8_t*>(contents.data()), contents.size()};
}

}  // namespace

bool IsBytecode(std::string_view contents) { return bytecode::IsMlirBytecode(AsBytes(contents)); }

StatusOr<std::unique_ptr<ir::Module>> ParseProgram(std::string_view contents, const ParseOptions& options) {
  if (!IsBytecode(contents)) return ParseModule(contents, options);
  bytecode::ReadOptions read;
  read.source_name = options.source_name;
  return bytecode::ReadPortableArtifact(AsBytes(contents), read);
}

}  // namespace vkhlo::frontend
