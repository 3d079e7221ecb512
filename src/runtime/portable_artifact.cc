// The public view of the bytecode reader (include/vkhlo/portable_artifact.h).
#include "vkhlo/portable_artifact.h"

#include "frontend/bytecode/reader.h"

namespace vkhlo {
namespace {

StableHloVersion Public(const frontend::bytecode::Version& v) { return StableHloVersion{v.major, v.minor, v.patch}; }

}  // namespace

std::string StableHloVersion::ToString() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

StableHloVersion PortableArtifactOldestVersion() { return Public(frontend::bytecode::kOldestVersion); }
StableHloVersion PortableArtifactNewestVersion() { return Public(frontend::bytecode::kNewestVersion); }

bool IsPortableArtifact(std::span<const uint8_t> program) { return frontend::bytecode::IsMlirBytecode(program); }

StatusOr<PortableArtifactInfo> InspectPortableArtifact(std::span<const uint8_t> program) {
  VKHLO_ASSIGN_OR_RETURN(frontend::bytecode::ArtifactHeader header, frontend::bytecode::ReadArtifactHeader(program));
  PortableArtifactInfo info;
  info.bytecode_version = header.bytecode_version;
  info.producer = std::move(header.producer);
  if (header.stablehlo_version) info.stablehlo_version = Public(*header.stablehlo_version);
  return info;
}

}  // namespace vkhlo
