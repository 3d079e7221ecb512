#include "frontend/bytecode/reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "frontend/bytecode/attr_type_table.h"
#include "frontend/bytecode/container.h"
#include "frontend/bytecode/ir_walker.h"
#include "frontend/bytecode/module_builder.h"

namespace vkhlo::frontend::bytecode {
namespace {

constexpr std::string_view kStableHloProducer = "StableHLO_v";

// Plain MLIR bytecode (dialects other than vhlo) is not a portable artifact: say what it is.
Status NotAnArtifact(const BytecodeFile& file) {
  std::vector<std::string_view> dialects;
  for (std::string_view d : file.dialects) {
    if (d != "builtin") dialects.push_back(d);
  }
  return UnimplementedError(fmt::format(
      "this is plain MLIR bytecode (producer \"{}\", dialects {}), not a StableHLO portable artifact: vkhlo reads "
      "VHLO artifacts, as jax.export, stablehlo.serialize_portable_artifact and stablehlo-translate --serialize write "
      "them; serialize the module with one of those, or pass its StableHLO text",
      file.producer, dialects.empty() ? std::string("none") : fmt::format("{}", fmt::join(dialects, ", "))));
}

}  // namespace

bool IsMlirBytecode(std::span<const uint8_t> bytes) { return HasBytecodeMagic(bytes); }

StatusOr<ArtifactHeader> ReadArtifactHeader(std::span<const uint8_t> bytes) {
  ByteReader reader(bytes, bytes.data());
  VKHLO_ASSIGN_OR_RETURN(BytecodeHeader header, ReadHeader(reader));
  ArtifactHeader out;
  out.bytecode_version = header.version;
  out.producer = std::string(header.producer);
  if (header.producer.starts_with(kStableHloProducer)) {
    out.stablehlo_version = ParseVersion(header.producer.substr(kStableHloProducer.size()));
  }
  return out;
}

StatusOr<std::unique_ptr<ir::Module>> ReadPortableArtifact(std::span<const uint8_t> bytes, const ReadOptions& options) {
  const auto with_source = [&](const Status& status) { return status.WithContext(options.source_name); };
  StatusOr<BytecodeFile> file = ReadContainer(bytes);
  if (!file.ok()) return with_source(file.status());
  // Dialects beside builtin but no vhlo: plain MLIR bytecode (a portable artifact's other
  // dialects, check.* or chlo.*, only ever come beside VHLO).
  const bool has_vhlo = std::find(file->dialects.begin(), file->dialects.end(), "vhlo") != file->dialects.end();
  const bool has_others = std::any_of(file->dialects.begin(), file->dialects.end(),
                                      [](std::string_view d) { return d != "builtin" && d != "vhlo"; });
  if (!has_vhlo && has_others) return with_source(NotAnArtifact(*file));

  AttrTypeTable table(*file);
  ModuleBuilder builder(*file, table, options.source_name);
  Status walked = WalkIr(*file, table, builder);
  StatusOr<std::unique_ptr<ir::Module>> module =
      walked.ok() ? builder.Finish() : StatusOr<std::unique_ptr<ir::Module>>(walked);
  if (module.ok()) return module;
  Status status = module.status();
  // An artifact newer than vkhlo: say so beside what was not understood.
  if (file->producer.starts_with(kStableHloProducer)) {
    const auto version = ParseVersion(file->producer.substr(kStableHloProducer.size()));
    if (version && *version > kNewestVersion) {
      status = Status(status.code(), fmt::format("{} (the artifact was written for StableHLO {}; vkhlo reads {} to {}: "
                                                 "export for a version up to {})",
                                                 status.message(), version->ToString(), kOldestVersion.ToString(),
                                                 kNewestVersion.ToString(), kNewestVersion.ToString()));
    }
  }
  return with_source(status);
}

}  // namespace vkhlo::frontend::bytecode
