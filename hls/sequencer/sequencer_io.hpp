// The sequencer kernel's per-cycle ports. One call of sequencer_step() is one
// clock cycle of the free-running (II=1) kernel; the RTL top (hw/) and the
// co-simulation (sim/) connect to exactly these signals.
#pragma once

#include <cstdint>

#include "lightrail/hwdef.hpp"

namespace lightrail {
namespace seq {

using hwdef::BANK_LINE_WORDS;
using hwdef::PORTS;

struct SequencerIn {
  uint64_t now_ticks = 0;  // board time at the start of this cycle, in ticks
  bool commit = false;     // pulse: verify the inactive bank, then swap per commit_at_time
  bool commit_at_time = false;
  uint64_t commit_ticks = 0;  // board time for an at-time commit
  uint32_t commit_crc = 0;    // the image CRC the commit expects (COMMIT_CRC)
  bool cancel = false;        // pulse: drop a commit not yet swapping
  bool trigger = false;       // pulse: advance an event-triggered step
  bool trigger_at = false;    // pulse: the same, at the first allowed boundary >= trigger_ticks
  uint64_t trigger_ticks = 0;
  bool trigger_jump = false;  // with trigger or trigger_at: the step after the event step is trigger_step
  uint32_t trigger_step = 0;  // TRIGGER_STEP, checked against the running schedule's step count
  bool stop = false;          // pulse: stop at the next step boundary
  uint32_t clear_errors = 0;  // pulse: ERROR bits to clear
  // 128-bit line of each bank at the address this kernel presented on the
  // previous call (registered read, one cycle latency).
  uint32_t bank_rdata[2][BANK_LINE_WORDS] = {};
  bool tune_we = false;  // host write to the tune(a,b) table
  uint16_t tune_addr = 0;
  uint16_t tune_wdata = 0;
};

struct SequencerOut {
  uint16_t bank_raddr[2] = {};  // line address presented to each bank
  // Port events for the cycle that starts OUTPUT_LATENCY_CYCLES after this
  // one; fine = tick within that cycle (0..FINE_STEPS-1). Bit p of a mask is
  // port p.
  uint32_t sel_valid = 0;  // wavelength select changes to sel_value at sel_fine
  uint8_t sel_fine[PORTS] = {};
  uint8_t sel_value[PORTS] = {};
  uint32_t fall_valid = 0;  // transmit gate goes low at fall_fine
  uint8_t fall_fine[PORTS] = {};
  uint32_t rise_valid = 0;  // transmit gate goes high at rise_fine
  uint8_t rise_fine[PORTS] = {};
  // Status, laid out as the registers of the same names in hwdef.hpp.
  uint32_t status = 0;
  uint32_t errors = 0;
  uint64_t steps = 0;
  uint32_t missed = 0;
  uint32_t cur_step = 0;
  uint32_t cur_config = 0;
  uint32_t generation = 0;
  uint32_t epochs = 0;
  uint32_t swaps = 0;
  uint64_t last_swap_ticks = 0;
  uint64_t triggered_at_ticks = 0;  // boundary the last trigger resolved
  uint32_t triggers = 0;            // triggers that ended an event step
  uint32_t triggered_step = 0;      // step the last trigger's boundary went into
};

}  // namespace seq
}  // namespace lightrail
