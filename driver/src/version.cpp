#include "lightrail/version.hpp"

#include <fmt/format.h>

#include "lightrail/hwdef.hpp"

// The source hash changes with every commit, so only this file carries it
// (a compile definition of its own, driver/CMakeLists.txt).
#ifndef LIGHTRAIL_SOURCE_HASH
#error "LIGHTRAIL_SOURCE_HASH is set by the build"
#endif

namespace lightrail {

const VersionInfo& version() noexcept {
  static const VersionInfo info{LIGHTRAIL_VERSION_STRING, LIGHTRAIL_SOURCE_HASH, hwdef::REGMAP_VERSION};
  return info;
}

std::string version_line(std::string_view program) {
  const VersionInfo& v = version();
  return fmt::format("{} {} (source {}, register map {})", program, v.version, v.source_hash,
                     v.regmap_version);
}

}  // namespace lightrail
