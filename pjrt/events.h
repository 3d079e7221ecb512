// Completion events of the PJRT plugin: a PJRT_Event is a shared EventState that becomes ready
// once, with a status, when the work it stands for ends — an execution on the client's
// executor (executor.h), a download, or nothing at all (events born ready for work done during
// the call). Waiting, polling and callbacks work from any thread.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "vkhlo/status.h"
#include "xla/pjrt/c/pjrt_c_api.h"

namespace vkhlo::pjrt {

class EventState {
 public:
  // An event already ready with `status`.
  static std::shared_ptr<EventState> Ready(Status status = OkStatus());
  static std::shared_ptr<EventState> Pending() { return std::make_shared<EventState>(); }

  // Makes the event ready (once; later calls are ignored) and runs the callbacks, outside the
  // lock, on the calling thread.
  void Set(Status status);
  bool IsReady() const;
  // Blocks until ready; the event's status.
  Status Wait() const;
  // Runs `callback(status)` when the event is ready: now, on this thread, if it already is.
  void OnReady(std::function<void(const Status&)> callback);

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable ready_cv_;
  bool ready_ = false;
  Status status_;
  std::vector<std::function<void(const Status&)>> callbacks_;
};

// A new PJRT_Event the caller owns (PJRT_Event_Destroy).
PJRT_Event* NewEvent(std::shared_ptr<EventState> state);

PJRT_Error* EventDestroy(PJRT_Event_Destroy_Args* args);
PJRT_Error* EventIsReady(PJRT_Event_IsReady_Args* args);
PJRT_Error* EventError(PJRT_Event_Error_Args* args);
PJRT_Error* EventAwait(PJRT_Event_Await_Args* args);
PJRT_Error* EventOnReady(PJRT_Event_OnReady_Args* args);

}  // namespace vkhlo::pjrt

struct PJRT_Event {
  std::shared_ptr<vkhlo::pjrt::EventState> state;
};
