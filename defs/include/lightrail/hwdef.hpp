// Generated from defs/regmap.json by defs/hwdef_gen; do not edit.
// clang-format off
#pragma once

#include <cstdint>

namespace lightrail::hwdef {

// One flag of a sticky flag register (<REG>_FLAGS[] below).
struct Flag {
  uint32_t mask;
  const char* name;
  const char* meaning;
};

// version of this register map
inline constexpr uint32_t REGMAP_VERSION = 7u;
// switch ports (tunable lasers or OCS ports) per board
inline constexpr uint32_t PORTS = 16u;
// wavelength channels a port can select
inline constexpr uint32_t WAVELENGTHS = 64u;
// bits of a wavelength index
inline constexpr uint32_t WAVELENGTH_BITS = 6u;
// steps per schedule bank
inline constexpr uint32_t MAX_STEPS = 4096u;
// configurations per schedule bank
inline constexpr uint32_t MAX_CONFIGS = 256u;
// fine edge positions per system clock cycle (serializer bits)
inline constexpr uint32_t FINE_STEPS = 32u;
// bits of a fine edge position
inline constexpr uint32_t FINE_BITS = 5u;
// nominal system clock period (250 MHz)
inline constexpr uint32_t CLK_PERIOD_PS = 4000u;
// one fine step (board time unit) = CLK_PERIOD_PS / FINE_STEPS
inline constexpr uint32_t TICK_PS = 125u;
// shortest step the sequencer sustains, in system clock cycles
inline constexpr uint32_t MIN_STEP_CYCLES = 4u;
// pipeline latency of the synthesised sequencer kernel, in cycles from its inputs to its outputs (the HLS schedule is pinned to it); hw/ tells the kernel a time this many cycles ahead so its edges land where a zero-latency kernel's would
inline constexpr uint32_t SEQ_KERNEL_LATENCY = 1u;
// largest sequencer kernel pipeline latency the board top accepts (its kernel_latency is 4 bits); hw/ checks at elaboration that COMMAND_SETTLE_CYCLES covers it
inline constexpr uint32_t SEQ_KERNEL_LATENCY_MAX = 15u;
// cycles from the sequencer's event outputs to the edge at the board outputs (the fine-edge stage register); the sequencer emits events this many cycles ahead
inline constexpr uint32_t OUTPUT_LATENCY_CYCLES = 1u;
// an at-time commit may name a time at most this many seconds of board time ahead; a later one is refused (ERROR.COMMIT_FAR), since nothing but a cancel or STOP could end its wait
inline constexpr uint32_t COMMIT_HORIZON_S = 3600u;
// reset value of LEASE_TTL_MS
inline constexpr uint32_t LEASE_DEFAULT_TTL_MS = 10000u;
// largest LEASE_TTL_MS (one hour); larger writes are clamped
inline constexpr uint32_t LEASE_TTL_MAX_MS = 0x36EE80u;
// cycles a COMMIT keeps the inactive bank and the tune table locked, from its pulse, until the kernel's STATUS shows VERIFY_BUSY (pulse + latency + 1 cycles): SEQ_KERNEL_LATENCY_MAX + 1, so it covers every latency the top can be built or run with; the read path's kernel fence waits as long
inline constexpr uint32_t COMMAND_SETTLE_CYCLES = 16u;
// tune(a,b) calibration entries, index a*WAVELENGTHS+b
inline constexpr uint32_t TUNE_ENTRIES = 4096u;
// 32-bit words per sequencer-side bank read (128-bit line)
inline constexpr uint32_t BANK_LINE_WORDS = 4u;
// 128-bit lines per bank memory
inline constexpr uint32_t BANK_LINES = 4096u;
// AXI4-Lite byte address width
inline constexpr uint32_t AXI_ADDR_BITS = 18u;
// bits of a DDMTD tag; N = 2**DDMTD_TAG_BITS
inline constexpr uint32_t DDMTD_TAG_BITS = 12u;
// DDMTD helper clock = system clock * N/(N+1): phase resolution CLK_PERIOD_PS/N (~0.98 ps), one phase sample per N+1 system cycles (~16.4 us)
inline constexpr uint32_t DDMTD_N = 4096u;
// longest chain of boundary clocks (hops from the grandmaster) the servo is verified for (measured by sim.sync.chain16, figures in docs/clock-sync.md); a longer chain is refused (the co-simulation's scenario and the driver's fabric file, its sync_parent tree) rather than run unverified
inline constexpr uint32_t SYNC_MAX_CHAIN_HOPS = 16u;
// longest fibre from a reference to a board the servo is designed and verified for, m (group index <= 1.5: 50 us one way); it bounds the age of a two-way exchange (the Delay_Resp carrying t4 returns over the fibre: about three one-way delays plus framing), which the servo waits out after a time step and before it takes the whole-period count; a longer link is refused by the co-simulation's scenario (docs/clock-sync.md)
inline constexpr uint32_t SYNC_MAX_FIBRE_M = 10000u;
// SYNC_KI for a boundary clock whose parent is itself a boundary clock (96/65536 with KP = 1/4: jitter-transfer peaking 0.17 dB, 0.19 dB with a whole update of loop delay, under the 0.2 dB ITU-T G.8262 allows an equipment clock; docs/clock-sync.md, tests/hls_sync/jitter_transfer_test.cpp); the default peaks 1.3 dB per hop, which compounds along a chain; the first hop keeps the default, which tracks the grandmaster faster and holds over better
inline constexpr uint32_t SYNC_CASCADE_KI_Q16 = 96u;
// bits per word of the sync link's transceiver, one word per system cycle (unit interval CLK_PERIOD_PS / SYNC_LINK_WORD_BITS = 125 ps); a receiver lock lands the word boundary on any of these bits (the bitslide), which the servo adds to the receive delay
inline constexpr uint32_t SYNC_LINK_WORD_BITS = 32u;
// bit of a sync link frame's flags (and of the servo's sync_parent_flags input): the sender's servo is locked (a grandmaster always says so)
inline constexpr uint32_t SYNC_FLAG_LOCKED_BIT = 0u;
// bit of a sync link frame's flags: the sender's time is good to follow (a grandmaster, or a servo locked once since enable that has kept its time since: re-acquiring after a link change, or in holdover); a boundary clock follows its reference while this is set, like PTP's clockClass, and holds over (SYNC_ERROR.PARENT_LOST) when it clears
inline constexpr uint32_t SYNC_FLAG_TIME_VALID_BIT = 1u;
// bit of a sync link frame's flags: the sender is in holdover (its own reference lost or invalid): its time is valid but free-running on its oscillator
inline constexpr uint32_t SYNC_FLAG_HOLDOVER_BIT = 2u;
// downstream timing-link ports of the board top (hw/sync_port.sv), each the reference end of a link to one follower, besides the board's own link: a grandmaster serves up to 1 + SYNC_DOWN_PORTS followers, a boundary clock SYNC_DOWN_PORTS; a board wrapper sets what its transceivers carry (the ZCU102's: 0)
inline constexpr uint32_t SYNC_DOWN_PORTS = 7u;
// width of the sync link frame's flags the servo takes (sync_parent_flags)
inline constexpr uint32_t SYNC_FLAG_BITS = 3u;
// the fastest a serving boundary clock (SYNC_CTRL.SERVES) moves its time once it is valid (after its first lock since enable), ppb: re-acquiring after a link change or a holdover it slews at most this fast, so the boundary clocks below it follow within their lock threshold (a proportional gain of 1/4 lags a ramp by 4 ramp steps per hop: 16 ps per hop) and stay coherent with each other (docs/clock-sync.md, "Boundary clocks that keep serving")
inline constexpr uint32_t SYNC_SERVING_SLEW_PPB = 250u;
// cycles the synthesised servo kernel (hls/clock_sync) takes per update, from the cycle it latches its inputs (a DDMTD phase strobe, or a beat and a quarter without one) to its new outputs and one-cycle load strobes (the HLS schedule of the update is pinned to it; a quarter of a DDMTD beat); it reads no input meanwhile (sync_busy), and the board top holds a SYNC_ERROR clear or DDMTD phase that arrives then until it is free
inline constexpr uint32_t SYNC_KERNEL_LATENCY = 1024u;
// width of the oscillator (VCXO) DAC word; mid-scale is the nominal frequency
inline constexpr uint32_t SYNC_DAC_BITS = 16u;
// largest fixed (transceiver) delay a SYNC_CAL_DELAY_* register accepts, ps; larger values are clamped and flagged
inline constexpr uint32_t SYNC_CAL_DELAY_MAX_PS = 0xF4240u;
// largest |fibre asymmetry| SYNC_CAL_ASYM_PS accepts, ps; beyond it clamped and flagged
inline constexpr uint32_t SYNC_CAL_ASYM_MAX_PS = 0xF4240u;
// largest SYNC_SLEW_MAX_NS_PER_S accepted (1000 ppm); beyond it clamped and flagged
inline constexpr uint32_t SYNC_SLEW_MAX_LIMIT = 0xF4240u;
// coarse time set: a two-way offset at least this large before the first lock since enable is removed by stepping board time by whole clock cycles instead of slewing
inline constexpr uint32_t SYNC_TIME_STEP_MIN_PS = 0x186A0u;
// longest SYNC_EXCHANGE_PERIOD, cycles (16 exchanges per second, PTP-like: the slowest rate the servo is verified at, on 1 and 10 km at +-20% tuning gain, by clock_exchange_rate_bench, docs/clock-sync.md); the shortest is DDMTD_N + 1, one exchange per DDMTD beat, its reset value
inline constexpr uint32_t SYNC_EXCHANGE_PERIOD_MAX = 0xEE6B28u;
// reset value of SYNC_KP (0.25: a quarter of the phase error corrected per sample)
inline constexpr uint32_t SYNC_DEFAULT_KP_Q16 = 16384u;
// reset value of SYNC_KI (1/64: with KP = 1/4 a critically damped loop, time constant 8 samples)
inline constexpr uint32_t SYNC_DEFAULT_KI_Q16 = 1024u;
// reset value of SYNC_LOCK_THRESH_PS
inline constexpr uint32_t SYNC_DEFAULT_LOCK_THRESH_PS = 50u;
// reset value of SYNC_LOCK_SAMPLES
inline constexpr uint32_t SYNC_DEFAULT_LOCK_SAMPLES = 16u;
// reset value of SYNC_SLEW_MAX_NS_PER_S (200 ppm, within an MMCM's phase-shift rate)
inline constexpr uint32_t SYNC_DEFAULT_SLEW_MAX_NS_PER_S = 0x30D40u;
// reset value of SYNC_DAC_PULL_PPB (a +-50 ppm VCXO)
inline constexpr uint32_t SYNC_DEFAULT_DAC_PULL_PPB = 50000u;
// reset value of SYNC_PHASE_STEP_FS: 1/56 of a 1000 MHz MMCM VCO period
inline constexpr uint32_t SYNC_DEFAULT_PHASE_STEP_FS = 17857u;
// capability block magic 'LRAL'
inline constexpr uint32_t REG_CAP_MAGIC = 0u;
inline constexpr uint32_t CAP_MAGIC_VALUE = 0x4C52414Cu;
// regmap_version of this register map
inline constexpr uint32_t REG_CAP_VERSION = 4u;
// PORTS
inline constexpr uint32_t REG_CAP_PORTS = 8u;
// WAVELENGTHS
inline constexpr uint32_t REG_CAP_WAVELENGTHS = 12u;
// MAX_STEPS
inline constexpr uint32_t REG_CAP_MAX_STEPS = 16u;
// MAX_CONFIGS
inline constexpr uint32_t REG_CAP_MAX_CONFIGS = 20u;
// FINE_STEPS
inline constexpr uint32_t REG_CAP_FINE_STEPS = 24u;
// CLK_PERIOD_PS
inline constexpr uint32_t REG_CAP_CLK_PERIOD_PS = 28u;
// MIN_STEP_CYCLES
inline constexpr uint32_t REG_CAP_MIN_STEP_CYCLES = 32u;
// board index, strapped at the top level
inline constexpr uint32_t REG_CAP_BOARD_ID = 36u;
// build ID: source hash, bits 31:0 (the first 64 bits of the git commit the bitstream or model was built from, set at build time by a parameter of the top; 0: unknown)
inline constexpr uint32_t REG_CAP_BUILD_HASH_LO = 40u;
// build ID: source hash, bits 63:32 (CAP_BUILD_HASH_HI:CAP_BUILD_HASH_LO is the commit's first 16 hex digits)
inline constexpr uint32_t REG_CAP_BUILD_HASH_HI = 44u;
// build ID: build time, seconds since 1970-01-01 UTC (SOURCE_DATE_EPOCH when set, else the commit's time, so a rebuild of one commit gives one build ID; 0: unknown). With CAP_VERSION, the build ID
inline constexpr uint32_t REG_CAP_BUILD_TIME = 48u;
// command pulses; reads as 0
inline constexpr uint32_t REG_CTRL = 64u;
// advance an event-triggered step at the next allowed boundary
inline constexpr uint32_t CTRL_TRIGGER_LSB = 1u;
inline constexpr uint32_t CTRL_TRIGGER_WIDTH = 1u;
inline constexpr uint32_t CTRL_TRIGGER_MASK = 0x2u;
// clear every ERROR flag
inline constexpr uint32_t CTRL_CLEAR_ERRORS_LSB = 2u;
inline constexpr uint32_t CTRL_CLEAR_ERRORS_WIDTH = 1u;
inline constexpr uint32_t CTRL_CLEAR_ERRORS_MASK = 0x4u;
// stop at the next step boundary; all gates low
inline constexpr uint32_t CTRL_STOP_LSB = 3u;
inline constexpr uint32_t CTRL_STOP_WIDTH = 1u;
inline constexpr uint32_t CTRL_STOP_MASK = 0x8u;
// advance an event-triggered step at the first allowed boundary at or after TRIGGER_TIME (a timed trigger: boards told one time take one boundary together); the resolved boundary is in TRIGGERED_AT
inline constexpr uint32_t CTRL_TRIGGER_AT_LSB = 4u;
inline constexpr uint32_t CTRL_TRIGGER_AT_WIDTH = 1u;
inline constexpr uint32_t CTRL_TRIGGER_AT_MASK = 0x10u;
// with TRIGGER or TRIGGER_AT: the step after the event step is TRIGGER_STEP instead of the next one (a jump, for phases in any order); a TRIGGER_STEP outside the running schedule is refused (ERROR.BAD_TRIGGER_STEP) and the trigger dropped. A commit swap due at that boundary wins over the jump
inline constexpr uint32_t CTRL_TRIGGER_JUMP_LSB = 5u;
inline constexpr uint32_t CTRL_TRIGGER_JUMP_WIDTH = 1u;
inline constexpr uint32_t CTRL_TRIGGER_JUMP_MASK = 0x20u;
inline constexpr uint32_t REG_COMMIT_MODE = 68u;
// 0: at the next epoch boundary (immediately when idle); 1: at the first step boundary at or after COMMIT_TIME (exactly COMMIT_TIME when idle)
inline constexpr uint32_t COMMIT_MODE_AT_TIME_LSB = 0u;
inline constexpr uint32_t COMMIT_MODE_AT_TIME_WIDTH = 1u;
inline constexpr uint32_t COMMIT_MODE_AT_TIME_MASK = 0x1u;
// commit board time in ticks, bits 31:0
inline constexpr uint32_t REG_COMMIT_TIME_LO = 72u;
// commit board time in ticks, bits 63:32
inline constexpr uint32_t REG_COMMIT_TIME_HI = 76u;
// the image CRC (header word CRC) the next COMMIT expects: the board swaps only a bank whose verified CRC equals it, so a commit is a compare-and-swap on exactly the image its writer staged (ERROR.COMMIT_MISMATCH otherwise)
inline constexpr uint32_t REG_COMMIT_CRC = 80u;
// write the lease token: verify the inactive bank and make it active per COMMIT_MODE, COMMIT_TIME and COMMIT_CRC. Refused (SLVERR, nothing done) unless the token holds the live lease; from the write on, the inactive bank and the tune table refuse writes until the commit swaps, fails or is cancelled
inline constexpr uint32_t REG_COMMIT = 84u;
// write the lease token: drop a commit that is verifying or waits for its swap boundary, if none of the swap's edges has left yet (STATUS.CANCELLED says it was in time; otherwise SWAPS shows the swap). Refused (SLVERR) unless the token holds the live lease
inline constexpr uint32_t REG_CANCEL = 88u;
inline constexpr uint32_t REG_STATUS = 96u;
// a schedule is being executed
inline constexpr uint32_t STATUS_RUNNING_LSB = 0u;
inline constexpr uint32_t STATUS_RUNNING_WIDTH = 1u;
inline constexpr uint32_t STATUS_RUNNING_MASK = 0x1u;
// bank the sequencer executes; the host writes the other
inline constexpr uint32_t STATUS_ACTIVE_BANK_LSB = 1u;
inline constexpr uint32_t STATUS_ACTIVE_BANK_WIDTH = 1u;
inline constexpr uint32_t STATUS_ACTIVE_BANK_MASK = 0x2u;
// a verified bank waits for its swap boundary
inline constexpr uint32_t STATUS_COMMIT_PENDING_LSB = 2u;
inline constexpr uint32_t STATUS_COMMIT_PENDING_WIDTH = 1u;
inline constexpr uint32_t STATUS_COMMIT_PENDING_MASK = 0x4u;
// the inactive bank is being checked
inline constexpr uint32_t STATUS_VERIFY_BUSY_LSB = 3u;
inline constexpr uint32_t STATUS_VERIFY_BUSY_WIDTH = 1u;
inline constexpr uint32_t STATUS_VERIFY_BUSY_MASK = 0x8u;
// the current step is event-triggered and waits for TRIGGER
inline constexpr uint32_t STATUS_WAITING_TRIGGER_LSB = 4u;
inline constexpr uint32_t STATUS_WAITING_TRIGGER_WIDTH = 1u;
inline constexpr uint32_t STATUS_WAITING_TRIGGER_MASK = 0x10u;
// the last commit was dropped by CANCEL before its swap (cleared by the next COMMIT)
inline constexpr uint32_t STATUS_CANCELLED_LSB = 5u;
inline constexpr uint32_t STATUS_CANCELLED_WIDTH = 1u;
inline constexpr uint32_t STATUS_CANCELLED_MASK = 0x20u;
// sticky error flags; write 1 to clear
inline constexpr uint32_t REG_ERROR = 100u;
// committed bank has a wrong magic
inline constexpr uint32_t ERROR_BAD_MAGIC_LSB = 0u;
inline constexpr uint32_t ERROR_BAD_MAGIC_WIDTH = 1u;
inline constexpr uint32_t ERROR_BAD_MAGIC_MASK = 0x1u;
// committed bank has an unknown image version
inline constexpr uint32_t ERROR_BAD_VERSION_LSB = 1u;
inline constexpr uint32_t ERROR_BAD_VERSION_WIDTH = 1u;
inline constexpr uint32_t ERROR_BAD_VERSION_MASK = 0x2u;
// step/config count or a config index out of range
inline constexpr uint32_t ERROR_BAD_BOUNDS_LSB = 2u;
inline constexpr uint32_t ERROR_BAD_BOUNDS_WIDTH = 1u;
inline constexpr uint32_t ERROR_BAD_BOUNDS_MASK = 0x4u;
// committed bank fails its CRC
inline constexpr uint32_t ERROR_BAD_CRC_LSB = 3u;
inline constexpr uint32_t ERROR_BAD_CRC_WIDTH = 1u;
inline constexpr uint32_t ERROR_BAD_CRC_MASK = 0x8u;
// the host wrote a locked bank (the running one, or the inactive one while it verifies or waits for its swap) or the tune table while a schedule runs or a commit is under way; the write was refused (SLVERR)
inline constexpr uint32_t ERROR_LOCKED_WRITE_LSB = 4u;
inline constexpr uint32_t ERROR_LOCKED_WRITE_WIDTH = 1u;
inline constexpr uint32_t ERROR_LOCKED_WRITE_MASK = 0x10u;
// a step boundary was served late
inline constexpr uint32_t ERROR_MISSED_DEADLINE_LSB = 5u;
inline constexpr uint32_t ERROR_MISSED_DEADLINE_WIDTH = 1u;
inline constexpr uint32_t ERROR_MISSED_DEADLINE_MASK = 0x20u;
// commit time too close or in the past; commit dropped
inline constexpr uint32_t ERROR_COMMIT_LATE_LSB = 6u;
inline constexpr uint32_t ERROR_COMMIT_LATE_WIDTH = 1u;
inline constexpr uint32_t ERROR_COMMIT_LATE_MASK = 0x40u;
// the verified bank's CRC is not COMMIT_CRC (the bank holds another image than its committer staged); commit dropped
inline constexpr uint32_t ERROR_COMMIT_MISMATCH_LSB = 7u;
inline constexpr uint32_t ERROR_COMMIT_MISMATCH_WIDTH = 1u;
inline constexpr uint32_t ERROR_COMMIT_MISMATCH_MASK = 0x80u;
// commit time more than COMMIT_HORIZON_S ahead; commit dropped
inline constexpr uint32_t ERROR_COMMIT_FAR_LSB = 8u;
inline constexpr uint32_t ERROR_COMMIT_FAR_WIDTH = 1u;
inline constexpr uint32_t ERROR_COMMIT_FAR_MASK = 0x100u;
// a COMMIT came while another commit was verifying or waiting for its swap, or a STOP was pending; it was dropped
inline constexpr uint32_t ERROR_COMMIT_BUSY_LSB = 9u;
inline constexpr uint32_t ERROR_COMMIT_BUSY_WIDTH = 1u;
inline constexpr uint32_t ERROR_COMMIT_BUSY_MASK = 0x200u;
// a jumping trigger (CTRL.TRIGGER_JUMP) named a TRIGGER_STEP outside the running schedule (at or beyond its step count, or no schedule runs); the trigger was dropped, the schedule runs on untouched
inline constexpr uint32_t ERROR_BAD_TRIGGER_STEP_LSB = 10u;
inline constexpr uint32_t ERROR_BAD_TRIGGER_STEP_WIDTH = 1u;
inline constexpr uint32_t ERROR_BAD_TRIGGER_STEP_MASK = 0x400u;
inline constexpr Flag ERROR_FLAGS[] = {
    {0x1u, "BAD_MAGIC", "committed bank has a wrong magic"},
    {0x2u, "BAD_VERSION", "committed bank has an unknown image version"},
    {0x4u, "BAD_BOUNDS", "step/config count or a config index out of range"},
    {0x8u, "BAD_CRC", "committed bank fails its CRC"},
    {0x10u, "LOCKED_WRITE", "the host wrote a locked bank (the running one, or the inactive one while it verifies or waits for its swap) or the tune table while a schedule runs or a commit is under way; the write was refused (SLVERR)"},
    {0x20u, "MISSED_DEADLINE", "a step boundary was served late"},
    {0x40u, "COMMIT_LATE", "commit time too close or in the past; commit dropped"},
    {0x80u, "COMMIT_MISMATCH", "the verified bank's CRC is not COMMIT_CRC (the bank holds another image than its committer staged); commit dropped"},
    {0x100u, "COMMIT_FAR", "commit time more than COMMIT_HORIZON_S ahead; commit dropped"},
    {0x200u, "COMMIT_BUSY", "a COMMIT came while another commit was verifying or waiting for its swap, or a STOP was pending; it was dropped"},
    {0x400u, "BAD_TRIGGER_STEP", "a jumping trigger (CTRL.TRIGGER_JUMP) named a TRIGGER_STEP outside the running schedule (at or beyond its step count, or no schedule runs); the trigger was dropped, the schedule runs on untouched"},
};
// steps executed, bits 31:0 (reading LO latches HI)
inline constexpr uint32_t REG_STEPS_LO = 104u;
// steps executed, bits 63:32
inline constexpr uint32_t REG_STEPS_HI = 108u;
// step boundaries served late
inline constexpr uint32_t REG_MISSED = 112u;
// index of the executing step
inline constexpr uint32_t REG_CUR_STEP = 116u;
// configuration of the executing step
inline constexpr uint32_t REG_CUR_CONFIG = 120u;
// generation word of the active bank's header
inline constexpr uint32_t REG_GENERATION = 124u;
// board time in ticks, bits 31:0 (reading LO latches HI)
inline constexpr uint32_t REG_TIME_LO = 128u;
// board time in ticks, bits 63:32
inline constexpr uint32_t REG_TIME_HI = 132u;
// passes of the active schedule ended since it was committed: wraps, a one-shot end, jumps to step 0 (docs/sequencer.md)
inline constexpr uint32_t REG_EPOCHS = 136u;
// bank swaps (activations) so far
inline constexpr uint32_t REG_SWAPS = 140u;
// board time of the last swap in ticks, bits 31:0 (reading LO latches HI)
inline constexpr uint32_t REG_LAST_SWAP_LO = 144u;
// board time of the last swap in ticks, bits 63:32
inline constexpr uint32_t REG_LAST_SWAP_HI = 148u;
// token of the writer holding the lease; 0: free (never claimed, released or expired). One writer owns a board at a time; status readers need no lease
inline constexpr uint32_t REG_LEASE_OWNER = 160u;
// board time the lease expires in ticks, bits 31:0 (reading LO latches HI)
inline constexpr uint32_t REG_LEASE_EXPIRES_LO = 164u;
// board time the lease expires in ticks, bits 63:32
inline constexpr uint32_t REG_LEASE_EXPIRES_HI = 168u;
// lifetime a claim or renewal gives the lease, ms of board time (1..LEASE_TTL_MAX_MS, clamped)
inline constexpr uint32_t REG_LEASE_TTL_MS = 172u;
// write a non-zero token: take the lease if it is free or expired, or renew it if the token holds it (expiry = now + LEASE_TTL_MS); SLVERR and nothing changed if another token holds it
inline constexpr uint32_t REG_LEASE_CLAIM = 176u;
// write the token holding the lease: free it; SLVERR if the token does not hold it
inline constexpr uint32_t REG_LEASE_RELEASE = 180u;
// write a non-zero token: take the lease whoever holds it (deliberate break of a stale lease); the previous holder's COMMIT and CANCEL are refused from then on
inline constexpr uint32_t REG_LEASE_BREAK = 184u;
// board time of a timed trigger (CTRL.TRIGGER_AT) in ticks, bits 31:0
inline constexpr uint32_t REG_TRIGGER_TIME_LO = 192u;
// board time of a timed trigger in ticks, bits 63:32
inline constexpr uint32_t REG_TRIGGER_TIME_HI = 196u;
// board time in ticks of the boundary the last trigger resolved, bits 31:0 (reading LO latches HI)
inline constexpr uint32_t REG_TRIGGERED_AT_LO = 200u;
// board time of the boundary the last trigger resolved, bits 63:32
inline constexpr uint32_t REG_TRIGGERED_AT_HI = 204u;
// triggers that ended an event step so far (a trigger's boundary is in TRIGGERED_AT once this counts it)
inline constexpr uint32_t REG_TRIGGERS = 208u;
// board health inputs of the top (inputs of lightrail_board_top, synchronised to the system clock): what `lightrail health` checks beside the clock-sync and error registers
inline constexpr uint32_t REG_HEALTH = 212u;
// the board wrapper's system-clock MMCM reports lock
inline constexpr uint32_t HEALTH_MMCM_LOCKED_LSB = 0u;
inline constexpr uint32_t HEALTH_MMCM_LOCKED_WIDTH = 1u;
inline constexpr uint32_t HEALTH_MMCM_LOCKED_MASK = 0x1u;
// the sync link's receiver (towards this board's reference) has lock: the link is up; 0 on a board with no reference link (a grandmaster)
inline constexpr uint32_t HEALTH_LINK_UP_LSB = 1u;
inline constexpr uint32_t HEALTH_LINK_UP_WIDTH = 1u;
inline constexpr uint32_t HEALTH_LINK_UP_MASK = 0x2u;
// a register with no effect, reset 0: the host writes and reads it back to test the register path (`lightrail flash`'s self-test)
inline constexpr uint32_t REG_SCRATCH = 216u;
// the step a jumping trigger (CTRL.TRIGGER_JUMP) goes to at its boundary, 0..N_STEPS-1 of the running schedule
inline constexpr uint32_t REG_TRIGGER_STEP = 220u;
// the step the last trigger's boundary went into (TRIGGER_STEP after a jump, else the step after the event step), valid with TRIGGERED_AT
inline constexpr uint32_t REG_TRIGGERED_STEP = 224u;
// clock-synchronisation servo control (docs/clock-sync.md)
inline constexpr uint32_t REG_SYNC_CTRL = 256u;
// run the servo; 0: DAC at mid-scale, no phase steps, state DISABLED
inline constexpr uint32_t SYNC_CTRL_ENABLE_LSB = 0u;
inline constexpr uint32_t SYNC_CTRL_ENABLE_WIDTH = 1u;
inline constexpr uint32_t SYNC_CTRL_ENABLE_MASK = 0x1u;
// refine the two-way offset with the DDMTD phase; 0: two-way exchange only (PTP-style)
inline constexpr uint32_t SYNC_CTRL_USE_DDMTD_LSB = 1u;
inline constexpr uint32_t SYNC_CTRL_USE_DDMTD_WIDTH = 1u;
inline constexpr uint32_t SYNC_CTRL_USE_DDMTD_MASK = 0x2u;
// this board is the reference on its sync link (a grandmaster): its message engine sends Sync and Follow_Up frames and answers Delay_Req; 0: it follows the link (docs/hw-clock-sync.md, sync_link)
inline constexpr uint32_t SYNC_CTRL_REFERENCE_LSB = 2u;
inline constexpr uint32_t SYNC_CTRL_REFERENCE_WIDTH = 1u;
inline constexpr uint32_t SYNC_CTRL_REFERENCE_MASK = 0x4u;
// this follower is the reference of other boards (a boundary clock): once its time is valid it re-acquires at most at SYNC_SERVING_SLEW_PPB, so the boards below it follow without losing lock
inline constexpr uint32_t SYNC_CTRL_SERVES_LSB = 3u;
inline constexpr uint32_t SYNC_CTRL_SERVES_WIDTH = 1u;
inline constexpr uint32_t SYNC_CTRL_SERVES_MASK = 0x8u;
inline constexpr uint32_t REG_SYNC_STATUS = 260u;
// 0 DISABLED, 1 FREE_RUN (no reference yet), 2 COARSE (slewing at the bound), 3 TRACK (PI on the two-way offset), 4 FINE (PI on the DDMTD phase), 5 LOCKED, 6 HOLDOVER
inline constexpr uint32_t SYNC_STATUS_STATE_LSB = 0u;
inline constexpr uint32_t SYNC_STATUS_STATE_WIDTH = 3u;
inline constexpr uint32_t SYNC_STATUS_STATE_MASK = 0x7u;
// |offset| below SYNC_LOCK_THRESH_PS for SYNC_LOCK_SAMPLES samples in a row
inline constexpr uint32_t SYNC_STATUS_LOCKED_LSB = 3u;
inline constexpr uint32_t SYNC_STATUS_LOCKED_WIDTH = 1u;
inline constexpr uint32_t SYNC_STATUS_LOCKED_MASK = 0x8u;
// reference lost: frequency held at the last servo value
inline constexpr uint32_t SYNC_STATUS_HOLDOVER_LSB = 4u;
inline constexpr uint32_t SYNC_STATUS_HOLDOVER_WIDTH = 1u;
inline constexpr uint32_t SYNC_STATUS_HOLDOVER_MASK = 0x10u;
// reference link present
inline constexpr uint32_t SYNC_STATUS_REF_OK_LSB = 5u;
inline constexpr uint32_t SYNC_STATUS_REF_OK_WIDTH = 1u;
inline constexpr uint32_t SYNC_STATUS_REF_OK_MASK = 0x20u;
// the phase correction is limited by SYNC_SLEW_MAX_NS_PER_S
inline constexpr uint32_t SYNC_STATUS_SLEWING_LSB = 6u;
inline constexpr uint32_t SYNC_STATUS_SLEWING_WIDTH = 1u;
inline constexpr uint32_t SYNC_STATUS_SLEWING_MASK = 0x40u;
// the servo error comes from the DDMTD phase
inline constexpr uint32_t SYNC_STATUS_DDMTD_ACTIVE_LSB = 7u;
inline constexpr uint32_t SYNC_STATUS_DDMTD_ACTIVE_WIDTH = 1u;
inline constexpr uint32_t SYNC_STATUS_DDMTD_ACTIVE_MASK = 0x80u;
// the frequency correction is held at the edge of SYNC_DAC_PULL_PPB: the oscillator cannot be pulled further
inline constexpr uint32_t SYNC_STATUS_DAC_AT_RAIL_LSB = 8u;
inline constexpr uint32_t SYNC_STATUS_DAC_AT_RAIL_WIDTH = 1u;
inline constexpr uint32_t SYNC_STATUS_DAC_AT_RAIL_MASK = 0x100u;
// this board's time is good to follow: locked once since enable and kept since (locked, re-acquiring or in holdover); its frames say so (SYNC_FLAG_TIME_VALID_BIT)
inline constexpr uint32_t SYNC_STATUS_TIME_VALID_LSB = 9u;
inline constexpr uint32_t SYNC_STATUS_TIME_VALID_WIDTH = 1u;
inline constexpr uint32_t SYNC_STATUS_TIME_VALID_MASK = 0x200u;
// own link up, and the reference's frames say its time is valid but it is not locked (re-acquiring after a change of its own link, or in holdover): this board keeps following it; not a fault of this board's link
inline constexpr uint32_t SYNC_STATUS_PARENT_DEGRADED_LSB = 10u;
inline constexpr uint32_t SYNC_STATUS_PARENT_DEGRADED_WIDTH = 1u;
inline constexpr uint32_t SYNC_STATUS_PARENT_DEGRADED_MASK = 0x400u;
// own link up, and the reference's frames say it is in holdover (its own reference lost)
inline constexpr uint32_t SYNC_STATUS_PARENT_HOLDOVER_LSB = 11u;
inline constexpr uint32_t SYNC_STATUS_PARENT_HOLDOVER_WIDTH = 1u;
inline constexpr uint32_t SYNC_STATUS_PARENT_HOLDOVER_MASK = 0x800u;
// sticky servo flags; write 1 to clear
inline constexpr uint32_t REG_SYNC_ERROR = 264u;
// a calibration or limit register was out of range and was clamped
inline constexpr uint32_t SYNC_ERROR_CAL_CLAMPED_LSB = 0u;
inline constexpr uint32_t SYNC_ERROR_CAL_CLAMPED_WIDTH = 1u;
inline constexpr uint32_t SYNC_ERROR_CAL_CLAMPED_MASK = 0x1u;
// a two-way exchange was rejected (negative round trip, calibration larger than the measured round trip, or a one-way delay far from the filtered one: an exchange across a time step)
inline constexpr uint32_t SYNC_ERROR_BAD_EXCHANGE_LSB = 1u;
inline constexpr uint32_t SYNC_ERROR_BAD_EXCHANGE_WIDTH = 1u;
inline constexpr uint32_t SYNC_ERROR_BAD_EXCHANGE_MASK = 0x2u;
// |offset| exceeded twice the lock threshold while locked
inline constexpr uint32_t SYNC_ERROR_LOST_LOCK_LSB = 2u;
inline constexpr uint32_t SYNC_ERROR_LOST_LOCK_WIDTH = 1u;
inline constexpr uint32_t SYNC_ERROR_LOST_LOCK_MASK = 0x4u;
// this board's own link to its reference went down (loss of light, receiver not aligned): holdover entered
inline constexpr uint32_t SYNC_ERROR_REF_LOST_LSB = 3u;
inline constexpr uint32_t SYNC_ERROR_REF_LOST_WIDTH = 1u;
inline constexpr uint32_t SYNC_ERROR_REF_LOST_MASK = 0x8u;
// in FINE, the DDMTD-refined offset and the two-way offset disagreed by more than an eighth of a period: the DDMTD sample was dropped and the servo re-acquires from TRACK
inline constexpr uint32_t SYNC_ERROR_PHASE_SLIP_LSB = 4u;
inline constexpr uint32_t SYNC_ERROR_PHASE_SLIP_WIDTH = 1u;
inline constexpr uint32_t SYNC_ERROR_PHASE_SLIP_MASK = 0x10u;
// the coarse time set stepped board time (an offset beyond SYNC_TIME_STEP_MIN_PS before the first lock since enable)
inline constexpr uint32_t SYNC_ERROR_TIME_STEPPED_LSB = 5u;
inline constexpr uint32_t SYNC_ERROR_TIME_STEPPED_WIDTH = 1u;
inline constexpr uint32_t SYNC_ERROR_TIME_STEPPED_MASK = 0x20u;
// the servo wanted a frequency correction beyond SYNC_DAC_PULL_PPB (the DAC word held at its rail): the oscillator is outside its pull range or the loop is unstable
inline constexpr uint32_t SYNC_ERROR_DAC_SATURATED_LSB = 6u;
inline constexpr uint32_t SYNC_ERROR_DAC_SATURATED_WIDTH = 1u;
inline constexpr uint32_t SYNC_ERROR_DAC_SATURATED_MASK = 0x40u;
// this board's own link: while locked the path delay or the DDMTD phase stepped by more than the lock threshold: within a quarter period the servo re-pointed its phase setpoint and slewed the board by the step (lock kept); beyond, or when the DDMTD and the exchange disagree, it re-acquired from TRACK
inline constexpr uint32_t SYNC_ERROR_DELAY_STEP_LSB = 7u;
inline constexpr uint32_t SYNC_ERROR_DELAY_STEP_WIDTH = 1u;
inline constexpr uint32_t SYNC_ERROR_DELAY_STEP_MASK = 0x80u;
// own link up, but the reference's frames declared its time invalid (it was reset, disabled or never locked): holdover entered; not a fault of this board's link
inline constexpr uint32_t SYNC_ERROR_PARENT_LOST_LSB = 8u;
inline constexpr uint32_t SYNC_ERROR_PARENT_LOST_WIDTH = 1u;
inline constexpr uint32_t SYNC_ERROR_PARENT_LOST_MASK = 0x100u;
inline constexpr Flag SYNC_ERROR_FLAGS[] = {
    {0x1u, "CAL_CLAMPED", "a calibration or limit register was out of range and was clamped"},
    {0x2u, "BAD_EXCHANGE", "a two-way exchange was rejected (negative round trip, calibration larger than the measured round trip, or a one-way delay far from the filtered one: an exchange across a time step)"},
    {0x4u, "LOST_LOCK", "|offset| exceeded twice the lock threshold while locked"},
    {0x8u, "REF_LOST", "this board's own link to its reference went down (loss of light, receiver not aligned): holdover entered"},
    {0x10u, "PHASE_SLIP", "in FINE, the DDMTD-refined offset and the two-way offset disagreed by more than an eighth of a period: the DDMTD sample was dropped and the servo re-acquires from TRACK"},
    {0x20u, "TIME_STEPPED", "the coarse time set stepped board time (an offset beyond SYNC_TIME_STEP_MIN_PS before the first lock since enable)"},
    {0x40u, "DAC_SATURATED", "the servo wanted a frequency correction beyond SYNC_DAC_PULL_PPB (the DAC word held at its rail): the oscillator is outside its pull range or the loop is unstable"},
    {0x80u, "DELAY_STEP", "this board's own link: while locked the path delay or the DDMTD phase stepped by more than the lock threshold: within a quarter period the servo re-pointed its phase setpoint and slewed the board by the step (lock kept); beyond, or when the DDMTD and the exchange disagree, it re-acquired from TRACK"},
    {0x100u, "PARENT_LOST", "own link up, but the reference's frames declared its time invalid (it was reset, disabled or never locked): holdover entered; not a fault of this board's link"},
};
// servo's estimate of local minus reference time, ps, signed (saturates)
inline constexpr uint32_t REG_SYNC_OFFSET_PS = 268u;
// last round-trip delay (t2-t1)+(t4-t3), ps
inline constexpr uint32_t REG_SYNC_RTT_PS = 272u;
// estimated one-way delay reference to this board (fixed + fibre forward), ps
inline constexpr uint32_t REG_SYNC_DELAY_MS_PS = 276u;
// last proportional (phase) correction, ps, signed
inline constexpr uint32_t REG_SYNC_SERVO_P_PS = 280u;
// integral term: frequency correction in parts per 10^12, signed
inline constexpr uint32_t REG_SYNC_SERVO_I_PPT = 284u;
// oscillator DAC word driven (SYNC_DAC_BITS wide)
inline constexpr uint32_t REG_SYNC_DAC = 288u;
// net MMCM fine phase steps issued since enable, signed, wraps
inline constexpr uint32_t REG_SYNC_PHASE_STEPS = 292u;
// time spent in the current (or last) holdover, us
inline constexpr uint32_t REG_SYNC_HOLDOVER_US = 296u;
// this board's own timing link (port 0, hw/sync_port.sv): its message engine (hw/sync_link.sv); the co-simulation runs the engine (docs/cosim.md; in its fast mode, sync.link "model", the receiver is held in reset and this reads 0)
inline constexpr uint32_t REG_SYNC_LINK = 300u;
// the receiver found the word boundary (a run of IDLE words at one bit offset): the far end runs the message engine
inline constexpr uint32_t SYNC_LINK_ALIGNED_LSB = 0u;
inline constexpr uint32_t SYNC_LINK_ALIGNED_WIDTH = 1u;
inline constexpr uint32_t SYNC_LINK_ALIGNED_MASK = 0x1u;
// follower: the reference's last Sync said it is locked (or a grandmaster)
inline constexpr uint32_t SYNC_LINK_PARENT_LOCKED_LSB = 1u;
inline constexpr uint32_t SYNC_LINK_PARENT_LOCKED_WIDTH = 1u;
inline constexpr uint32_t SYNC_LINK_PARENT_LOCKED_MASK = 0x2u;
// follower: the reference's last Sync said its time is valid (SYNC_FLAG_TIME_VALID_BIT); the servo follows only then
inline constexpr uint32_t SYNC_LINK_PARENT_TIME_VALID_LSB = 2u;
inline constexpr uint32_t SYNC_LINK_PARENT_TIME_VALID_WIDTH = 1u;
inline constexpr uint32_t SYNC_LINK_PARENT_TIME_VALID_MASK = 0x4u;
// follower: the reference's last Sync said it is in holdover
inline constexpr uint32_t SYNC_LINK_PARENT_HOLDOVER_LSB = 3u;
inline constexpr uint32_t SYNC_LINK_PARENT_HOLDOVER_WIDTH = 1u;
inline constexpr uint32_t SYNC_LINK_PARENT_HOLDOVER_MASK = 0x8u;
// unit intervals from the transmitted word boundary to the receiver's (0..SYNC_LINK_WORD_BITS-1), valid while ALIGNED; added to the receive delay
inline constexpr uint32_t SYNC_LINK_BITSLIDE_LSB = 8u;
inline constexpr uint32_t SYNC_LINK_BITSLIDE_WIDTH = 5u;
inline constexpr uint32_t SYNC_LINK_BITSLIDE_MASK = 0x1F00u;
// this board's own link: frames dropped (bad CRC, cut short) and line errors (a word neither IDLE, SOF nor payload) since reset, wrapping (0 in the co-simulation's fast mode)
inline constexpr uint32_t REG_SYNC_LINK_BAD_FRAMES = 304u;
// the downstream timing-link ports (1..SYNC_DOWN_PORTS, hw/sync_port.sv in the reference role), each serving one follower
inline constexpr uint32_t REG_SYNC_DOWN_LINK = 308u;
// bit k-1: downstream port k's receiver found the word boundary (its follower runs the message engine); SYNC_DOWN_PORTS bits, 0 for ports a build leaves out
inline constexpr uint32_t SYNC_DOWN_LINK_ALIGNED_LSB = 0u;
inline constexpr uint32_t SYNC_DOWN_LINK_ALIGNED_WIDTH = 7u;
inline constexpr uint32_t SYNC_DOWN_LINK_ALIGNED_MASK = 0x7Fu;
// every downstream port's frames dropped and line errors together, since reset, wrapping (one cycle behind the ports' own counts)
inline constexpr uint32_t REG_SYNC_DOWN_BAD_FRAMES = 312u;
// cycles from one Sync to the next that this board sends as a reference (on its downstream ports, and on its own link when SYNC_CTRL.REFERENCE): the two-way exchange rate its followers get; reset DDMTD_N + 1 (one exchange per DDMTD beat, 61,020/s); a write is clamped to DDMTD_N + 1 .. SYNC_EXCHANGE_PERIOD_MAX and reads back as in force; takes effect at the next Sync
inline constexpr uint32_t REG_SYNC_EXCHANGE_PERIOD = 316u;
// fixed delay reference->board outside the fibre (reference TX + board RX), ps, 0..SYNC_CAL_DELAY_MAX_PS
inline constexpr uint32_t REG_SYNC_CAL_DELAY_MS_PS = 320u;
// fixed delay board->reference outside the fibre (board TX + reference RX), ps, 0..SYNC_CAL_DELAY_MAX_PS
inline constexpr uint32_t REG_SYNC_CAL_DELAY_SM_PS = 324u;
// fibre asymmetry forward minus backward, ps, signed, |a| <= SYNC_CAL_ASYM_MAX_PS: forward = (fibre round trip + a)/2
inline constexpr uint32_t REG_SYNC_CAL_ASYM_PS = 328u;
// proportional gain, Q16 fraction of the phase error corrected per sample (<= 65536)
inline constexpr uint32_t REG_SYNC_KP = 336u;
// integral gain once locked, Q16 (<= 65536); until lock the servo integrates at least at SYNC_DEFAULT_KI_Q16, so a narrow tracking gain does not slow acquisition
inline constexpr uint32_t REG_SYNC_KI = 340u;
// lock threshold on |offset|, ps
inline constexpr uint32_t REG_SYNC_LOCK_THRESH_PS = 344u;
// consecutive samples below threshold to declare lock (>= 1)
inline constexpr uint32_t REG_SYNC_LOCK_SAMPLES = 348u;
// bound on the phase slew, ns per second (<= SYNC_SLEW_MAX_LIMIT): once locked, time never steps and never runs backwards (only the coarse time set before the first lock steps it)
inline constexpr uint32_t REG_SYNC_SLEW_MAX_NS_PER_S = 352u;
// oscillator pull range at DAC full scale, +- ppb (1..1000000)
inline constexpr uint32_t REG_SYNC_DAC_PULL_PPB = 356u;
// one MMCM fine phase step, fs (1/56 of the VCO period on UltraScale+; 1..1000000)
inline constexpr uint32_t REG_SYNC_PHASE_STEP_FS = 360u;
// Is this byte offset one of the registers above?
constexpr bool is_register(uint32_t offset) {
  switch (offset) {
    case REG_CAP_MAGIC:
    case REG_CAP_VERSION:
    case REG_CAP_PORTS:
    case REG_CAP_WAVELENGTHS:
    case REG_CAP_MAX_STEPS:
    case REG_CAP_MAX_CONFIGS:
    case REG_CAP_FINE_STEPS:
    case REG_CAP_CLK_PERIOD_PS:
    case REG_CAP_MIN_STEP_CYCLES:
    case REG_CAP_BOARD_ID:
    case REG_CAP_BUILD_HASH_LO:
    case REG_CAP_BUILD_HASH_HI:
    case REG_CAP_BUILD_TIME:
    case REG_CTRL:
    case REG_COMMIT_MODE:
    case REG_COMMIT_TIME_LO:
    case REG_COMMIT_TIME_HI:
    case REG_COMMIT_CRC:
    case REG_COMMIT:
    case REG_CANCEL:
    case REG_STATUS:
    case REG_ERROR:
    case REG_STEPS_LO:
    case REG_STEPS_HI:
    case REG_MISSED:
    case REG_CUR_STEP:
    case REG_CUR_CONFIG:
    case REG_GENERATION:
    case REG_TIME_LO:
    case REG_TIME_HI:
    case REG_EPOCHS:
    case REG_SWAPS:
    case REG_LAST_SWAP_LO:
    case REG_LAST_SWAP_HI:
    case REG_LEASE_OWNER:
    case REG_LEASE_EXPIRES_LO:
    case REG_LEASE_EXPIRES_HI:
    case REG_LEASE_TTL_MS:
    case REG_LEASE_CLAIM:
    case REG_LEASE_RELEASE:
    case REG_LEASE_BREAK:
    case REG_TRIGGER_TIME_LO:
    case REG_TRIGGER_TIME_HI:
    case REG_TRIGGERED_AT_LO:
    case REG_TRIGGERED_AT_HI:
    case REG_TRIGGERS:
    case REG_HEALTH:
    case REG_SCRATCH:
    case REG_TRIGGER_STEP:
    case REG_TRIGGERED_STEP:
    case REG_SYNC_CTRL:
    case REG_SYNC_STATUS:
    case REG_SYNC_ERROR:
    case REG_SYNC_OFFSET_PS:
    case REG_SYNC_RTT_PS:
    case REG_SYNC_DELAY_MS_PS:
    case REG_SYNC_SERVO_P_PS:
    case REG_SYNC_SERVO_I_PPT:
    case REG_SYNC_DAC:
    case REG_SYNC_PHASE_STEPS:
    case REG_SYNC_HOLDOVER_US:
    case REG_SYNC_LINK:
    case REG_SYNC_LINK_BAD_FRAMES:
    case REG_SYNC_DOWN_LINK:
    case REG_SYNC_DOWN_BAD_FRAMES:
    case REG_SYNC_EXCHANGE_PERIOD:
    case REG_SYNC_CAL_DELAY_MS_PS:
    case REG_SYNC_CAL_DELAY_SM_PS:
    case REG_SYNC_CAL_ASYM_PS:
    case REG_SYNC_KP:
    case REG_SYNC_KI:
    case REG_SYNC_LOCK_THRESH_PS:
    case REG_SYNC_LOCK_SAMPLES:
    case REG_SYNC_SLEW_MAX_NS_PER_S:
    case REG_SYNC_DAC_PULL_PPB:
    case REG_SYNC_PHASE_STEP_FS:
      return true;
    default:
      return false;
  }
}
// tune(a,b) in ticks at word a*WAVELENGTHS+b (bits 15:0): laser settling time from wavelength a to b; refused (SLVERR, ERROR.LOCKED_WRITE) while a schedule runs or a commit is under way, since verified schedules were checked against it
inline constexpr uint32_t MEM_TUNE_BASE = 0x10000u;
inline constexpr uint32_t MEM_TUNE_WORDS = 4096u;
// schedule bank 0 (image layout below); writes while it is locked (ERROR.LOCKED_WRITE) are refused with SLVERR
inline constexpr uint32_t MEM_BANK0_BASE = 0x20000u;
inline constexpr uint32_t MEM_BANK0_WORDS = 16384u;
// schedule bank 1
inline constexpr uint32_t MEM_BANK1_BASE = 0x30000u;
inline constexpr uint32_t MEM_BANK1_WORDS = 16384u;
// schedule image magic
inline constexpr uint32_t IMG_MAGIC = 0x4C525348u;
// schedule image format version
inline constexpr uint32_t IMG_VERSION = 1u;
inline constexpr uint32_t IMG_HEADER_WORDS = 16u;
// image magic 'LRSH'
inline constexpr uint32_t IMG_HDR_MAGIC = 0u;
// image format version
inline constexpr uint32_t IMG_HDR_VERSION = 1u;
// steps in the program, 1..MAX_STEPS
inline constexpr uint32_t IMG_HDR_N_STEPS = 2u;
// configurations, 1..MAX_CONFIGS
inline constexpr uint32_t IMG_HDR_N_CONFIGS = 3u;
// bit 0: cyclic
inline constexpr uint32_t IMG_HDR_FLAGS = 4u;
// gate-low time after each boundary, in ticks
inline constexpr uint32_t IMG_HDR_GUARD_TICKS = 5u;
// host-chosen schedule generation
inline constexpr uint32_t IMG_HDR_GENERATION = 6u;
// CRC-32 (IEEE, reflected) over header words 0..14, the used config words, then the used step words
inline constexpr uint32_t IMG_HDR_CRC = 15u;
inline constexpr uint32_t IMG_FLAGS_CYCLIC_LSB = 0u;
inline constexpr uint32_t IMG_FLAGS_CYCLIC_WIDTH = 1u;
inline constexpr uint32_t IMG_FLAGS_CYCLIC_MASK = 0x1u;
// first word of the configuration table
inline constexpr uint32_t IMG_CONFIG_BASE_WORD = 16u;
// words per configuration
inline constexpr uint32_t IMG_CONFIG_WORDS = 4u;
// bits per port entry within a configuration
inline constexpr uint32_t IMG_PORT_BITS = 8u;
// wavelength index
inline constexpr uint32_t IMG_PORT_WAVELENGTH_LSB = 0u;
inline constexpr uint32_t IMG_PORT_WAVELENGTH_WIDTH = 6u;
inline constexpr uint32_t IMG_PORT_WAVELENGTH_MASK = 0x3Fu;
// port dark: gate low, wavelength select kept
inline constexpr uint32_t IMG_PORT_DARK_LSB = 7u;
inline constexpr uint32_t IMG_PORT_DARK_WIDTH = 1u;
inline constexpr uint32_t IMG_PORT_DARK_MASK = 0x80u;
// first word of the step table
inline constexpr uint32_t IMG_STEP_BASE_WORD = 1040u;
// words per step
inline constexpr uint32_t IMG_STEP_WORDS = 2u;
// step duration in ticks, bits 31:0
inline constexpr uint32_t IMG_STEP_DURATION_LO_LSB = 0u;
inline constexpr uint32_t IMG_STEP_DURATION_LO_WIDTH = 32u;
inline constexpr uint32_t IMG_STEP_DURATION_LO_MASK = 0xFFFFFFFFu;
inline constexpr uint32_t IMG_STEP_DURATION_LO_WORD = 0u;
// step duration in ticks, bits 39:32
inline constexpr uint32_t IMG_STEP_DURATION_HI_LSB = 0u;
inline constexpr uint32_t IMG_STEP_DURATION_HI_WIDTH = 8u;
inline constexpr uint32_t IMG_STEP_DURATION_HI_MASK = 0xFFu;
inline constexpr uint32_t IMG_STEP_DURATION_HI_WORD = 1u;
// configuration index
inline constexpr uint32_t IMG_STEP_CONFIG_LSB = 8u;
inline constexpr uint32_t IMG_STEP_CONFIG_WIDTH = 12u;
inline constexpr uint32_t IMG_STEP_CONFIG_MASK = 0xFFF00u;
inline constexpr uint32_t IMG_STEP_CONFIG_WORD = 1u;
// event-triggered: the duration is a minimum; the step ends at the first allowed boundary after TRIGGER
inline constexpr uint32_t IMG_STEP_EVENT_LSB = 31u;
inline constexpr uint32_t IMG_STEP_EVENT_WIDTH = 1u;
inline constexpr uint32_t IMG_STEP_EVENT_MASK = 0x80000000u;
inline constexpr uint32_t IMG_STEP_EVENT_WORD = 1u;

}  // namespace lightrail::hwdef
