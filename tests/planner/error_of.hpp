// The planner refuses input with std::invalid_argument: its message, or
// "(no error)" when f did not throw.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}
