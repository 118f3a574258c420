// C-simulation and C/RTL co-simulation test bench of the sequencer's HLS
// top (hls/sequencer/sequencer_top.cpp), self-checking: main() returns 0 on
// success, as Vitis HLS requires. Built and run here with g++ as the CTest
// hls.sequencer_top_tb (the stand-in ap_uint), and by Vitis through
// hls/sequencer/hls_config.cfg (v++) or hls/run_hls.tcl (vitis_hls).
//
// Each cycle drives the top's packed ports as the board top would (the two
// bank RAMs with their one-cycle registered read, the tune-table port, the
// commit/trigger/STOP pulses) and runs the C model on its own state with the
// same inputs: every packed output must equal the C model's (the glue), and
// the run must show real work (edges, steps, a swap). In C simulation it
// also resets the kernel mid-run (what ap_rst_n does; C/RTL co-simulation
// applies ap_rst_n only at the start, so that part is skipped there).
#include <cstdio>
#include <vector>

#include "sequencer/sequencer.hpp"
#include "sequencer/sequencer_top.hpp"
#include "test_image.hpp"

using namespace lightrail;
using namespace lightrail::seq;
using namespace lightrail::seq::top;

namespace {

struct Tb {
  std::vector<uint32_t> bank[2];
  uint16_t raddr[2] = {0, 0};  // what the top presented last cycle
  SequencerState model{};      // the C model, driven alongside
  uint64_t now = 0;
  uint64_t edges = 0;
  int errors = 0;

  Tb() {
    bank[0].assign(hwdef::MEM_BANK0_WORDS, 0);
    bank[1].assign(hwdef::MEM_BANK1_WORDS, 0);
  }

  void check(bool ok, const char* what, uint64_t cycle) {
    if (ok) return;
    if (errors < 20) std::printf("MISMATCH cycle %llu: %s\n", static_cast<unsigned long long>(cycle), what);
    ++errors;
  }

