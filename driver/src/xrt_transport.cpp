// xrt://DEVICE[/IP][?xclbin=PATH]: a board through XRT's native API. The
// board's AXI4-Lite slave is a user-managed IP (xrt::ip), so register access
// is read_register/write_register at byte offsets. Compiled only when CMake
// found XRT (LIGHTRAIL_HAVE_XRT).
#include <fmt/format.h>
#include <xrt/xrt_device.h>

#include <exception>
#if __has_include(<xrt/experimental/xrt_ip.h>)
#include <xrt/experimental/xrt_ip.h>
#else
#include <experimental/xrt_ip.h>
#endif

#include "lightrail/errors.hpp"
#include "lightrail/transport.hpp"

namespace lightrail {
namespace {

constexpr const char* kDefaultIp = "lightrail_top";

class XrtTransport final : public Transport {
 public:
  explicit XrtTransport(const std::string& uri) : uri_(uri) {
    std::string rest = uri.substr(std::string("xrt://").size());
    std::string xclbin;
    if (const auto q = rest.find("?xclbin="); q != std::string::npos) {
      xclbin = rest.substr(q + 8);
      rest = rest.substr(0, q);
    }
    std::string device_id = rest;
    std::string ip_name = kDefaultIp;
    if (const auto slash = rest.find('/'); slash != std::string::npos) {
      device_id = rest.substr(0, slash);
      ip_name = rest.substr(slash + 1);
    }
    if (device_id.empty()) throw FormatError(uri + ": expected xrt://DEVICE[/IP][?xclbin=PATH]");
    try {
      // A number is an index; anything else a PCIe BDF ("0000:65:00.1").
      if (device_id.find_first_not_of("0123456789") == std::string::npos) {
        device_ = xrt::device(static_cast<unsigned int>(std::stoul(device_id)));
      } else {
        device_ = xrt::device(device_id);
      }
      const xrt::uuid uuid = xclbin.empty() ? device_.get_xclbin_uuid() : device_.load_xclbin(xclbin);
      ip_ = xrt::ip(device_, uuid, ip_name);
    } catch (const std::exception& e) {
      throw TransportError(
          fmt::format("{}: cannot open IP \"{}\" on XRT device {}: {}", uri_, ip_name, device_id, e.what()));
    }
  }

  std::string uri() const override { return uri_; }

  uint32_t read32(uint64_t addr) override {
    try {
      return ip_.read_register(static_cast<uint32_t>(addr));
    } catch (const std::exception& e) {
      throw TransportError(fmt::format("{}: read of 0x{:05X} failed: {}", uri_, addr, e.what()));
    }
  }

  void write32(uint64_t addr, uint32_t value) override {
    try {
      ip_.write_register(static_cast<uint32_t>(addr), value);
    } catch (const std::exception& e) {
      throw TransportError(fmt::format("{}: write of 0x{:05X} failed: {}", uri_, addr, e.what()));
    }
  }

 private:
  std::string uri_;
  xrt::device device_;
  xrt::ip ip_;
};

}  // namespace

std::unique_ptr<Transport> open_xrt_transport(const std::string& uri) {
  return std::make_unique<XrtTransport>(uri);
}

}  // namespace lightrail
