// Errors of the PJRT plugin: a PJRT_Error carries a vkhlo Status (its code maps one to one onto
// PJRT_Error_Code, both being absl's numbering) and its message, vkhlo's own words. Guard runs
// an entry point's body so that nothing — a bad argument, an exception, memory running out —
// escapes into the framework as anything but a PJRT_Error: the plugin never ends the process
// it is loaded into.
#pragma once

#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "vkhlo/status.h"
#include "xla/pjrt/c/pjrt_c_api.h"

struct PJRT_Error {
  vkhlo::Status status;
};

namespace vkhlo::pjrt {

// Null for OK, else a new PJRT_Error the caller owns (PJRT_Error_Destroy).
PJRT_Error* MakeError(Status status) noexcept;

// A static out-of-memory error, for when there is no memory even for an error (never freed:
// ErrorDestroy knows it).
PJRT_Error* OutOfMemoryError();

// The status an exception escaping an entry point becomes.
Status StatusFromCurrentException(std::string_view function);

// Runs `body` (returning Status) as the entry point `function`.
template <typename Body>
PJRT_Error* Guard(std::string_view function, Body&& body) noexcept {
  try {
    return MakeError(body());
  } catch (...) {
    try {
      return MakeError(StatusFromCurrentException(function));
    } catch (...) {  // no memory even to format the message
      return OutOfMemoryError();
    }
  }
}

// INVALID_ARGUMENT "<function>: <what> is null" unless `pointer` is set.
Status RequireNonNull(const void* pointer, std::string_view function, std::string_view what);

// INVALID_ARGUMENT unless `args` is set and at least `expected` bytes long (the size of the
// struct this plugin was built with: a framework built against an older PJRT C API passes a
// shorter one).
Status CheckArgs(const void* args, size_t struct_size, size_t expected, std::string_view function);
#define VKHLO_PJRT_CHECK_ARGS(args, type, function) \
  VKHLO_RETURN_IF_ERROR(::vkhlo::pjrt::CheckArgs(args, (args) ? (args)->struct_size : 0, type##_STRUCT_SIZE, function))

void ErrorDestroy(PJRT_Error_Destroy_Args* args);
void ErrorMessage(PJRT_Error_Message_Args* args);
PJRT_Error* ErrorGetCode(PJRT_Error_GetCode_Args* args);

}  // namespace vkhlo::pjrt