  // One cycle: the same inputs to the top and to the C model.
  void cycle(SequencerIn in) {
    in.now_ticks = now;
    ap_uint<kLineBits> line[2];
    for (int b = 0; b < 2; ++b) {
      for (uint32_t w = 0; w < hwdef::BANK_LINE_WORDS; ++w) {
        in.bank_rdata[b][w] = bank[b][size_t{raddr[b]} * hwdef::BANK_LINE_WORDS + w];
        line[b].range(32 * int(w) + 31, 32 * int(w)) = in.bank_rdata[b][w];
      }
    }
    ap_uint<kBankAddrBits> raddr0, raddr1;
    ap_uint<32> status, errors_w, missed, cur_step, cur_config, generation, epochs, swaps, triggers;
    ap_uint<32> triggered_step;
    ap_uint<64> steps, last_swap, triggered_at;
    ap_uint<kPorts> sel_valid, fall_valid, rise_valid;
    ap_uint<kPorts * kFineBits> sel_fine, fall_fine, rise_fine;
    ap_uint<kPorts * kWlBits> sel_value;
    lightrail_sequencer(in.now_ticks, in.commit, in.cancel, in.commit_crc, in.commit_at_time, in.commit_ticks,
                        in.trigger, in.trigger_at, in.trigger_ticks, in.trigger_jump, in.trigger_step,
                        in.stop, in.clear_errors, raddr0, line[0], raddr1, line[1], in.tune_we, in.tune_addr,
                        in.tune_wdata, status, errors_w, steps, missed, cur_step, cur_config, generation,
                        epochs, swaps, last_swap, triggered_at, triggers, triggered_step, sel_valid, sel_fine,
                        sel_value, fall_valid, fall_fine, rise_valid, rise_fine);
    SequencerOut m;
    sequencer_step(model, in, m);

    const uint64_t c = now / hwdef::FINE_STEPS;
    check(raddr0.to_uint64() == m.bank_raddr[0] && raddr1.to_uint64() == m.bank_raddr[1], "bank_raddr", c);
    check(status.to_uint64() == m.status && errors_w.to_uint64() == m.errors, "status/errors", c);
    check(steps.to_uint64() == m.steps && missed.to_uint64() == m.missed, "steps/missed", c);
    check(cur_step.to_uint64() == m.cur_step && cur_config.to_uint64() == m.cur_config, "cur_step/config", c);
    check(generation.to_uint64() == m.generation && epochs.to_uint64() == m.epochs, "generation/epochs", c);
    check(swaps.to_uint64() == m.swaps && last_swap.to_uint64() == m.last_swap_ticks, "swaps/last_swap", c);
    check(triggered_at.to_uint64() == m.triggered_at_ticks && triggers.to_uint64() == m.triggers &&
              triggered_step.to_uint64() == m.triggered_step,
          "triggers", c);
    check(sel_valid.to_uint64() == m.sel_valid && fall_valid.to_uint64() == m.fall_valid &&
              rise_valid.to_uint64() == m.rise_valid,
          "event valid masks", c);
    for (int p = 0; p < kPorts; ++p) {
      const uint32_t bit = 1u << p;
      const int f = p * kFineBits, v = p * kWlBits;
      if (m.sel_valid & bit) {
        check(sel_fine.range(f + kFineBits - 1, f).to_uint64() == m.sel_fine[p], "sel_fine", c);
        check(sel_value.range(v + kWlBits - 1, v).to_uint64() == m.sel_value[p], "sel_value", c);
      }
      if (m.fall_valid & bit)
        check(fall_fine.range(f + kFineBits - 1, f).to_uint64() == m.fall_fine[p], "fall_fine", c);
      if (m.rise_valid & bit)
        check(rise_fine.range(f + kFineBits - 1, f).to_uint64() == m.rise_fine[p], "rise_fine", c);
    }
    edges += uint64_t(__builtin_popcount(m.sel_valid)) + uint64_t(__builtin_popcount(m.fall_valid)) +
             uint64_t(__builtin_popcount(m.rise_valid));
    raddr[0] = uint16_t(raddr0.to_uint64());
    raddr[1] = uint16_t(raddr1.to_uint64());
    last = m;
    now += hwdef::FINE_STEPS;
  }

  void run(int cycles) {
    for (int i = 0; i < cycles; ++i) cycle({});
  }
  void commit_epoch() {
    SequencerIn in;
    in.commit = true;
    in.commit_crc = bank[(last.status & hwdef::STATUS_ACTIVE_BANK_MASK) ? 0 : 1][hwdef::IMG_HDR_CRC];
    cycle(in);
  }

  SequencerOut last{};
};

seq::test::TestImage image(uint32_t seed) {
  seq::test::TestImage img;
  for (uint32_t c = 0; c < 4; ++c) {
    seq::test::PortWavelengths w{};
    for (uint32_t p = 0; p < hwdef::PORTS; ++p)
      w[p] =
          ((p + c + seed) % 7 == 0) ? seq::test::kDarkPort : int((p * 3 + c * 5 + seed) % hwdef::WAVELENGTHS);
    img.configs.push_back(w);
  }
  const uint64_t step = uint64_t{hwdef::MIN_STEP_CYCLES} * hwdef::FINE_STEPS;
  img.steps = {{step * 3, 0}, {step, 1}, {step * 2 + 7, 2}, {step, 3}};
  img.guard_ticks = 6;
  img.generation = seed;
  return img;
}

}  // namespace

