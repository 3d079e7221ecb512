// testing::HexConstantModule's program (tests/support/generated_programs.h) as a StableHLO
// portable artifact, for the frontend benchmark's bytecode side: the same constants, adds and
// return, written as VHLO in MLIR bytecode version 6 (StableHLO 1.15.0) by the test writer.
#pragma once

#include <cstdint>
#include <vector>

namespace vkhlo::testing {

std::vector<uint8_t> HexConstantArtifact(uint64_t text_bytes, uint64_t elements_per_constant);

}  // namespace vkhlo::testing
