// The board's image checker, differentially: the fuzz input is the words of
// a bank (little-endian, zero-filled up to the bank size). The sequencer
// kernel (C model, with the two bank RAMs of tests/hls/board_harness) gets a
// commit naming the header's CRC word; the co-simulation's independent
// decoder (sim/board/image.hpp) reads the same words. The kernel must take exactly
// the banks the decoder calls valid. Each input is tried as it is and, when
// its header counts are in range, with its CRC word made right (so the
// checks behind the CRC are reached, not only the CRC compare).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "board/image.hpp"
#include "board_harness.hpp"
#include "fuzz_check.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/image.hpp"

namespace lf = lightrail::fuzz;
namespace hw = lightrail::hwdef;
using lightrail::seq::test::Board;

namespace {

// Verification reads the header, every used config line and every used
// step line, one line per cycle; this bounds it with room to spare.
constexpr uint64_t kVerifyCycles = hw::IMG_HEADER_WORDS / hw::BANK_LINE_WORDS + hw::MAX_CONFIGS +
                                   hw::MAX_STEPS * hw::IMG_STEP_WORDS / hw::BANK_LINE_WORDS + 64;

// A board after reset with its tune table loaded (built once: loading it
// takes WAVELENGTHS^2 cycles).
const Board& idle_board() {
  static const Board board;
  return board;
}

std::string hex(uint32_t v) {
  static const char* const digits = "0123456789ABCDEF";
  std::string s = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) s += digits[(v >> shift) & 0xF];
  return s;
}

void check(const std::vector<uint32_t>& words) {
  const lightrail::sim::DecodedImage decoded = lightrail::sim::decode_image(words);

  Board board = idle_board();
  board.record = false;
  board.load_bank(1, words);
  board.commit_epoch();
  bool taken = false;
  for (uint64_t c = 0; c < kVerifyCycles && !taken; ++c) {
    const auto& out = board.out();
    taken = board.status(hw::STATUS_COMMIT_PENDING_MASK) || out.swaps != 0 ||
            board.status(hw::STATUS_ACTIVE_BANK_MASK) || board.status(hw::STATUS_RUNNING_MASK);
    if (!taken && !board.status(hw::STATUS_VERIFY_BUSY_MASK)) break;
    board.cycle();
  }
  if (board.status(hw::STATUS_VERIFY_BUSY_MASK) && !taken)
    lf::fail("the kernel's verification did not finish in " + std::to_string(kVerifyCycles) + " cycles");
  const uint32_t errors = board.out().errors;
  if (taken && !decoded.valid) {
    lf::fail("the kernel activated a bank the independent checker refuses (" + decoded.problem +
             "); n_steps " + std::to_string(words[hw::IMG_HDR_N_STEPS]) + ", n_configs " +
             std::to_string(words[hw::IMG_HDR_N_CONFIGS]));
  }
  if (!taken && decoded.valid) {
    lf::fail("the kernel refused (ERROR " + hex(errors) +
             ") a bank the independent checker accepts; n_steps " + std::to_string(decoded.steps.size()) +
             ", n_configs " + std::to_string(decoded.configs.size()));
  }
  if (!taken && errors == 0) lf::fail("the kernel dropped a commit without an ERROR flag");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words(hw::MEM_BANK1_WORDS, 0);
  std::memcpy(words.data(), data, std::min(size, words.size() * sizeof(uint32_t)));
  check(words);
  // The same words with a right CRC, where the driver can name one (header
  // counts within the image).
  try {
    const uint32_t crc = lightrail::image_crc(words);
    if (crc != words[hw::IMG_HDR_CRC]) {
      words[hw::IMG_HDR_CRC] = crc;
      check(words);
    }
  } catch (const lightrail::FormatError&) {
  }
  return 0;
}
