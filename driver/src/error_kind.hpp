// The most specific driver exception a failure was, for the fabric's reports
// and the CLI's exit codes (private to the driver's sources).
#pragma once

#include <exception>

#include "lightrail/errors.hpp"

namespace lightrail {

inline const char* kind_of(const std::exception& e) {
  if (dynamic_cast<const LeaseError*>(&e)) return "LeaseError";
  if (dynamic_cast<const BoardBusyError*>(&e)) return "BoardBusyError";
  if (dynamic_cast<const CommitError*>(&e)) return "CommitError";
  if (dynamic_cast<const VerifyError*>(&e)) return "VerifyError";
  if (dynamic_cast<const ValidationError*>(&e)) return "ValidationError";
  if (dynamic_cast<const FormatError*>(&e)) return "FormatError";
  if (dynamic_cast<const TransportError*>(&e)) return "TransportError";
  if (dynamic_cast<const Error*>(&e)) return "Error";
  return "exception";
}

}  // namespace lightrail
