#include "frontend/bytecode/program.h"

#include <algorithm>

#include "frontend/bytecode/reader.h"
#include "plan/format.h"

namespace vkhlo::frontend {
namespace {

std::span<const uint8_t> AsBytes(std::string_view contents) {
  return {reinterpret_cast<const uint8_t*>(contents.data()), contents.size()};
}

}  // namespace

bool IsBytecode(std::string_view contents) { return bytecode::IsMlirBytecode(AsBytes(contents)); }

bool IsCompiledPlan(std::string_view contents) {
  const std::span<const uint8_t> bytes = AsBytes(contents);
  return bytes.size() >= plan::format::kMagic.size() && std::equal(plan::format::kMagic.begin(), plan::format::kMagic.end(), bytes.begin());
}

StatusOr<std::unique_ptr<ir::Module>> ParseProgram(std::string_view contents, const ParseOptions& options) {
  // A compiled plan handed where a program goes gets told what it is, not "unexpected byte".
  if (IsCompiledPlan(contents)) {
    return InvalidArgumentError(
        options.source_name +
        ": this is a compiled plan (.vkx, from vkhlo-compile or Executable::Serialize), not a program: load it "
        "with Client::LoadExecutable (vkhlo-run runs it), or compile the program it was made from");
  }
  if (!IsBytecode(contents)) return ParseModule(contents, options);
  bytecode::ReadOptions read;
  read.source_name = options.source_name;
  return bytecode::ReadPortableArtifact(AsBytes(contents), read);
}

}  // namespace vkhlo::frontend
