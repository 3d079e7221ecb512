// StableHLO portable artifacts: VHLO in MLIR bytecode, what jax.export writes
// (Exported.mlir_module_serialized), stablehlo.serialize_portable_artifact and
// stablehlo-translate --serialize produce, and JAX hands a PJRT plugin to compile.
//
// Client::CompileStableHlo takes them as it takes text (runtime.h); these calls say what vkhlo
// reads and what an artifact's header says, without compiling anything — e.g. for a PJRT
// plugin's `stablehlo_current_version`, so that JAX serializes for a version vkhlo reads.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "vkhlo/status.h"

namespace vkhlo {

struct StableHloVersion {
  int major = 0, minor = 0, patch = 0;
  std::string ToString() const;  // "1.15.0"
  friend bool operator==(const StableHloVersion&, const StableHloVersion&) = default;
};

// The StableHLO versions whose artifacts vkhlo reads: 0.9.0 (MLIR bytecode version 0) to
// 1.20.0 (bytecode version 6). A newer artifact is read too when it holds nothing vkhlo does
// not know; otherwise the error names what and both versions.
StableHloVersion PortableArtifactOldestVersion();
StableHloVersion PortableArtifactNewestVersion();

// True when `program` is MLIR bytecode (its magic bytes "ML\xEFR"), not text.
bool IsPortableArtifact(std::span<const uint8_t> program);

struct PortableArtifactInfo {
  uint64_t bytecode_version = 0;                       // MLIR bytecode version, 0 to 6
  std::string producer;                                // "StableHLO_v1.15.0"; "MLIR..." for plain bytecode
  std::optional<StableHloVersion> stablehlo_version;   // from a "StableHLO_v" producer
};
// Reads only the header: INVALID_ARGUMENT when `program` is not MLIR bytecode.
StatusOr<PortableArtifactInfo> InspectPortableArtifact(std::span<const uint8_t> program);

}  // namespace vkhlo
