// What the plugin needs to know of a program before running it, read from its parsed module:
// the entry function's parameter and result types (PJRT asks for the outputs' count, types and
// dimensions at compile time, and output buffers are typed before the execution that fills
// them has run), which parameters JAX donated, and the program's name. Programs the plugin
// cannot run as PJRT expects are refused here with a clear error: tokens at the entry (JAX's
// ordered effects), tuple parameters, several partitions or replicas.
#pragma once

#include <string>
#include <vector>

#include "ir/module.h"
#include "vkhlo/runtime.h"
#include "vkhlo/status.h"
#include "xla/pjrt/c/pjrt_c_api.h"

namespace vkhlo::pjrt {

struct ProgramSignature {
  std::string name;  // the module's ("jit_f"), else the entry's
  std::vector<TensorType> parameters;
  std::vector<PJRT_Buffer_Type> parameter_element_types;
  // Results as Execute returns them: tuples flattened in order.
  std::vector<TensorType> results;
  std::vector<PJRT_Buffer_Type> result_element_types;
  // Parameters whose buffers the program may take over: `tf.aliasing_output` (JAX's donation
  // with a result of the same type) or `jax.buffer_donor`.
  std::vector<bool> donated;
};

StatusOr<ProgramSignature> ReadProgramSignature(const ir::Module& module, std::string_view entry = "main");

}  // namespace vkhlo::pjrt
