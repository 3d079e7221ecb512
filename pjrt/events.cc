// EventState and the PJRT_Event entry points.
#include "pjrt/events.h"

#include "pjrt/errors.h"

namespace vkhlo::pjrt {

std::shared_ptr<EventState> EventState::Ready(Status status) {
  auto event = std::make_shared<EventState>();
  event->Set(std::move(status));
  return event;
}

void EventState::Set(Status status) {
  std::vector<std::function<void(const Status&)>> callbacks;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ready_) return;
    ready_ = true;
    status_ = std::move(status);
    callbacks.swap(callbacks_);
  }
  ready_cv_.notify_all();
  // status_ no longer changes once ready_ is set: reading it unlocked is safe.
  for (auto& callback : callbacks) callback(status_);
}

bool EventState::IsReady() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ready_;
}

Status EventState::Wait() const {
  std::unique_lock<std::mutex> lock(mutex_);
  ready_cv_.wait(lock, [&] { return ready_; });
  return status_;
}

void EventState::OnReady(std::function<void(const Status&)> callback) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!ready_) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  callback(status_);
}

PJRT_Event* NewEvent(std::shared_ptr<EventState> state) { return new PJRT_Event{std::move(state)}; }

namespace {

Status RequireEvent(const PJRT_Event* event, std::string_view function) {
  if (event == nullptr || event->state == nullptr) return RequireNonNull(nullptr, function, "event");
  return OkStatus();
}

}  // namespace

PJRT_Error* EventDestroy(PJRT_Event_Destroy_Args* args) {
  return Guard("PJRT_Event_Destroy", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Event_Destroy_Args, "PJRT_Event_Destroy");
    delete args->event;  // pending work keeps its own reference to the state
    return OkStatus();
  });
}

PJRT_Error* EventIsReady(PJRT_Event_IsReady_Args* args) {
  return Guard("PJRT_Event_IsReady", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Event_IsReady_Args, "PJRT_Event_IsReady");
    VKHLO_RETURN_IF_ERROR(RequireEvent(args->event, "PJRT_Event_IsReady"));
    args->is_ready = args->event->state->IsReady();
    return OkStatus();
  });
}

// The event's own status is the returned error: the call itself cannot fail otherwise.
PJRT_Error* EventError(PJRT_Event_Error_Args* args) {
  return Guard("PJRT_Event_Error", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Event_Error_Args, "PJRT_Event_Error");
    VKHLO_RETURN_IF_ERROR(RequireEvent(args->event, "PJRT_Event_Error"));
    return args->event->state->Wait();
  });
}

PJRT_Error* EventAwait(PJRT_Event_Await_Args* args) {
  return Guard("PJRT_Event_Await", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Event_Await_Args, "PJRT_Event_Await");
    VKHLO_RETURN_IF_ERROR(RequireEvent(args->event, "PJRT_Event_Await"));
    return args->event->state->Wait();
  });
}

PJRT_Error* EventOnReady(PJRT_Event_OnReady_Args* args) {
  return Guard("PJRT_Event_OnReady", [&]() -> Status {
    VKHLO_PJRT_CHECK_ARGS(args, PJRT_Event_OnReady_Args, "PJRT_Event_OnReady");
    VKHLO_RETURN_IF_ERROR(RequireEvent(args->event, "PJRT_Event_OnReady"));
    VKHLO_RETURN_IF_ERROR(RequireNonNull(reinterpret_cast<const void*>(args->callback), "PJRT_Event_OnReady", "callback"));
    PJRT_Event_OnReadyCallback callback = args->callback;
    void* user_arg = args->user_arg;
    // The callback owns the error it is given (it calls PJRT_Error_Destroy).
    args->event->state->OnReady([callback, user_arg](const Status& status) { callback(MakeError(status), user_arg); });
    return OkStatus();
  });
}

}  // namespace vkhlo::pjrt
