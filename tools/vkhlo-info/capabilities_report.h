// Renders DeviceCapabilities for people (text) and for scripts (JSON).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "device/capabilities.h"

namespace vkhlo::tools {

std::string CapabilitiesText(const device::DeviceCapabilities& caps);
nlohmann::json CapabilitiesJson(const device::DeviceCapabilities& caps);

}  // namespace vkhlo::tools
