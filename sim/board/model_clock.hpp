// Clocking a verilated model without evaluating a low phase nobody looks
// at. The model finds a rising edge by comparing a clock with its level at
// the last evaluation, which it keeps in a member (Verilator 5.0's name
// below). Nothing in hw/ is clocked on a falling edge of clk_i or of the
// DDMTD helper, so evaluating their low phase only settles the inputs, which
// the rising edge's evaluation settles again: setting the kept level low
// instead does to the model what that evaluation did. With another
// Verilator, where the member is named differently, clk_low() and
// dmtd_low() return false and the caller evaluates the low phase as usual
// (same results, slower). Only after the model's first evaluation: that one
// initialises the kept levels from the clocks as they are, so a level set
// before it would be lost.
#pragma once

#include <type_traits>
#include <utility>

namespace lightrail::sim::model_clock {

template <class Root, class = void>
struct ClkLow {
  static bool set(Root&) { return false; }
};
template <class Root>
struct ClkLow<Root, std::void_t<decltype(std::declval<Root&>().__Vtrigrprev__TOP__clk_i)>> {
  static bool set(Root& r) {
    r.__Vtrigrprev__TOP__clk_i = 0;
    return true;
  }
};
template <class Root, class = void>
struct DmtdLow {
  static bool set(Root&) { return false; }
};
template <class Root>
struct DmtdLow<Root, std::void_t<decltype(std::declval<Root&>().__Vtrigrprev__TOP__clk_dmtd_i)>> {
  static bool set(Root& r) {
    r.__Vtrigrprev__TOP__clk_dmtd_i = 0;
    return true;
  }
};

// As if clk_i (clk_dmtd_i) had been evaluated low since the last
// evaluation: the next eval() with it high is a rising edge. False: not
// available, evaluate the low phase.
template <class Root>
struct Clocks {
  static bool clk_low(Root& r) { return ClkLow<Root>::set(r); }
  static bool dmtd_low(Root& r) { return DmtdLow<Root>::set(r); }
};

}  // namespace lightrail::sim::model_clock