int main() {
  Tb tb;
  // Calibration through the tune-table port: 4 + |a - b| ticks.
  for (uint32_t a = 0; a < hwdef::WAVELENGTHS; ++a) {
    for (uint32_t b = 0; b < hwdef::WAVELENGTHS; ++b) {
      SequencerIn in;
      in.tune_we = true;
      in.tune_addr = static_cast<uint16_t>(a * hwdef::WAVELENGTHS + b);
      in.tune_wdata = static_cast<uint16_t>(a == b ? 0 : 4 + (a > b ? a - b : b - a));
      tb.cycle(in);
    }
  }
  tb.bank[1] = seq::test::build_image(image(1));
  tb.commit_epoch();
  tb.run(3000);
  SequencerIn trig;
  trig.trigger = true;
  tb.cycle(trig);
  tb.run(200);
  tb.bank[0] = seq::test::build_image(image(2));
  tb.commit_epoch();  // a hitless epoch swap to the second image
  tb.run(3000);

  int failures = 0;
  if (tb.last.swaps != 2 || tb.last.steps < 500 || tb.edges < 2000 || tb.last.missed != 0) {
    std::printf("FAIL: swaps %u, steps %llu, edges %llu, missed %u (want 2, >= 500, >= 2000, 0)\n",
                tb.last.swaps, static_cast<unsigned long long>(tb.last.steps),
                static_cast<unsigned long long>(tb.edges), tb.last.missed);
    ++failures;
  }

  // A timed trigger (TRIGGER_AT with its time) ends an event step on the
  // named boundary: the top must pass the time through, not only the pulse.
  seq::test::TestImage with_event = image(3);
  with_event.steps[1].event = true;
  tb.bank[1] = seq::test::build_image(with_event);
  tb.commit_epoch();
  tb.run(3000);  // the swap, then the event step waits for its trigger
  const uint32_t triggers_before = tb.last.triggers;
  SequencerIn at;
  at.trigger_at = true;
  at.trigger_ticks = (tb.now / hwdef::FINE_STEPS + 300) * hwdef::FINE_STEPS + 3;
  tb.cycle(at);
  tb.run(600);
  if (tb.last.triggers != triggers_before + 1 || tb.last.triggered_at_ticks != at.trigger_ticks) {
    std::printf("FAIL: the timed trigger resolved %u times at %llu (want once at %llu)\n",
                tb.last.triggers - triggers_before,
                static_cast<unsigned long long>(tb.last.triggered_at_ticks),
                static_cast<unsigned long long>(at.trigger_ticks));
    ++failures;
  }
  // STOP through the top's port: every gate falls at the next boundary and
  // the schedule ends (the model gets the same pulse; any difference is a
  // mismatch above).
  SequencerIn stop;
  stop.stop = true;
  tb.cycle(stop);
  tb.run(600);
  if (tb.last.status & hwdef::STATUS_RUNNING_MASK) {
    std::printf("FAIL: still running 600 cycles after STOP\n");
    ++failures;
  }
  tb.bank[1] = seq::test::build_image(image(1));  // what the reset below runs

#ifndef __RTL_SIMULATION__
  // ap_rst_n mid-run: the top's state and a fresh C model must agree from
  // the next cycle on (the tune table is kept by both).
  lightrail_sequencer_csim_reset();
  sequencer_reset(tb.model);
  tb.raddr[0] = tb.raddr[1] = 0;
  tb.now = 0;
  tb.run(10);
  if (tb.last.status != 0 || tb.last.steps != 0 || tb.last.swaps != 0) {
    std::printf("FAIL: after the reset the kernel is not idle (status 0x%x, steps %llu)\n", tb.last.status,
                static_cast<unsigned long long>(tb.last.steps));
    ++failures;
  }
  tb.commit_epoch();
  tb.run(2000);
  if (tb.last.swaps != 1 || tb.last.steps < 100) {
    std::printf("FAIL: after the reset the kernel did not run the committed image (swaps %u)\n",
                tb.last.swaps);
    ++failures;
  }
#endif
  failures += tb.errors;

  std::printf("%s: %llu cycles, %llu edges, %d mismatches\n", failures == 0 ? "PASS" : "FAIL",
              static_cast<unsigned long long>(tb.now / hwdef::FINE_STEPS),
              static_cast<unsigned long long>(tb.edges), tb.errors);
  return failures == 0 ? 0 : 1;
}
