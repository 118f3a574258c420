#include "lightrail/transport.hpp"

#include <fmt/format.h>

#include "lightrail/board_image.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail {

// Word by word: correct for any transport; fast ones override.
std::vector<uint32_t> Transport::read_block(uint64_t addr, size_t words) {
  std::vector<uint32_t> out(words);
  for (size_t i = 0; i < words; ++i) out[i] = read32(addr + 4 * i);
  return out;
}

void Transport::write_block(uint64_t addr, const std::vector<uint32_t>& words) {
  for (size_t i = 0; i < words.size(); ++i) write32(addr + 4 * i, words[i]);
}

std::unique_ptr<Transport> open_transport(const std::string& uri) {
  if (uri.rfind("sim://", 0) == 0) return open_sim_transport(uri);
  if (uri.rfind("xrt://", 0) == 0) return open_xrt_transport(uri);
  throw FormatError(fmt::format("{}: unknown device URI scheme (use sim://HOST:PORT/BOARD or xrt://DEVICE)",
                                printable(uri)));
}

#ifndef LIGHTRAIL_HAVE_XRT
std::unique_ptr<Transport> open_xrt_transport(const std::string& uri) {
  throw Error(printable(uri) +
              ": this build of lightrail has no XRT (the Xilinx runtime was not found when it was "
              "configured); rebuild on a machine with XRT installed to use xrt:// devices");
}

bool have_xrt() { return false; }
std::string xclbin_file_uuid(const std::string& path) {
  throw Error(printable(path) + ": this build of lightrail has no XRT, which reads an xclbin's UUID");
}
std::vector<XrtBoard> list_xrt_devices() { return {}; }
#endif

}  // namespace lightrail
