#include "lightrail/image.hpp"

#include <gtest/gtest.h>

#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/image_crc.hpp"
#include "test_schedules.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;

const DeviceCapabilities kCaps = DeviceCapabilities::reference();

// Decoders written from the IMG_* constants, independent of build_image.
int port_of(const std::vector<uint32_t>& img, uint32_t config, uint32_t port) {
  const uint32_t per_word = 32 / hw::IMG_PORT_BITS;
  const uint32_t word = img[hw::IMG_CONFIG_BASE_WORD + config * hw::IMG_CONFIG_WORDS + port / per_word];
  const uint32_t entry = (word >> (hw::IMG_PORT_BITS * (port % per_word))) & ((1u << hw::IMG_PORT_BITS) - 1);
  if (entry & hw::IMG_PORT_DARK_MASK) return kDark;
  return static_cast<int>((entry & hw::IMG_PORT_WAVELENGTH_MASK) >> hw::IMG_PORT_WAVELENGTH_LSB);
}
uint64_t ticks_of(const std::vector<uint32_t>& img, uint32_t step) {
  const uint32_t* w = &img[hw::IMG_STEP_BASE_WORD + step * hw::IMG_STEP_WORDS];
  const uint64_t lo =
      (w[hw::IMG_STEP_DURATION_LO_WORD] & hw::IMG_STEP_DURATION_LO_MASK) >> hw::IMG_STEP_DURATION_LO_LSB;
  const uint64_t hi =
      (w[hw::IMG_STEP_DURATION_HI_WORD] & hw::IMG_STEP_DURATION_HI_MASK) >> hw::IMG_STEP_DURATION_HI_LSB;
  return lo | (hi << hw::IMG_STEP_DURATION_LO_WIDTH);
}
uint32_t config_of(const std::vector<uint32_t>& img, uint32_t step) {
  const uint32_t w = img[hw::IMG_STEP_BASE_WORD + step * hw::IMG_STEP_WORDS + hw::IMG_STEP_CONFIG_WORD];
  return (w & hw::IMG_STEP_CONFIG_MASK) >> hw::IMG_STEP_CONFIG_LSB;
}
bool event_of(const std::vector<uint32_t>& img, uint32_t step) {
  return img[hw::IMG_STEP_BASE_WORD + step * hw::IMG_STEP_WORDS + hw::IMG_STEP_EVENT_WORD] &
         hw::IMG_STEP_EVENT_MASK;
}

TEST(Image, HeaderFields) {
  Schedule s = test::two_shifts();
  s.cyclic = true;
  s.guard_ps = 600;  // rounds up to 5 ticks
  const auto img = build_image(s, kCaps);
  EXPECT_EQ(img[hw::IMG_HDR_MAGIC], hw::IMG_MAGIC);
  EXPECT_EQ(img[hw::IMG_HDR_VERSION], hw::IMG_VERSION);
  EXPECT_EQ(img[hw::IMG_HDR_N_STEPS], 2u);
  EXPECT_EQ(img[hw::IMG_HDR_N_CONFIGS], 2u);
  EXPECT_EQ(img[hw::IMG_HDR_FLAGS] & hw::IMG_FLAGS_CYCLIC_MASK, hw::IMG_FLAGS_CYCLIC_MASK);
  EXPECT_EQ(img[hw::IMG_HDR_GUARD_TICKS], 5u);
  EXPECT_EQ(img[hw::IMG_HDR_GENERATION], 7u);
  s.cyclic = false;
  EXPECT_EQ(build_image(s, kCaps)[hw::IMG_HDR_FLAGS] & hw::IMG_FLAGS_CYCLIC_MASK, 0u);
}

