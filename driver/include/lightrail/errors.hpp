// The driver's exceptions. Every message says what failed and where (URI,
// address, JSON path or schedule entry), so a caller can print e.what() as is.
// Exceptions are values: safe to copy and to read from any thread.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lightrail/export.hpp"
#include "lightrail/validate.hpp"

namespace lightrail {

struct LIGHTRAIL_EXPORT Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The connection to a board failed: refused, timed out, dropped, or the board
// answered with an error or garbage.
struct LIGHTRAIL_EXPORT TransportError : Error {
  using Error::Error;
};

// Malformed input: schedule JSON, a URI, a capability block.
struct LIGHTRAIL_EXPORT FormatError : Error {
  explicit FormatError(std::vector<Problem> problems)
      : Error(to_string(problems)), problems_(std::move(problems)) {}
  FormatError(const std::string& context, std::vector<Problem> problems)
      : Error(context + ":\n" + to_string(problems)), problems_(std::move(problems)) {}
  explicit FormatError(const std::string& message) : Error(message) {}
  // Every problem found, when the input was parsed (empty otherwise).
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::vector<Problem> problems_;
};

// The schedule does not fit the board; nothing was written.
struct LIGHTRAIL_EXPORT ValidationError : Error {
  explicit ValidationError(std::vector<Problem> problems)
      : Error("schedule is not valid for this device:\n" + to_string(problems)),
        problems_(std::move(problems)) {}
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::vector<Problem> problems_;
};

// What the board holds differs from what was written.
struct LIGHTRAIL_EXPORT VerifyError : Error {
  using Error::Error;
};

// The board is busy with another writer's work (a commit armed on the bank
// this call would write): nothing was changed; retry later.
struct LIGHTRAIL_EXPORT BoardBusyError : Error {
  using Error::Error;
};

// Another writer holds the board's lease (or took it from this program):
// nothing was changed. owner() is the token holding it, 0 if none.
struct LIGHTRAIL_EXPORT LeaseError : BoardBusyError {
  LeaseError(const std::string& message, uint32_t owner) : BoardBusyError(message), owner_(owner) {}
  uint32_t owner() const { return owner_; }

 private:
  uint32_t owner_;
};

// A wait ran out of host time before what it waited for happened (a swap:
// Device::wait_for_swap). Nothing was changed by the wait.
struct LIGHTRAIL_EXPORT TimeoutError : Error {
  using Error::Error;
};

// The board refused a commit (bad image, commit time too late).
struct LIGHTRAIL_EXPORT CommitError : Error {
  CommitError(const std::string& message, std::vector<std::string> flags)
      : Error(message), flags_(std::move(flags)) {}
  const std::vector<std::string>& flags() const { return flags_; }  // ERROR flag names

 private:
  std::vector<std::string> flags_;
};

}  // namespace lightrail
