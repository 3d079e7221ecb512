// What Client::Compile takes: one program, written as StableHLO text, as a portable artifact
// (VHLO in MLIR bytecode: jax.export's mlir_module_serialized, stablehlo's portable artifacts, a
// PJRT compile call's code) or built with XlaBuilder (an XlaComputation). Text and bytecode are
// told apart by the bytecode's magic bytes, so a caller holding bytes of either kind need not
// know which.
//
//   client.Compile(text);                       // std::string / std::string_view / const char*
//   client.Compile(bytes);                      // std::span<const uint8_t> or std::vector<uint8_t>
//   client.Compile(computation, options);       // an XlaComputation
//
// A ProgramSource refers to the caller's text, bytes or computation; it is meant to be built
// where Compile is called (its argument), not kept.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vkhlo {

class XlaComputation;

class ProgramSource {
 public:
  ProgramSource(std::string_view text_or_bytecode) : program_(text_or_bytecode) {}
  ProgramSource(const char* text) : program_(text) {}
  ProgramSource(const std::string& text_or_bytecode) : program_(text_or_bytecode) {}
  ProgramSource(std::span<const uint8_t> bytes)
      : program_(reinterpret_cast<const char*>(bytes.data()), bytes.size()) {}
  ProgramSource(const std::vector<uint8_t>& bytes) : ProgramSource(std::span<const uint8_t>(bytes)) {}
  ProgramSource(const XlaComputation& computation) : computation_(&computation) {}

  // Set for a built computation; otherwise the program's text or bytecode is `program()`.
  const XlaComputation* computation() const { return computation_; }
  std::string_view program() const { return program_; }

 private:
  std::string_view program_;
  const XlaComputation* computation_ = nullptr;
};

}  // namespace vkhlo
