// The one symbol libvkhlo_pjrt.so exports (exports.map): the framework dlopens the plugin,
// looks up GetPjrtApi and takes every function from the table it returns.
#include "pjrt/api_table.h"

extern "C" __attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi() { return vkhlo::pjrt::PluginApi(); }
