// What every fuzz target does with a finding: say what broke and abort, so
// libFuzzer stops, prints the stack and saves the input as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace lightrail::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "FUZZ FAILURE: %s\n", what.c_str());
  std::abort();
}

// A refusal must say why: an empty message is a finding too.
inline void check_message(const std::exception& e, const char* who) {
  if (std::string(e.what()).empty()) fail(std::string(who) + " refused with an empty message");
}

}  // namespace lightrail::fuzz
