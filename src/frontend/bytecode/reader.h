// StableHLO portable artifacts: VHLO in MLIR bytecode, as jax.export (mlir_module_serialized),
// stablehlo.serialize_portable_artifact, stablehlo-translate --serialize and PJRT's compile
// call write them. Read natively, into the same ir::Module vkhlo's text parser builds from the
// program's StableHLO text — no MLIR library, no Python.
//
// Reads MLIR bytecode versions 0 to 6 and VHLO as written for StableHLO 0.9.0 to 1.20.0
// (retired op versions upgraded). A newer artifact is read too when it uses nothing vkhlo does
// not know; otherwise the error names the op, attribute or type, the version the file was
// written for and the versions vkhlo reads.
//
// Errors carry the byte offset and what was expected there:
//   "model.mlirbc: byte 483: value 12 is out of range (the table has 9)"
// Any input returns a module or an error: never a crash, a hang, or memory out of proportion
// to the file (counts are checked against the bytes that could hold them).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "frontend/bytecode/vhlo_ops.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend::bytecode {

struct ReadOptions {
  std::string source_name = "<input>";  // for messages, and the module's name when it has no positions
};

// True when `bytes` start with MLIR bytecode's magic ("ML\xEFR").
bool IsMlirBytecode(std::span<const uint8_t> bytes);

// What an artifact's header says.
struct ArtifactHeader {
  uint64_t bytecode_version = 0;
  std::string producer;                       // "StableHLO_v1.15.0", "MLIR20.0.0git"
  std::optional<Version> stablehlo_version;   // from a "StableHLO_v" producer
};
StatusOr<ArtifactHeader> ReadArtifactHeader(std::span<const uint8_t> bytes);

StatusOr<std::unique_ptr<ir::Module>> ReadPortableArtifact(std::span<const uint8_t> bytes,
                                                           const ReadOptions& options = {});

}  // namespace vkhlo::frontend::bytecode
