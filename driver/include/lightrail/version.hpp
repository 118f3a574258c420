// The version of lightrail: the headers' (macros, fixed when a program is
// compiled) and the library's (lightrail::version(), what runs).
// Thread safety: version() returns a value and may be called from any
// thread at once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// LIGHTRAIL_VERSION_MAJOR, _MINOR, _PATCH and LIGHTRAIL_VERSION_STRING,
// written by the build from the project's version.
#include "lightrail/export.hpp"
#include "lightrail/version_number.hpp"

namespace lightrail {

struct VersionInfo {
  std::string_view version;      // "MAJOR.MINOR.PATCH" of the library that runs
  std::string_view source_hash;  // 16 hex digits of its source commit, zeros without git
  std::uint32_t regmap_version;  // the register map it speaks (a board reports its own)
};

// What the linked library was built as. A program compiled against other
// headers sees LIGHTRAIL_VERSION_STRING differ from version().version.
LIGHTRAIL_EXPORT const VersionInfo& version() noexcept;

// The line every program prints for --version:
// "<program> 0.1.0 (source 0123456789abcdef, register map 4)".
LIGHTRAIL_EXPORT std::string version_line(std::string_view program);

}  // namespace lightrail
