// CRC-32 of a schedule image, shared by the driver (which writes it) and the
// sequencer kernel (which checks it). Bit-serial and table-free so the same
// function is synthesisable: Vitis HLS unrolls the fixed 32-step loop.
#pragma once

#include <cstdint>

namespace lightrail {

inline constexpr uint32_t kImageCrcInit = 0xFFFFFFFFu;

// IEEE 802.3 polynomial, reflected; the word is fed low byte first, as it
// sits in little-endian memory.
inline uint32_t image_crc_word(uint32_t crc, uint32_t word) {
  crc ^= word;
  for (int bit = 0; bit < 32; ++bit) {
    crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return crc;
}

inline uint32_t image_crc_final(uint32_t crc) { return ~crc; }

}  // namespace lightrail
