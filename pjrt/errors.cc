// PJRT_Error: creation from vkhlo Statuses, the Error_* entry points, and the last line of
// defence against exceptions (Guard, errors.h).
#include "pjrt/errors.h"

#include <fmt/format.h>

namespace vkhlo::pjrt {

PJRT_Error* OutOfMemoryError() {
  static PJRT_Error error{ResourceExhaustedError("the vkhlo PJRT plugin ran out of host memory")};
  return &error;
}

PJRT_Error* MakeError(Status status) noexcept {
  if (status.ok()) return nullptr;
  try {
    return new PJRT_Error{std::move(status)};
  } catch (...) {
    return OutOfMemoryError();
  }
}

Status StatusFromCurrentException(std::string_view function) {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return ResourceExhaustedError(fmt::format("{}: out of host memory", function));
  } catch (const std::exception& e) {
    return InternalError(fmt::format("{}: {}", function, e.what()));
  } catch (...) {
    return InternalError(fmt::format("{}: an unknown exception", function));
  }
}

Status RequireNonNull(const void* pointer, std::string_view function, std::string_view what) {
  if (pointer != nullptr) return OkStatus();
  return InvalidArgumentError(fmt::format("{}: {} is null", function, what));
}

Status CheckArgs(const void* args, size_t struct_size, size_t expected, std::string_view function) {
  if (args == nullptr) return InvalidArgumentError(fmt::format("{}: args is null", function));
  if (struct_size < expected) {
    return InvalidArgumentError(fmt::format(
        "{}: args.struct_size is {}, expected at least {} (the caller was built against an older PJRT C API "
        "than the plugin's {}.{})",
        function, struct_size, expected, PJRT_API_MAJOR, PJRT_API_MINOR));
  }
  return OkStatus();
}

void ErrorDestroy(PJRT_Error_Destroy_Args* args) {
  if (args == nullptr || args->error == nullptr || args->error == OutOfMemoryError()) return;
  delete args->error;
}

void ErrorMessage(PJRT_Error_Message_Args* args) {
  if (args == nullptr) return;
  if (args->error == nullptr) {
    args->message = "";
    args->message_size = 0;
    return;
  }
  const std::string& message = args->error->status.message_ref();
  args->message = message.data();
  args->message_size = message.size();
}

PJRT_Error* ErrorGetCode(PJRT_Error_GetCode_Args* args) {
  return Guard("PJRT_Error_GetCode", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Error_GetCode_Args, "PJRT_Error_GetCode");
    VKHLO_RETURN_IF_ERROR(RequireNonNull(args->error, "PJRT_Error_GetCode", "error"));
    // vkhlo's StatusCode and PJRT_Error_Code are both absl's numbering (1 CANCELLED ... 15).
    args->code = static_cast<PJRT_Error_Code>(static_cast<int>(args->error->status.code()));
    return OkStatus();
  });
}

}  // namespace vkhlo::pjrt
