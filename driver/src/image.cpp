#include "lightrail/image.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/image_crc.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;

constexpr uint32_t kPortsPerWord = 32 / hw::IMG_PORT_BITS;

uint32_t used_config_words(uint32_t n_configs) { return n_configs * hw::IMG_CONFIG_WORDS; }

}  // namespace

std::vector<int64_t> boundary_ticks(const std::vector<Step>& steps, int64_t tick_ps) {
  std::vector<int64_t> ticks;
  ticks.reserve(steps.size() + 1);
  int64_t sum_ps = 0;
  ticks.push_back(0);
  for (const Step& step : steps) {
    sum_ps += step.duration_ps;
    // Durations are positive after validate(): half up is half away from
    // zero. Split so that sums near INT64_MAX do not overflow.
    ticks.push_back(sum_ps / tick_ps + (sum_ps % tick_ps >= tick_ps - tick_ps / 2 ? 1 : 0));
  }
  return ticks;
}

std::vector<uint32_t> build_image(const Schedule& s, const DeviceCapabilities& caps) {
  const int64_t tick = caps.tick_ps();
  if (tick <= 0) throw FormatError("build_image: the device capabilities have no tick length");
  if (s.steps.empty() || s.steps.size() > hw::MAX_STEPS) {
    throw FormatError(
        fmt::format("build_image: {} steps do not fit a bank (1..{})", s.steps.size(), hw::MAX_STEPS));
  }
  if (s.configs.empty() || s.configs.size() > hw::MAX_CONFIGS) {
    throw FormatError(fmt::format("build_image: {} configurations do not fit a bank (1..{})",
                                  s.configs.size(), hw::MAX_CONFIGS));
  }
  const auto n_steps = static_cast<uint32_t>(s.steps.size());
  const auto n_configs = static_cast<uint32_t>(s.configs.size());
  std::vector<uint32_t> image(hw::IMG_STEP_BASE_WORD + n_steps * hw::IMG_STEP_WORDS, 0u);

  image[hw::IMG_HDR_MAGIC] = hw::IMG_MAGIC;
  image[hw::IMG_HDR_VERSION] = hw::IMG_VERSION;
  image[hw::IMG_HDR_N_STEPS] = n_steps;
  image[hw::IMG_HDR_N_CONFIGS] = n_configs;
  image[hw::IMG_HDR_FLAGS] = s.cyclic ? hw::IMG_FLAGS_CYCLIC_MASK : 0u;
  // Rounded up: the gate must stay low at least as long as asked.
  image[hw::IMG_HDR_GUARD_TICKS] = static_cast<uint32_t>(std::max<int64_t>(s.guard_ps, 0) / tick +
                                                         (s.guard_ps > 0 && s.guard_ps % tick != 0));
  image[hw::IMG_HDR_GENERATION] = s.generation;

  for (uint32_t c = 0; c < n_configs; ++c) {
    const auto& ports = s.configs[c].wavelength;
    if (ports.size() > hw::IMG_CONFIG_WORDS * kPortsPerWord) {
      throw FormatError(fmt::format("build_image: configs[{}] has {} ports, an image holds {}", c,
                                    ports.size(), hw::IMG_CONFIG_WORDS * kPortsPerWord));
    }
    for (size_t p = 0; p < ports.size(); ++p) {
      uint32_t entry = 0;
      if (ports[p] == kDark) {
        entry = hw::IMG_PORT_DARK_MASK;
      } else {
        entry =
            (static_cast<uint32_t>(ports[p]) << hw::IMG_PORT_WAVELENGTH_LSB) & hw::IMG_PORT_WAVELENGTH_MASK;
      }
      const uint32_t word =
          hw::IMG_CONFIG_BASE_WORD + c * hw::IMG_CONFIG_WORDS + static_cast<uint32_t>(p) / kPortsPerWord;
      image[word] |= entry << (hw::IMG_PORT_BITS * (p % kPortsPerWord));
    }
  }

  const std::vector<int64_t> bounds = boundary_ticks(s.steps, tick);
  for (uint32_t i = 0; i < n_steps; ++i) {
    const Step& step = s.steps[i];
    const auto ticks = static_cast<uint64_t>(bounds[i + 1] - bounds[i]);
    const uint32_t base = hw::IMG_STEP_BASE_WORD + i * hw::IMG_STEP_WORDS;
    image[base + hw::IMG_STEP_DURATION_LO_WORD] |=
        (static_cast<uint32_t>(ticks) << hw::IMG_STEP_DURATION_LO_LSB) & hw::IMG_STEP_DURATION_LO_MASK;
    image[base + hw::IMG_STEP_DURATION_HI_WORD] |=
        (static_cast<uint32_t>(ticks >> hw::IMG_STEP_DURATION_LO_WIDTH) << hw::IMG_STEP_DURATION_HI_LSB) &
        hw::IMG_STEP_DURATION_HI_MASK;
    image[base + hw::IMG_STEP_CONFIG_WORD] |=
        (step.config << hw::IMG_STEP_CONFIG_LSB) & hw::IMG_STEP_CONFIG_MASK;
    if (step.event_triggered) image[base + hw::IMG_STEP_EVENT_WORD] |= hw::IMG_STEP_EVENT_MASK;
  }
  image[hw::IMG_HDR_CRC] = image_crc(image);
  return image;
}

std::vector<ImageSpan> image_spans(const std::vector<uint32_t>& image) {
  if (image.size() < hw::IMG_HEADER_WORDS) throw FormatError("image shorter than its header");
  const uint32_t n_configs = image[hw::IMG_HDR_N_CONFIGS];
  const uint32_t n_steps = image[hw::IMG_HDR_N_STEPS];
  const uint64_t config_end = hw::IMG_CONFIG_BASE_WORD + uint64_t{used_config_words(n_configs)};
  const uint64_t step_end = hw::IMG_STEP_BASE_WORD + uint64_t{n_steps} * hw::IMG_STEP_WORDS;
  if (n_configs > hw::MAX_CONFIGS || n_steps > hw::MAX_STEPS || config_end > hw::IMG_STEP_BASE_WORD ||
      step_end > image.size()) {
    throw FormatError(fmt::format("image header counts ({} configs, {} steps) exceed the image ({} words)",
                                  n_configs, n_steps, image.size()));
  }
  return {{0, static_cast<uint32_t>(config_end)},
          {hw::IMG_STEP_BASE_WORD, static_cast<uint32_t>(step_end - hw::IMG_STEP_BASE_WORD)}};
}

uint32_t image_crc(const std::vector<uint32_t>& image) {
  const std::vector<ImageSpan> spans = image_spans(image);
  uint32_t crc = kImageCrcInit;
  for (uint32_t w = 0; w < hw::IMG_HDR_CRC; ++w) crc = image_crc_word(crc, image[w]);
  for (uint32_t w = hw::IMG_CONFIG_BASE_WORD; w < spans[0].words; ++w) crc = image_crc_word(crc, image[w]);
  for (uint32_t w = spans[1].first_word; w < spans[1].first_word + spans[1].words; ++w) {
    crc = image_crc_word(crc, image[w]);
  }
  return image_crc_final(crc);
}

}  // namespace lightrail
