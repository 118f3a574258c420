// Clocking the verilated top without evaluating a low phase nobody looks
// at. The model finds a rising edge by comparing a clock with its level at
// the last evaluation, which it keeps in a member (Verilator 5.0's name
// below). Nothing in hw/ is clocked on a falling edge, so evaluating the
// low phase only settles the inputs, which the rising edge's evaluation
// settles again: setting the kept level low instead does to the model what
// that evaluation did. With another Verilator, where the member is named
// differently, set_clk_low() and set_dmtd_low() return false and the
// caller evaluates the low phase as usual (same results, slower). Only
// after the model's first evaluation: that one initialises the kept levels
// from the clocks as they are, so a level set before it would be lost.
#pragma once

#include <Vlightrail_board_top.h>
#include <Vlightrail_board_top___024root.h>

#include <type_traits>
#include <utility>

namespace lightrail::sim {

namespace model_clock {
template <class Root, class = void>
struct LowPhase {
  static bool clk(Root&) { return false; }
  static bool dmtd(Root&) { return false; }
};
template <class Root>
struct LowPhase<Root, std::void_t<decltype(std::declval<Root&>().__Vtrigrprev__TOP__clk_i),
                                  decltype(std::declval<Root&>().__Vtrigrprev__TOP__clk_dmtd_i)>> {
  static bool clk(Root& r) {
    r.__Vtrigrprev__TOP__clk_i = 0;
    return true;
  }
  static bool dmtd(Root& r) {
    r.__Vtrigrprev__TOP__clk_dmtd_i = 0;
    return true;
  }
};
}  // namespace model_clock

// As if clk_i (clk_dmtd_i) had been evaluated low since the last
// evaluation: the next eval() with it high is a rising edge. False: not
// available, evaluate the low phase.
inline bool set_clk_low(Vlightrail_board_top& m) {
  return model_clock::LowPhase<Vlightrail_board_top___024root>::clk(*m.rootp);
}
inline bool set_dmtd_low(Vlightrail_board_top& m) {
  return model_clock::LowPhase<Vlightrail_board_top___024root>::dmtd(*m.rootp);
}

}  // namespace lightrail::sim
