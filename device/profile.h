// Capability profiles: masks over a device's real capabilities.
//
// VKHLO_PROFILE=mobile makes a strong device (or lavapipe in CI) present itself as a weak phone
// GPU, so that the fallbacks vkhlo takes on such GPUs are tested everywhere. A profile only ever
// removes capabilities or lowers limits; it never claims more than the device has. The features
// vkhlo enables on the VkDevice are the masked ones, so validation layers catch any use of a
// masked-off feature.
//
//   native  the device as it is (default)
//   mobile  no f64, no i64 (arithmetic or atomics), no f16/i8 arithmetic, no 8/16-bit storage,
//           no cooperative matrix, no float atomics, no timeline semaphores (fences instead),
//           no buffer device address, 16 KiB shared memory, 128 invocations per
//           workgroup (and at most 128 x 128 x 64), maxStorageBufferRange 128 MiB, 128-byte push
//           constants, 256-byte storage offset alignment, subgroup operations limited to basic,
//           vote, ballot and arithmetic, and no subgroup size control
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "device/capabilities.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

enum class Profile { kNative, kMobile };

std::string_view ProfileName(Profile profile);

// Parses a profile name ("native", "mobile"); an unknown name is an error listing the choices.
StatusOr<Profile> ParseProfile(std::string_view name);

// The profile VKHLO_PROFILE asks for (native when unset).
StatusOr<Profile> ProfileFromEnvironment();

// The masked view of `caps` under `profile`, maxMemoryAllocationSize lowered to
// VKHLO_MAX_ALLOCATION_BYTES when set (tests of tensors split across allocations).
DeviceCapabilities ApplyProfile(const DeviceCapabilities& caps, Profile profile);

}  // namespace vkhlo::device
