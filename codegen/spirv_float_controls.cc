#include "codegen/spirv_float_controls.h"

#include <spirv/unified1/spirv.h>

#include <algorithm>
#include <cstring>
#include <string_view>

namespace vkhlo::codegen {
namespace {

constexpr uint32_t kHeaderWords = 5;
constexpr std::string_view kExtension = "SPV_KHR_float_controls";

uint32_t Opcode(uint32_t word) { return word & 0xFFFFu; }
uint32_t WordCount(uint32_t word) { return word >> 16; }

// One instruction: its offset in the module and its words.
struct Instruction {
  size_t offset = 0;
  std::span<const uint32_t> words;
  uint32_t opcode() const { return Opcode(words[0]); }
};

StatusOr<std::vector<Instruction>> Instructions(std::span<const uint32_t> module) {
  if (module.size() < kHeaderWords || module[0] != SpvMagicNumber) {
    return InvalidArgumentError("float controls: not a SPIR-V module");
  }
  std::vector<Instruction> out;
  for (size_t at = kHeaderWords; at < module.size();) {
    const uint32_t count = WordCount(module[at]);
    if (count == 0 || at + count > module.size()) {
      return InvalidArgumentError("float controls: a malformed instruction at word " + std::to_string(at));
    }
    out.push_back({at, module.subspan(at, count)});
    at += count;
  }
  return out;
}

std::vector<uint32_t> Encode(uint32_t opcode, std::initializer_list<uint32_t> operands) {
  std::vector<uint32_t> words{((static_cast<uint32_t>(operands.size()) + 1) << 16) | opcode};
  words.insert(words.end(), operands);
  return words;
}

// OpExtension with a nul-terminated, zero-padded literal string.
std::vector<uint32_t> EncodeExtension(std::string_view name) {
  const size_t string_words = name.size() / 4 + 1;
  std::vector<uint32_t> words(1 + string_words, 0u);
  words[0] = (static_cast<uint32_t>(words.size()) << 16) | SpvOpExtension;
  for (size_t i = 0; i < name.size(); ++i) {
    words[1 + i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(name[i])) << (8 * (i % 4));
  }
  return words;
}

std::string_view ExtensionName(const Instruction& inst) {
  const auto* bytes = reinterpret_cast<const char*>(inst.words.data() + 1);
  const size_t max = (inst.words.size() - 1) * 4;
  return std::string_view(bytes, strnlen(bytes, max));
}

}  // namespace

StatusOr<std::vector<uint32_t>> AddFloatControls(std::span<const uint32_t> module, const FloatControls& controls) {
  VKHLO_ASSIGN_OR_RETURN(std::vector<Instruction> instructions, Instructions(module));
  bool float16 = false, float64 = false, has_extension = false;
  std::vector<uint32_t> capabilities;
  uint32_t entry = 0;
  bool has_entry = false;
  size_t after_capabilities = kHeaderWords, after_extensions = kHeaderWords, after_modes = 0;
  for (const Instruction& inst : instructions) {
    const uint32_t end = static_cast<uint32_t>(inst.offset + inst.words.size());
    switch (inst.opcode()) {
      case SpvOpCapability:
        if (inst.words.size() < 2) break;
        capabilities.push_back(inst.words[1]);
        float16 |= inst.words[1] == SpvCapabilityFloat16;
        float64 |= inst.words[1] == SpvCapabilityFloat64;
        after_capabilities = after_extensions = end;
        break;
      case SpvOpExtension:
        has_extension |= ExtensionName(inst) == kExtension;
        after_extensions = end;
        break;
      case SpvOpEntryPoint:
        if (inst.words.size() >= 3 && inst.words[1] == SpvExecutionModelGLCompute && !has_entry) {
          entry = inst.words[2];
          has_entry = true;
          after_modes = end;
        }
        break;
      case SpvOpExecutionMode:
      case SpvOpExecutionModeId: after_modes = end; break;
      default: break;
    }
  }
  if (!has_entry) return InvalidArgumentError("float controls: the module has no GLCompute entry point");

  // (mode, width) pairs to declare, and the capabilities they need.
  std::vector<std::pair<uint32_t, uint32_t>> modes;
  auto want = [&](bool offered, bool used, uint32_t mode, uint32_t width) {
    if (offered && used) modes.emplace_back(mode, width);
  };
  want(controls.signed_zero_inf_nan_preserve_16, float16, SpvExecutionModeSignedZeroInfNanPreserve, 16);
  want(controls.signed_zero_inf_nan_preserve_32, true, SpvExecutionModeSignedZeroInfNanPreserve, 32);
  want(controls.signed_zero_inf_nan_preserve_64, float64, SpvExecutionModeSignedZeroInfNanPreserve, 64);
  want(controls.rounding_mode_rte_16, float16, SpvExecutionModeRoundingModeRTE, 16);
  want(controls.rounding_mode_rte_32, true, SpvExecutionModeRoundingModeRTE, 32);
  want(controls.rounding_mode_rte_64, float64, SpvExecutionModeRoundingModeRTE, 64);
  want(controls.denorm_preserve_16, float16, SpvExecutionModeDenormPreserve, 16);
  want(controls.denorm_preserve_32, true, SpvExecutionModeDenormPreserve, 32);
  want(controls.denorm_preserve_64, float64, SpvExecutionModeDenormPreserve, 64);
  if (modes.empty()) return std::vector<uint32_t>(module.begin(), module.end());

  std::vector<uint32_t> new_capabilities, new_extensions, new_modes;
  auto add_capability = [&](uint32_t capability) {
    if (std::find(capabilities.begin(), capabilities.end(), capability) != capabilities.end()) return;
    capabilities.push_back(capability);
    std::vector<uint32_t> words = Encode(SpvOpCapability, {capability});
    new_capabilities.insert(new_capabilities.end(), words.begin(), words.end());
  };
  for (const auto& [mode, width] : modes) {
    add_capability(mode == SpvExecutionModeSignedZeroInfNanPreserve ? SpvCapabilitySignedZeroInfNanPreserve
                   : mode == SpvExecutionModeDenormPreserve         ? SpvCapabilityDenormPreserve
                                                                    : SpvCapabilityRoundingModeRTE);
    std::vector<uint32_t> words = Encode(SpvOpExecutionMode, {entry, mode, width});
    new_modes.insert(new_modes.end(), words.begin(), words.end());
  }
  const uint32_t version = module[1];
  if (!has_extension && version < 0x00010400u) new_extensions = EncodeExtension(kExtension);

  // Logical layout: capabilities, extensions, ..., entry points, execution modes, ...
  std::vector<uint32_t> out;
  out.reserve(module.size() + new_capabilities.size() + new_extensions.size() + new_modes.size());
  auto copy = [&](size_t from, size_t to) { out.insert(out.end(), module.begin() + from, module.begin() + to); };
  copy(0, after_capabilities);
  out.insert(out.end(), new_capabilities.begin(), new_capabilities.end());
  copy(after_capabilities, after_extensions);
  out.insert(out.end(), new_extensions.begin(), new_extensions.end());
  copy(after_extensions, after_modes);
  out.insert(out.end(), new_modes.begin(), new_modes.end());
  copy(after_modes, module.size());
  return out;
}

DeclaredFloatControls ReadFloatControls(std::span<const uint32_t> module) {
  DeclaredFloatControls declared;
  StatusOr<std::vector<Instruction>> instructions = Instructions(module);
  if (!instructions.ok()) return declared;
  for (const Instruction& inst : *instructions) {
    if (inst.opcode() != SpvOpExecutionMode || inst.words.size() < 4) continue;
    if (inst.words[2] == SpvExecutionModeSignedZeroInfNanPreserve) {
      declared.signed_zero_inf_nan_preserve.push_back(inst.words[3]);
    } else if (inst.words[2] == SpvExecutionModeRoundingModeRTE) {
      declared.rounding_mode_rte.push_back(inst.words[3]);
    } else if (inst.words[2] == SpvExecutionModeDenormPreserve) {
      declared.denorm_preserve.push_back(inst.words[3]);
    }
  }
  return declared;
}

}  // namespace vkhlo::codegen
