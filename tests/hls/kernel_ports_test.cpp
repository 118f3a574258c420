// The sequencer's HLS top has exactly the board top's seq_* ports: same
// names (the top's _i/_o suffix dropped), same widths, opposite directions,
// none missing and none extra. The board wrapper (hw/board) connects the
// two by name, so a drift would not synthesise.
#include "kernel_ports.hpp"

#include <gtest/gtest.h>

#include <map>

#include "sequencer/sequencer_top.hpp"

namespace lightrail::test {
namespace {

std::vector<KernelPort> kernel_ports() {
  auto ports = port_types(&::lightrail_sequencer);
  const auto names = argument_names(LIGHTRAIL_SEQUENCER_TOP_CPP, "lightrail_sequencer");
  EXPECT_EQ(names.size(), ports.size()) << "argument names read from " << LIGHTRAIL_SEQUENCER_TOP_CPP;
  for (size_t i = 0; i < ports.size() && i < names.size(); ++i) ports[i].name = names[i];
  return ports;
}

TEST(KernelPorts, SequencerTopMatchesBoardTopSeqPorts) {
  std::map<std::string, KernelPort> rtl;
  for (const auto& p : rtl_ports(LIGHTRAIL_BOARD_TOP_XML))
    if (p.name.rfind("seq_", 0) == 0) rtl[p.name] = p;
  ASSERT_FALSE(rtl.empty()) << "no seq_* port in " << LIGHTRAIL_BOARD_TOP_XML;

  const auto kernel = kernel_ports();
  size_t matched = 0;
  for (const auto& k : kernel) {
    const std::string rtl_name = k.name + (k.output ? "_i" : "_o");
    const auto it = rtl.find(rtl_name);
    if (it == rtl.end()) {
      ADD_FAILURE() << "kernel argument " << k.name << " (" << (k.output ? "output" : "input")
                    << ") has no board-top port " << rtl_name;
      continue;
    }
    ++matched;
    EXPECT_EQ(k.width, it->second.width) << k.name << ": kernel width vs board top " << rtl_name;
    EXPECT_NE(k.output, it->second.output) << k.name << ": both sides drive it, or neither";
    rtl.erase(it);
  }
  for (const auto& [name, p] : rtl) ADD_FAILURE() << "board-top port " << name << " has no kernel argument";
  EXPECT_EQ(matched, kernel.size());
}

// The parser itself: a renamed argument must be seen (otherwise the test
// above could pass on a list it failed to read).
TEST(KernelPorts, NamesComeFromTheDefinition) {
  const auto names = argument_names(LIGHTRAIL_SEQUENCER_TOP_CPP, "lightrail_sequencer");
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names.front(), "seq_now_ticks");
  EXPECT_EQ(names.back(), "seq_rise_fine");
  EXPECT_THROW(argument_names(LIGHTRAIL_SEQUENCER_TOP_CPP, "no_such_function"), std::runtime_error);
}

}  // namespace
}  // namespace lightrail::test
