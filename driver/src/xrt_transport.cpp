// xrt://DEVICE[/IP][?xclbin=PATH]: a board through XRT's native API
// (docs/driver.md, "xrt://"). The board's AXI4-Lite slave is the packaged
// kernel, a user-managed IP: register access is xrt::ip read_register /
// write_register at byte offsets of its range (0x40000 bytes: the 18-bit map).
//
// The IP is opened through an xrt::hw_context in SHARED mode, so any number of
// processes (a host program, `lightrail status`, `health`) hold the board at
// once; writers coordinate through the board's own lease (LEASE_*), which
// Device claims before every change. No deprecated call: no load_xclbin, no
// ip(device, uuid, name). Compiled only when CMake found XRT
// (LIGHTRAIL_HAVE_XRT).
#include <dirent.h>
#include <fmt/format.h>
#include <xrt/xrt_device.h>
#include <xrt/xrt_hw_context.h>

#include <algorithm>
#include <exception>
#include <fstream>
#include <optional>
#include <string>
#include <vector>
#if __has_include(<xrt/experimental/xrt_ip.h>)
#include <xrt/experimental/xrt_ip.h>
#include <xrt/experimental/xrt_system.h>
#include <xrt/experimental/xrt_xclbin.h>
#else
#include <experimental/xrt_ip.h>
#include <experimental/xrt_system.h>
#include <experimental/xrt_xclbin.h>
#endif

#include "lightrail/board_image.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/transport.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;

// Bytes of register space the driver uses: every window of the map.
constexpr uint64_t kMapBytes = uint64_t{1} << hw::AXI_ADDR_BITS;

struct XrtUri {
  std::string device;  // index or PCIe BDF
  std::string ip;      // empty: the xclbin's one user-managed IP
  std::string xclbin;  // empty: the xclbin the device holds
};

XrtUri parse_xrt_uri(const std::string& uri) {
  XrtUri out;
  std::string rest = uri.substr(std::string("xrt://").size());
  if (const auto q = rest.find('?'); q != std::string::npos) {
    const std::string query = rest.substr(q + 1);
    if (query.rfind("xclbin=", 0) != 0 || query.size() == 7)
      throw FormatError(printable(uri) + ": unknown query \"" + printable(query) +
                        "\" (expected ?xclbin=PATH)");
    out.xclbin = query.substr(7);
    rest = rest.substr(0, q);
  }
  out.device = rest;
  if (const auto slash = rest.find('/'); slash != std::string::npos) {
    out.device = rest.substr(0, slash);
    out.ip = rest.substr(slash + 1);
    if (out.ip.empty()) throw FormatError(printable(uri) + ": empty IP name after '/'");
  }
  if (out.device.empty()) throw FormatError(printable(uri) + ": expected xrt://DEVICE[/IP][?xclbin=PATH]");
  return out;
}

xrt::device open_device(const std::string& id, const std::string& uri) {
  // A number is an index; anything else a PCIe BDF ("0000:65:00.1").
  if (id.find_first_not_of("0123456789") == std::string::npos) {
    if (id.size() > 4) throw FormatError(uri + ": device index " + id + " is out of range");
    return xrt::device(static_cast<unsigned int>(std::stoul(id)));
  }
  return xrt::device(id);
}

// The register IP of the packaged kernel: the one named, or the xclbin's only
// user-managed PL IP whose range covers the map. Names every candidate when
// none or several fit.
std::string pick_ip(const xrt::xclbin& xclbin, const std::string& wanted, const std::string& where) {
  std::vector<std::string> fits, all;
  for (const xrt::xclbin::ip& ip : xclbin.get_ips()) {
    if (ip.get_type() != xrt::xclbin::ip::ip_type::pl) continue;
    all.push_back(fmt::format("{} ({} bytes)", ip.get_name(), ip.get_size()));
    if (!wanted.empty() && ip.get_name() != wanted) continue;
    if (ip.get_size() < kMapBytes) {
      if (!wanted.empty()) {
        throw TransportError(fmt::format(
            "{}: IP \"{}\" declares a register range of {} bytes; the lightrail map needs {} "
            "(0x{:X}: TUNE at 0x{:X}, banks at 0x{:X}/0x{:X}); package the kernel with its kernel.xml",
            where, printable(wanted), ip.get_size(), kMapBytes, kMapBytes, hw::MEM_TUNE_BASE,
            hw::MEM_BANK0_BASE, hw::MEM_BANK1_BASE));
      }
      continue;
    }
    fits.push_back(ip.get_name());
  }
  if (fits.size() == 1) return fits.front();
  std::string listed;
  for (const std::string& a : all) listed += (listed.empty() ? "" : ", ") + a;
  if (fits.empty()) {
    throw TransportError(fmt::format("{}: {} (PL IPs in the xclbin: {})", where,
                                     wanted.empty()
                                         ? fmt::format("no IP with a register range of {} bytes", kMapBytes)
                                         : "no IP named \"" + printable(wanted) + "\"",
                                     listed.empty() ? "none" : listed));
  }
  throw TransportError(
      fmt::format("{}: several IPs could be the board ({}); name one: xrt://DEVICE/IP", where, listed));
}

