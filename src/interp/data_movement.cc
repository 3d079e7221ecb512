// Data movement: ops that copy elements by their storage bytes, so one code path serves every
// element type (complex, i1, f8 and quantized storage included).
#include "interp/data_movement.h"

namespace vkhlo::interp {

void RegisterDataMovementOps(OpRegistry& registry) {
  RegisterLayoutOps(registry);
  RegisterSlicingOps(registry);
  RegisterGatherOps(registry);
  RegisterScatterOps(registry);
  RegisterSortOps(registry);
}

}  // namespace vkhlo::interp
