#include "test_image.hpp"

#include <algorithm>

#include "lightrail/image_crc.hpp"

namespace lightrail {
namespace seq {
namespace test {

using namespace hwdef;

PortWavelengths ports(std::initializer_list<std::pair<int, int>> lit) {
  PortWavelengths w;
  w.fill(kDarkPort);
  for (const auto& pw : lit) w.at(pw.first) = pw.second;
  return w;
}

std::vector<uint32_t> build_image(const TestImage& image) {
  std::vector<uint32_t> words(MEM_BANK0_WORDS, 0);
  words[IMG_HDR_MAGIC] = IMG_MAGIC;
  words[IMG_HDR_VERSION] = IMG_VERSION;
  words[IMG_HDR_N_STEPS] = static_cast<uint32_t>(image.steps.size());
  words[IMG_HDR_N_CONFIGS] = static_cast<uint32_t>(image.configs.size());
  words[IMG_HDR_FLAGS] = image.cyclic ? IMG_FLAGS_CYCLIC_MASK : 0u;
  words[IMG_HDR_GUARD_TICKS] = image.guard_ticks;
  words[IMG_HDR_GENERATION] = image.generation;
  const uint32_t ports_per_word = 32 / IMG_PORT_BITS;
  for (size_t c = 0; c < image.configs.size(); ++c) {
    for (uint32_t p = 0; p < PORTS; ++p) {
      const int w = image.configs[c][p];
      const uint32_t byte =
          w == kDarkPort ? IMG_PORT_DARK_MASK
                         : (static_cast<uint32_t>(w) << IMG_PORT_WAVELENGTH_LSB) & IMG_PORT_WAVELENGTH_MASK;
      words[IMG_CONFIG_BASE_WORD + c * IMG_CONFIG_WORDS + p / ports_per_word] |=
          byte << (IMG_PORT_BITS * (p % ports_per_word));
    }
  }
  for (size_t i = 0; i < image.steps.size(); ++i) {
    const TestStep& s = image.steps[i];
    const size_t base = IMG_STEP_BASE_WORD + i * IMG_STEP_WORDS;
    words[base + IMG_STEP_DURATION_LO_WORD] = static_cast<uint32_t>(s.duration_ticks);
    words[base + IMG_STEP_DURATION_HI_WORD] =
        (static_cast<uint32_t>(s.duration_ticks >> 32) << IMG_STEP_DURATION_HI_LSB &
         IMG_STEP_DURATION_HI_MASK) |
        (s.config << IMG_STEP_CONFIG_LSB & IMG_STEP_CONFIG_MASK) | (s.event ? IMG_STEP_EVENT_MASK : 0u);
  }
  seal(words);
  return words;
}

void seal(std::vector<uint32_t>& words) {
  uint32_t crc = kImageCrcInit;
  for (uint32_t w = 0; w < IMG_HDR_CRC; ++w) crc = image_crc_word(crc, words[w]);
  // Clamped so deliberately out-of-range counts still seal.
  const uint32_t n_configs = std::min(words[IMG_HDR_N_CONFIGS], MAX_CONFIGS);
  const uint32_t n_steps = std::min(words[IMG_HDR_N_STEPS], MAX_STEPS);
  for (uint32_t w = 0; w < n_configs * IMG_CONFIG_WORDS; ++w) {
    crc = image_crc_word(crc, words[IMG_CONFIG_BASE_WORD + w]);
  }
  for (uint32_t w = 0; w < n_steps * IMG_STEP_WORDS; ++w) {
    crc = image_crc_word(crc, words[IMG_STEP_BASE_WORD + w]);
  }
  words[IMG_HDR_CRC] = image_crc_final(crc);
}

}  // namespace test
}  // namespace seq
}  // namespace lightrail