std::optional<std::string> read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

// The hottest temperature sensor of the Zynq UltraScale+ AMS (PS and PL
// SYSMON) through Linux IIO, as an edge platform exposes it: for every
// in_tempN_raw, (raw + offset) * scale milli-degrees Celsius (the IIO ABI).
// nullopt where there is none (an Alveo host, a machine without the driver).
std::optional<double> iio_temperature_c() {
  const std::string root = "/sys/bus/iio/devices";
  DIR* dir = ::opendir(root.c_str());
  if (dir == nullptr) return std::nullopt;
  std::optional<double> hottest;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string dev = root + "/" + entry->d_name;
    const std::optional<std::string> name = read_line(dev + "/name");
    if (!name || (*name != "xilinx-ams" && *name != "ams")) continue;
    for (int channel = 0; channel < 64; ++channel) {
      const std::string base = fmt::format("{}/in_temp{}_", dev, channel);
      const std::optional<std::string> raw = read_line(base + "raw");
      if (!raw) continue;
      try {
        const double offset = std::stod(read_line(base + "offset").value_or("0"));
        const double scale = std::stod(read_line(base + "scale").value_or("1"));
        const double c = (std::stod(*raw) + offset) * scale / 1000.0;
        if (!hottest || c > *hottest) hottest = c;
      } catch (const std::exception&) {
        continue;  // a sensor that does not read as a number is not one
      }
    }
  }
  ::closedir(dir);
  return hottest;
}

class XrtTransport final : public Transport {
 public:
  explicit XrtTransport(const std::string& uri) : uri_(printable(uri)) {
    const XrtUri u = parse_xrt_uri(uri);
    try {
      device_ = open_device(u.device, uri_);
      // The xclbin to use: the file named (registered with the device; the
      // hardware context loads it if the device holds another), else the
      // one the device holds.
      xrt::uuid uuid;
      if (!u.xclbin.empty()) {
        uuid = device_.register_xclbin(xrt::xclbin(u.xclbin));
      } else {
        uuid = device_.get_xclbin_uuid();
        if (!uuid)
          throw TransportError(uri_ +
                               ": the device holds no xclbin; flash one (lightrail flash) or name it: "
                               "xrt://DEVICE?xclbin=PATH");
      }
      // SHARED: readers are never locked out by a program holding the board.
      context_ = xrt::hw_context(device_, uuid, xrt::hw_context::access_mode::shared);
      ip_name_ = pick_ip(context_.get_xclbin(), u.ip, uri_);
      ip_ = xrt::ip(context_, ip_name_);
      uuid_ = uuid.to_string();
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw TransportError(
          fmt::format("{}: cannot open the board on XRT device {}: {}", uri_, printable(u.device), e.what()));
    }
  }

  std::string uri() const override { return uri_; }

  uint32_t read32(uint64_t addr) override {
    check(addr, "read");
    try {
      return ip_.read_register(static_cast<uint32_t>(addr));
    } catch (const std::exception& e) {
      throw TransportError(fmt::format("{}: read of 0x{:05X} failed: {}", uri_, addr, e.what()));
    }
  }

  void write32(uint64_t addr, uint32_t value) override {
    check(addr, "write");
    try {
      ip_.write_register(static_cast<uint32_t>(addr), value);
    } catch (const std::exception& e) {
      throw TransportError(fmt::format("{}: write of 0x{:05X} failed: {}", uri_, addr, e.what()));
    }
  }

  std::optional<std::string> image_uuid() override { return uuid_; }
  std::optional<double> temperature_c() override { return iio_temperature_c(); }

 private:
  void check(uint64_t addr, const char* what) const {
    if (addr % 4 != 0 || addr >= kMapBytes)
      throw TransportError(fmt::format("{}: {} of 0x{:X} is outside the 0x{:X}-byte register map", uri_, what,
                                       addr, kMapBytes));
  }

  std::string uri_;
  std::string ip_name_;
  std::string uuid_;
  xrt::device device_;
  xrt::hw_context context_;
  xrt::ip ip_;
};

}  // namespace

std::unique_ptr<Transport> open_xrt_transport(const std::string& uri) {
  return std::make_unique<XrtTransport>(uri);
}

bool have_xrt() { return true; }

std::string xclbin_file_uuid(const std::string& path) {
  try {
    return xrt::xclbin(path).get_uuid().to_string();
  } catch (const std::exception& e) {
    throw FormatError(fmt::format("{}: not a readable xclbin: {}", printable(path), e.what()));
  }
}

std::vector<XrtBoard> list_xrt_devices() {
  std::vector<XrtBoard> out;
  const unsigned int count = xrt::system::enumerate_devices();
  for (unsigned int i = 0; i < count; ++i) {
    XrtBoard b;
    b.index = i;
    b.uri = fmt::format("xrt://{}", i);
    try {
      const xrt::device d(i);
      const xrt::uuid uuid = d.get_xclbin_uuid();
      if (uuid) b.image_uuid = uuid.to_string();
    } catch (const std::exception& e) {
      b.problem = e.what();
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace lightrail
