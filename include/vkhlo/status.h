// Status and StatusOr<T>: how every fallible vkhlo call reports failure.
//
// Modeled on absl::Status / XLA's Status so that XLA users feel at home: a code, a message
// that says where and what, and context added as an error travels up. vkhlo never throws
// across its API and never exits the process on bad input; it returns one of these.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace vkhlo {

// The canonical codes (same numbering as absl/grpc, so they map one to one).
enum class StatusCode : int {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message);

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  std::string message() const { return message_; }
  const std::string& message_ref() const { return message_; }

  // "INVALID_ARGUMENT: message", or "OK".
  std::string ToString() const;

  // Returns this status with "context: " prepended to the message (no-op when OK).
  Status WithContext(std::string_view context) const;

  // Explicitly drops a status whose failure does not matter to the caller.
  void IgnoreError() const {}

  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.message_ == b.message_;
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }
Status CancelledError(std::string message);
Status UnknownError(std::string message);
Status InvalidArgumentError(std::string message);
Status NotFoundError(std::string message);
Status AlreadyExistsError(std::string message);
Status ResourceExhaustedError(std::string message);
Status FailedPreconditionError(std::string message);
Status OutOfRangeError(std::string message);
Status UnimplementedError(std::string message);
Status InternalError(std::string message);
Status UnavailableError(std::string message);
Status DataLossError(std::string message);

namespace internal {
// Called when value() is used on an error: a programming error, reported and aborted.
[[noreturn]] void DieOnBadStatusOrAccess(const Status& status);
}  // namespace internal

// Either a T or a non-OK Status.
template <typename T>
class [[nodiscard]] StatusOr {
  static_assert(!std::is_same_v<std::remove_cvref_t<T>, Status>, "StatusOr<Status> is not allowed");

 public:
  // A default-constructed StatusOr holds an UNKNOWN error (as absl's does).
  StatusOr() : storage_(Status(StatusCode::kUnknown, "uninitialized StatusOr")) {}
  StatusOr(const Status& status) : storage_(status) { CheckNotOk(); }  // NOLINT(implicit)
  StatusOr(Status&& status) : storage_(std::move(status)) { CheckNotOk(); }  // NOLINT
  StatusOr(const T& value) : storage_(value) {}  // NOLINT
  StatusOr(T&& value) : storage_(std::move(value)) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Status> &&
                                                    !std::is_same_v<std::decay_t<U>, StatusOr>>>
  StatusOr(U&& value) : storage_(T(std::forward<U>(value))) {}  // NOLINT

  bool ok() const { return storage_.index() == 1; }

  Status status() const& { return ok() ? Status() : std::get<0>(storage_); }
  Status status() && { return ok() ? Status() : std::move(std::get<0>(storage_)); }

  T& value() & {
    EnsureOk();
    return std::get<1>(storage_);
  }
  const T& value() const& {
    EnsureOk();
    return std::get<1>(storage_);
  }
  T&& value() && {
    EnsureOk();
    return std::move(std::get<1>(storage_));
  }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  template <typename U>
  T value_or(U&& fallback) const& {
    return ok() ? std::get<1>(storage_) : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  void CheckNotOk() {
    if (std::get<0>(storage_).ok()) {
      storage_ = Status(StatusCode::kInternal, "StatusOr constructed from an OK Status");
    }
  }
  void EnsureOk() const {
    if (!ok()) internal::DieOnBadStatusOrAccess(std::get<0>(storage_));
  }

  std::variant<Status, T> storage_;
};

}  // namespace vkhlo

#define VKHLO_STATUS_CONCAT_INNER_(a, b) a##b
#define VKHLO_STATUS_CONCAT_(a, b) VKHLO_STATUS_CONCAT_INNER_(a, b)

// Returns the status of `expr` from the enclosing function if it is not OK.
#define VKHLO_RETURN_IF_ERROR(expr)                        \
  do {                                                     \
    ::vkhlo::Status vkhlo_status_ = (expr);                \
    if (!vkhlo_status_.ok()) return vkhlo_status_;        \
  } while (0)

// `lhs = value of expr`, or returns its status from the enclosing function.
#define VKHLO_ASSIGN_OR_RETURN(lhs, expr) \
  VKHLO_ASSIGN_OR_RETURN_IMPL_(VKHLO_STATUS_CONCAT_(vkhlo_statusor_, __LINE__), lhs, expr)
#define VKHLO_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return std::move(tmp).status();     \
  lhs = std::move(tmp).value()
