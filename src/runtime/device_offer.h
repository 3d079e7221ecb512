// What a device offers, in a plan's terms (plan/requirements.h DeviceOffer): the lowering
// checks a plan against the device it was compiled on with it, and a loader
// (Client::LoadExecutable, vkhlo-compile --describe) checks a file's requirements against the
// device it opens.
#pragma once

#include "device/capabilities.h"
#include "plan/requirements.h"

namespace vkhlo::runtime {

// What a device with capabilities `caps` (as its profile masks them) offers.
plan::DeviceOffer DeviceOfferOf(const device::DeviceCapabilities& caps);

}  // namespace vkhlo::runtime
