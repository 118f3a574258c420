// The HLS tops have exactly the board top's ports: the sequencer's its seq_*
// ports, the servo's its sync_* ports; same names (the top's _i/_o suffix
// dropped), same widths, opposite directions, none missing and none extra. The board wrapper (hw/board)
// connects the two by name, so a drift would not synthesise.
#include "kernel_ports.hpp"

#include <gtest/gtest.h>

#include <map>

#include "clock_sync/clock_sync_top.hpp"
#include "sequencer/sequencer_top.hpp"

namespace lightrail::test {
namespace {

template <class F>
std::vector<KernelPort> kernel_ports(F* top, const char* source, const char* name) {
  auto ports = port_types(top);
  const auto names = argument_names(source, name);
  EXPECT_EQ(names.size(), ports.size()) << "argument names read from " << source;
  for (size_t i = 0; i < ports.size() && i < names.size(); ++i) ports[i].name = names[i];
  return ports;
}

// Every kernel argument is the board-top port of the same name plus _i/_o,
// same width, opposite direction; every board-top port with `prefix` is one.
void expect_same_ports(const std::vector<KernelPort>& kernel, const std::string& prefix) {
  std::map<std::string, KernelPort> rtl;
  for (const auto& p : rtl_ports(LIGHTRAIL_BOARD_TOP_XML))
    if (p.name.rfind(prefix, 0) == 0) rtl[p.name] = p;
  ASSERT_FALSE(rtl.empty()) << "no " << prefix << "* port in " << LIGHTRAIL_BOARD_TOP_XML;

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

TEST(KernelPorts, SequencerTopMatchesBoardTopSeqPorts) {
  expect_same_ports(kernel_ports(&::lightrail_sequencer, LIGHTRAIL_SEQUENCER_TOP_CPP, "lightrail_sequencer"),
                    "seq_");
}

// The servo's: the registers, the DDMTD, the actuators, and what the top
// adds for it (link state, cycle count, the message engine's exchange).
TEST(KernelPorts, ClockSyncTopMatchesBoardTopSyncPorts) {
  const auto kernel =
      kernel_ports(&::lightrail_clock_sync, LIGHTRAIL_CLOCK_SYNC_TOP_CPP, "lightrail_clock_sync");
  expect_same_ports(kernel, "sync_");
  // Spot checks that the list read is the one meant (a parser that returned
  // nothing would also "match" an empty port list).
  std::map<std::string, KernelPort> by_name;
  for (const auto& k : kernel) by_name[k.name] = k;
  ASSERT_EQ(by_name.count("sync_phase_valid"), 1u);
  EXPECT_FALSE(by_name["sync_phase_valid"].output);
  ASSERT_EQ(by_name.count("sync_time_step"), 1u);
  EXPECT_EQ(by_name["sync_time_step"].width, 64);
  EXPECT_TRUE(by_name["sync_time_step"].output);
  ASSERT_EQ(by_name.count("sync_busy"), 1u);
  EXPECT_TRUE(by_name["sync_busy"].output);
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
