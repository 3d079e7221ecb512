// The plugin's PJRT_Api table (api_table.cc), built once: what GetPjrtApi returns. Tests that
// link the plugin's code directly use it the same way.
#pragma once

#include "xla/pjrt/c/pjrt_c_api.h"

namespace vkhlo::pjrt {

const PJRT_Api* PluginApi();

}  // namespace vkhlo::pjrt
