// The port list of an HLS top, read from the code HLS synthesises (names
// from the definition's text, widths and directions from the function's
// type), and of the RTL board top, read from Verilator's elaboration of it
// (--xml-only), to check that the two match.
#pragma once

#include <string>
#include <vector>

#include "lightrail/ap_uint.hpp"

namespace lightrail::test {

struct KernelPort {
  std::string name;
  int width = 0;
  bool output = false;  // from the kernel's side
};

template <class T>
struct PortType;
template <int W>
struct PortType<ap_uint<W>> {
  static constexpr int width = W;
  static constexpr bool output = false;
};
template <int W>
struct PortType<ap_uint<W>&> {
  static constexpr int width = W;
  static constexpr bool output = true;
};

// Widths and directions in argument order; only ap_uint<W> (input) and
// ap_uint<W>& (output) compile: an array or struct argument does not.
template <class... A>
std::vector<KernelPort> port_types(void (*)(A...)) {
  return {KernelPort{"", PortType<A>::width, PortType<A>::output}...};
}

// Argument names of `function`'s definition in the C++ source `path`.
std::vector<std::string> argument_names(const std::string& path, const std::string& function);

// Ports of the top module in Verilator's XML, from the module's side
// (output = the top drives it).
std::vector<KernelPort> rtl_ports(const std::string& xml_path);

}  // namespace lightrail::test
