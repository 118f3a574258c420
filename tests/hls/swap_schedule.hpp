// The schedule the swap tests commit over a running one (tests/hls:
// swap_test, swap_sweep_test, event_swap_test): two configurations that
// light port 0 on wavelengths 5 and 6, steps of 600 and 800 ticks, so its
// rises mark every boundary; generation 7.
#pragma once

#include "test_image.hpp"

namespace lightrail::seq::test {

inline TestImage new_schedule(uint32_t guard_ticks) {
  TestImage img;
  img.configs = {ports({{0, 5}}), ports({{0, 6}})};
  img.steps = {{600, 0}, {800, 1}};
  img.guard_ticks = guard_ticks;
  img.generation = 7;
  return img;
}

}  // namespace lightrail::seq::test