TEST(Image, ConfigurationsAndSteps) {
  Schedule s = test::two_shifts();
  s.configs[1].wavelength[3] = kDark;
  s.configs[1].wavelength[15] = 63;
  s.steps[1].event_triggered = true;
  const auto img = build_image(s, kCaps);
  ASSERT_EQ(img.size(), hw::IMG_STEP_BASE_WORD + 2 * hw::IMG_STEP_WORDS);
  for (uint32_t c = 0; c < 2; ++c) {
    for (uint32_t p = 0; p < 16; ++p)
      EXPECT_EQ(port_of(img, c, p), s.configs[c].wavelength[p]) << c << "/" << p;
  }
  EXPECT_EQ(ticks_of(img, 0), 8000u);  // 1 us / 125 ps
  EXPECT_EQ(config_of(img, 1), 1u);
  EXPECT_FALSE(event_of(img, 0));
  EXPECT_TRUE(event_of(img, 1));
}

TEST(Image, LongDurationUsesTheHighBits) {
  Schedule s = test::two_shifts();
  s.steps[0].duration_ps = int64_t{0x12'3456'789A} * 125;
  const auto img = build_image(s, kCaps);
  EXPECT_EQ(ticks_of(img, 0), 0x12'3456'789Au);
  EXPECT_EQ(config_of(img, 0), 0u);  // the high duration bits do not spill into CONFIG
}

TEST(Image, CrcCoversHeaderConfigsAndSteps) {
  const auto img = build_image(test::two_shifts(), kCaps);
  uint32_t crc = kImageCrcInit;
  for (uint32_t w = 0; w < hw::IMG_HDR_CRC; ++w) crc = image_crc_word(crc, img[w]);
  for (uint32_t w = 0; w < 2 * hw::IMG_CONFIG_WORDS; ++w)
    crc = image_crc_word(crc, img[hw::IMG_CONFIG_BASE_WORD + w]);
  for (uint32_t w = 0; w < 2 * hw::IMG_STEP_WORDS; ++w)
    crc = image_crc_word(crc, img[hw::IMG_STEP_BASE_WORD + w]);
  EXPECT_EQ(img[hw::IMG_HDR_CRC], image_crc_final(crc));
  auto changed = img;
  changed[hw::IMG_STEP_BASE_WORD] ^= 1;
  EXPECT_NE(image_crc(changed), img[hw::IMG_HDR_CRC]);
}

TEST(Image, RoundsCumulativeBoundariesSoErrorNeverAccumulates) {
  // 1000 steps of 16062 ps = 128.496 ticks: rounding each step would lose
  // 496 ticks; rounding the boundaries keeps each within half a tick.
  Schedule s = test::two_shifts();
  s.steps.clear();
  for (int i = 0; i < 1000; ++i) s.steps.push_back({static_cast<uint32_t>(i % 2), 16062, false});
  const auto img = build_image(s, kCaps);
  int64_t exact_ps = 0;
  uint64_t ticks = 0;
  for (uint32_t i = 0; i < 1000; ++i) {
    exact_ps += s.steps[i].duration_ps;
    ticks += ticks_of(img, i);
    EXPECT_LE(std::llabs(static_cast<int64_t>(ticks) * 125 - exact_ps), 62) << "boundary " << i + 1;
  }
  EXPECT_EQ(ticks, 128496u);  // the period, 16062000 ps
}

TEST(Image, SpansCoverOnlyUsedWords) {
  const auto img = build_image(test::two_shifts(), kCaps);
  const auto spans = image_spans(img);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].first_word, 0u);
  EXPECT_EQ(spans[0].words, hw::IMG_CONFIG_BASE_WORD + 2 * hw::IMG_CONFIG_WORDS);
  EXPECT_EQ(spans[1].first_word, hw::IMG_STEP_BASE_WORD);
  EXPECT_EQ(spans[1].words, 2 * hw::IMG_STEP_WORDS);
}

TEST(Image, RefusesWhatCannotBeEncoded) {
  Schedule s = test::two_shifts();
  s.steps.clear();
  EXPECT_THROW(build_image(s, kCaps), FormatError);
}

}  // namespace
}  // namespace lightrail
