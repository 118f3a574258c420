// A board image descriptor: the JSON file the build writes beside each image
// of the board (an xclbin for hardware, the co-simulated model for sim://)
// and `lightrail flash` takes (docs/lab.md, "Board image descriptor"). It
// names the image's UUID, build ID and, for hardware, its xclbin.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lightrail/capabilities.hpp"
#include "lightrail/export.hpp"

namespace lightrail {

struct BoardImage {
  std::string path;    // the descriptor file, for messages
  std::string target;  // "cosim", or the board the xclbin is for ("zcu102")
  std::string uuid;    // lower-case 8-4-4-4-12 hex
  BuildId build;
  std::optional<std::string> xclbin;  // resolved against the descriptor's directory
};

// Reads and checks a descriptor. FormatError naming the file and every bad
// field ("build.source_hash: ...").
LIGHTRAIL_EXPORT BoardImage read_board_image(const std::string& path);

// One field where the descriptor and the board differ.
struct ImageMismatch {
  std::string field;  // "uuid", "build.source_hash", "build.build_time", "build.regmap_version"
  std::string image;  // the descriptor's value
  std::string board;  // the board's
};

// The fields of `image` that the board (its build ID, the UUID its platform
// reports, nullopt when it reports none) does not match; empty: the board
// runs this image.
LIGHTRAIL_EXPORT std::vector<ImageMismatch> compare_image(const BoardImage& image, const BuildId& board,
                                                          const std::optional<std::string>& board_uuid);

// The UUID of an xclbin file (XRT); Error without XRT in this build.
LIGHTRAIL_EXPORT std::string xclbin_file_uuid(const std::string& path);

}  // namespace lightrail
