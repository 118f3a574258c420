// How the driver reaches a board's AXI4-Lite register space. Addresses are
// AXI byte addresses; words are 32 bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lightrail {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual uint32_t read32(uint64_t addr) = 0;
  virtual void write32(uint64_t addr, uint32_t value) = 0;
  // Consecutive words at addr, addr+4, ...
  virtual std::vector<uint32_t> read_block(uint64_t addr, size_t words);
  virtual void write_block(uint64_t addr, const std::vector<uint32_t>& words);
  // Where this transport goes, for messages ("sim://127.0.0.1:7000/0").
  virtual std::string uri() const = 0;
};

// sim://HOST:PORT/BOARD: the co-simulation's board server over TCP (line
// protocol in docs/driver.md). Connects and says HELLO at once; reconnects
// after a dropped connection. Throws TransportError.
std::unique_ptr<Transport> open_sim_transport(const std::string& uri, int timeout_ms = 5000);

// xrt://DEVICE[/IP][?xclbin=PATH]: a board through XRT. Throws Error when
// this build has no XRT.
std::unique_ptr<Transport> open_xrt_transport(const std::string& uri);

}  // namespace lightrail
