// CustomCallRegistry (include/vkhlo/custom_call.h): the targets a Client's compiles resolve.
// Registrations are immutable once added (shared with the executables compiled from them), so
// replacing a target never changes a running program.
#include <fmt/format.h>

#include "runtime/state.h"
#include "vkhlo/custom_call.h"
#include "vkhlo/runtime.h"

namespace vkhlo {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;

Status CheckName(std::string_view target) {
  if (target.empty()) return InvalidArgumentError("custom_call target names must not be empty");
  if (target.starts_with("check.")) {
    return InvalidArgumentError(fmt::format(
        "custom_call target @{}: `check.*` targets are the test ops of StableHLO test programs and cannot be "
        "registered", target));
  }
  return OkStatus();
}

}  // namespace

Status CustomCallRegistry::RegisterKernel(std::string target, CustomCallKernel kernel) {
  VKHLO_RETURN_IF_ERROR(CheckName(target));
  if (kernel.spirv.size() < 5 || kernel.spirv[0] != kSpirvMagic) {
    return InvalidArgumentError(fmt::format("custom_call target @{}: the kernel is not a SPIR-V module (no magic "
                                            "number 0x07230203 in its first word)", target));
  }
  if (!kernel.launch) {
    return InvalidArgumentError(fmt::format("custom_call target @{}: the kernel has no `launch` function", target));
  }
  return Add(CustomCallTarget{std::move(target), std::move(kernel)});
}

Status CustomCallRegistry::RegisterHostCallback(std::string target, CustomCallHostFunction function,
                                                std::optional<CustomCallSignature> signature) {
  VKHLO_RETURN_IF_ERROR(CheckName(target));
  if (!function) return InvalidArgumentError(fmt::format("custom_call target @{}: no callback function", target));
  return Add(CustomCallTarget{std::move(target), CustomCallHostCallback{std::move(function), std::move(signature)}});
}

Status CustomCallRegistry::Add(CustomCallTarget target) {
  auto shared = std::make_shared<const CustomCallTarget>(std::move(target));
  std::lock_guard<std::mutex> lock(mutex_);
  targets_[shared->name] = std::move(shared);
  return OkStatus();
}

bool CustomCallRegistry::Unregister(std::string_view target) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = targets_.find(target);
  if (it == targets_.end()) return false;
  targets_.erase(it);
  return true;
}

bool CustomCallRegistry::Contains(std::string_view target) const { return Find(target) != nullptr; }

std::shared_ptr<const CustomCallTarget> CustomCallRegistry::Find(std::string_view target) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = targets_.find(target);
  return it == targets_.end() ? nullptr : it->second;
}

CustomCallRegistry& Client::custom_calls() const { return state_->custom_calls; }

}  // namespace vkhlo
