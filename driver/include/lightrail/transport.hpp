// How the driver reaches a board's AXI4-Lite register space. Addresses are
// AXI byte addresses; words are 32 bits.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lightrail/export.hpp"

namespace lightrail {

// Thread safety: not thread-safe; one thread at a time per Transport (a
// Device uses its own).
class LIGHTRAIL_EXPORT Transport {
 public:
  virtual ~Transport() = default;
  virtual uint32_t read32(uint64_t addr) = 0;
  virtual void write32(uint64_t addr, uint32_t value) = 0;
  // Consecutive words at addr, addr+4, ...
  virtual std::vector<uint32_t> read_block(uint64_t addr, size_t words);
  virtual void write_block(uint64_t addr, const std::vector<uint32_t>& words);
  // Where this transport goes, for messages ("sim://127.0.0.1:7000/0").
  virtual std::string uri() const = 0;
  // What the platform tells beside the registers; nullopt where it tells
  // nothing. The UUID of the image the board runs (XRT: the xclbin's; sim://
  // the co-simulated model's, docs/lab.md), lower-case 8-4-4-4-12 hex.
  virtual std::optional<std::string> image_uuid() { return std::nullopt; }
  // The FPGA's hottest die temperature sensor, degrees Celsius.
  virtual std::optional<double> temperature_c() { return std::nullopt; }
};

// sim://HOST:PORT/BOARD or xrt://...: the transport the URI's scheme names.
// A malformed URI or an unknown scheme is a FormatError naming the bad part
// (the user's input); a board that cannot be reached a TransportError.
LIGHTRAIL_EXPORT std::unique_ptr<Transport> open_transport(const std::string& uri);

// Names the file holding the sim:// board server's token, when the server
// was started with one (docs/driver.md "sim:// line protocol").
inline constexpr const char* kSimTokenFileEnv = "LIGHTRAIL_SIM_TOKEN_FILE";

// sim://HOST:PORT/BOARD (HOST a name, an IPv4 address or [IPv6], PORT
// 1..65535): the co-simulation's board server over TCP (line protocol in
// docs/driver.md). Connects, says HELLO and, when kSimTokenFileEnv is set,
// AUTH with the token at once; reconnects after a dropped connection.
// Throws FormatError (malformed URI, unusable token file), TransportError.
// `timeout` bounds each request (and the connect) in host time.
LIGHTRAIL_EXPORT std::unique_ptr<Transport> open_sim_transport(
    const std::string& uri, std::chrono::milliseconds timeout = std::chrono::seconds(5));

// xrt://DEVICE[/IP][?xclbin=PATH]: a board through XRT. Throws Error when
// this build has no XRT.
LIGHTRAIL_EXPORT std::unique_ptr<Transport> open_xrt_transport(const std::string& uri);

// A board server: how many boards it serves and the image they run (IMAGE).
struct SimServer {
  uint32_t boards = 0;
  std::string image_uuid;
};
// HOST:PORT (as in sim://HOST:PORT/BOARD). FormatError, TransportError.
LIGHTRAIL_EXPORT SimServer probe_sim_server(const std::string& host_port,
                                            std::chrono::milliseconds timeout = std::chrono::seconds(5));

// Whether this build has XRT (xrt:// devices), and the devices XRT finds:
// their URI and the UUID of the xclbin each holds (nullopt: none). Empty
// without XRT.
LIGHTRAIL_EXPORT bool have_xrt();
struct XrtBoard {
  unsigned index = 0;
  std::string uri;
  std::optional<std::string> image_uuid;
  std::string problem;  // why the device could not be asked, if it could not
};
LIGHTRAIL_EXPORT std::vector<XrtBoard> list_xrt_devices();

}  // namespace lightrail
