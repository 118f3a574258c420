#include "board/image.hpp"

#include <fmt/format.h>

#include "lightrail/image_crc.hpp"

namespace lightrail::sim {

using namespace hwdef;

DecodedImage decode_image(const std::vector<uint32_t>& w) {
  DecodedImage img;
  auto fail = [&](std::string why) {
    img.problem = std::move(why);
    return img;
  };
  if (w[IMG_HDR_MAGIC] != IMG_MAGIC) return fail(fmt::format("magic 0x{:08X}", w[IMG_HDR_MAGIC]));
  if (w[IMG_HDR_VERSION] != IMG_VERSION) return fail(fmt::format("version {}", w[IMG_HDR_VERSION]));
  const uint32_t n_steps = w[IMG_HDR_N_STEPS], n_configs = w[IMG_HDR_N_CONFIGS];
  if (n_steps < 1 || n_steps > MAX_STEPS) return fail(fmt::format("{} steps", n_steps));
  if (n_configs < 1 || n_configs > MAX_CONFIGS) return fail(fmt::format("{} configs", n_configs));

  uint32_t crc = kImageCrcInit;
  for (uint32_t i = 0; i < IMG_HEADER_WORDS; ++i)
    if (i != IMG_HDR_CRC) crc = image_crc_word(crc, w[i]);
  for (uint32_t i = 0; i < n_configs * IMG_CONFIG_WORDS; ++i)
    crc = image_crc_word(crc, w[IMG_CONFIG_BASE_WORD + i]);
  for (uint32_t i = 0; i < n_steps * IMG_STEP_WORDS; ++i)
    crc = image_crc_word(crc, w[IMG_STEP_BASE_WORD + i]);
  if (image_crc_final(crc) != w[IMG_HDR_CRC]) return fail("CRC mismatch");

  const uint32_t ports_per_word = 32 / IMG_PORT_BITS;
  for (uint32_t c = 0; c < n_configs; ++c) {
    PortConfig pc{};
    for (uint32_t p = 0; p < PORTS; ++p) {
      const uint32_t entry = w[IMG_CONFIG_BASE_WORD + c * IMG_CONFIG_WORDS + p / ports_per_word] >>
                             (IMG_PORT_BITS * (p % ports_per_word));
      const uint32_t wl = (entry & IMG_PORT_WAVELENGTH_MASK) >> IMG_PORT_WAVELENGTH_LSB;
      if (entry & IMG_PORT_DARK_MASK) {
        pc[p] = kDarkPort;
      } else if (wl >= WAVELENGTHS) {
        return fail(fmt::format("config {} port {} wavelength {}", c, p, wl));
      } else {
        pc[p] = static_cast<int>(wl);
      }
    }
    img.configs.push_back(pc);
  }
  for (uint32_t s = 0; s < n_steps; ++s) {
    const uint32_t* e = &w[IMG_STEP_BASE_WORD + s * IMG_STEP_WORDS];
    const uint32_t hi = e[IMG_STEP_DURATION_HI_WORD];
    const uint64_t dur =
        (uint64_t(e[IMG_STEP_DURATION_LO_WORD] & IMG_STEP_DURATION_LO_MASK) >> IMG_STEP_DURATION_LO_LSB) |
        (uint64_t((hi & IMG_STEP_DURATION_HI_MASK) >> IMG_STEP_DURATION_HI_LSB)
         << IMG_STEP_DURATION_LO_WIDTH);
    const uint32_t cfg = (e[IMG_STEP_CONFIG_WORD] & IMG_STEP_CONFIG_MASK) >> IMG_STEP_CONFIG_LSB;
    if (cfg >= n_configs) return fail(fmt::format("step {} config {}", s, cfg));
    if (dur < uint64_t(MIN_STEP_CYCLES) * FINE_STEPS)
      return fail(fmt::format("step {} duration {} ticks", s, dur));
    img.steps.push_back({dur, cfg, (e[IMG_STEP_EVENT_WORD] & IMG_STEP_EVENT_MASK) != 0});
  }
  img.generation = w[IMG_HDR_GENERATION];
  img.cyclic = (w[IMG_HDR_FLAGS] & IMG_FLAGS_CYCLIC_MASK) != 0;
  img.guard_ticks = w[IMG_HDR_GUARD_TICKS];
  img.valid = true;
  return img;
}

}  // namespace lightrail::sim
