// Status and Result<T>: how every rockpoint call reports failure.
//
// Errors are values. A Status is ok or carries a code and a message that names
// the offending field or key. Result<T> holds either a T or a non-ok Status.
// Foreign statuses (RocksDB, SQLite, msgpack exceptions) are translated into a
// Status once, at the boundary of the component that calls them.
//
// Thread-safety: Status and Result are values; distinct objects may be used
// from different threads without synchronization.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace rockpoint {

// Persisted in no format; the numbering only orders severity for humans.
enum class StatusCode {
  kOk = 0,
  kNotFound = 1,
  kInvalidArgument = 2,
  kCorruption = 3,
  kIOError = 4,
  kBusy = 5,          // e.g. the store is locked by another process.
  kAborted = 6,       // e.g. the operation was cancelled or the store closed.
  kNotSupported = 7,  // the store's backend has no such capability.
};

class [[nodiscard]] Status {
 public:
  // An ok status.
  Status() = default;

  static Status OK() { return Status(); }
  static Status NotFound(std::string message) {
    return Status(StatusCode::kNotFound, std::move(message));
  }
  static Status InvalidArgument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  }
  static Status Corruption(std::string message) {
    return Status(StatusCode::kCorruption, std::move(message));
  }
  static Status IOError(std::string message) {
    return Status(StatusCode::kIOError, std::move(message));
  }
  static Status Busy(std::string message) {
    return Status(StatusCode::kBusy, std::move(message));
  }
  static Status NotSupported(std::string message) {
    return Status(StatusCode::kNotSupported, std::move(message));
  }
  static Status Aborted(std::string message) {
    return Status(StatusCode::kAborted, std::move(message));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  bool IsNotFound() const { return code_ == StatusCode::kNotFound; }
  bool IsInvalidArgument() const {
    return code_ == StatusCode::kInvalidArgument;
  }
  bool IsCorruption() const { return code_ == StatusCode::kCorruption; }
  bool IsIOError() const { return code_ == StatusCode::kIOError; }
  bool IsBusy() const { return code_ == StatusCode::kBusy; }
  bool IsAborted() const { return code_ == StatusCode::kAborted; }
  bool IsNotSupported() const { return code_ == StatusCode::kNotSupported; }

  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "OK" or "<Code>: <message>", e.g. "InvalidArgument: thread_id is missing".
  std::string ToString() const {
    if (ok()) return "OK";
    return std::string(CodeName(code_)) + ": " + message_;
  }

  static const char* CodeName(StatusCode code) {
    switch (code) {
      case StatusCode::kOk:
        return "OK";
      case StatusCode::kNotFound:
        return "NotFound";
      case StatusCode::kInvalidArgument:
        return "InvalidArgument";
      case StatusCode::kCorruption:
        return "Corruption";
      case StatusCode::kIOError:
        return "IOError";
      case StatusCode::kBusy:
        return "Busy";
      case StatusCode::kAborted:
        return "Aborted";
      case StatusCode::kNotSupported:
        return "NotSupported";
    }
    return "Unknown";
  }

  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.message_ == b.message_;
  }

 private:
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a value or a non-ok Status.
// REQUIRES: a Result is never constructed from an ok Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : state_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(state_).ok());
  }

  bool ok() const { return std::holds_alternative<T>(state_); }

  // The error, or OK when a value is held.
  Status status() const {
    return ok() ? Status::OK() : std::get<Status>(state_);
  }

  // REQUIRES: ok().
  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace rockpoint

#define RP_CONCAT_INNER_(a, b) a##b
#define RP_CONCAT_(a, b) RP_CONCAT_INNER_(a, b)

// Returns the Status of `expr` from the enclosing function if it is not ok.
#define RP_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::rockpoint::Status rp_status_ = (expr); \
    if (!rp_status_.ok()) return rp_status_; \
  } while (0)

// Evaluates `expr` (a Result<T>); on error returns its Status, otherwise
// moves the value into `lhs` (a declaration or an lvalue).
#define RP_ASSIGN_OR_RETURN(lhs, expr) \
  RP_ASSIGN_OR_RETURN_IMPL_(RP_CONCAT_(rp_result_, __LINE__), lhs, expr)
#define RP_ASSIGN_OR_RETURN_IMPL_(result, lhs, expr) \
  auto result = (expr);                              \
  if (!result.ok()) return result.status();          \
  lhs = std::move(result).value()
