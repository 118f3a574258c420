// The schedule image: the words of one bank (docs/registers.md) as the
// sequencer reads them.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <vector>

#include "lightrail/capabilities.hpp"
#include "lightrail/export.hpp"
#include "lightrail/schedule.hpp"

namespace lightrail {

// Words 0 .. end of the used step table, at their bank word offsets: header
// (with CRC), the used configurations, zeros up to the step table, the used
// steps. Step durations are ticks of rounded cumulative boundary times, so
// rounding never accumulates over a schedule. Call validate() first: this
// throws FormatError only for what cannot be encoded at all.
LIGHTRAIL_EXPORT std::vector<uint32_t> build_image(const Schedule& schedule, const DeviceCapabilities& caps);

// A run of consecutive bank words that must be written (the rest is unused).
struct ImageSpan {
  uint32_t first_word;
  uint32_t words;
};
// The used spans of an image: header + configurations, then steps.
LIGHTRAIL_EXPORT std::vector<ImageSpan> image_spans(const std::vector<uint32_t>& image);

// The CRC the header must hold, computed over the used words.
LIGHTRAIL_EXPORT uint32_t image_crc(const std::vector<uint32_t>& image);

// Boundary k (k = 0..n) of a step program, in ticks from its start:
// round(sum of the first k durations / tick_ps), half away from zero.
LIGHTRAIL_EXPORT std::vector<int64_t> boundary_ticks(const std::vector<Step>& steps, int64_t tick_ps);

}  // namespace lightrail
