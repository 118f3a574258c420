// Generated from defs/regmap.json by defs/hwdef_gen; do not edit.
// A package of constants: not every user needs every one.
/* verilator lint_off UNUSEDPARAM */
package lightrail_hwdef_pkg;
  // version of this register map
  localparam logic [31:0] REGMAP_VERSION = 32'd7;
  // switch ports (tunable lasers or OCS ports) per board
  localparam logic [31:0] PORTS = 32'd16;
  // wavelength channels a port can select
  localparam logic [31:0] WAVELENGTHS = 32'd64;
  // bits of a wavelength index
  localparam logic [31:0] WAVELENGTH_BITS = 32'd6;
  // steps per schedule bank
  localparam logic [31:0] MAX_STEPS = 32'd4096;
  // configurations per schedule bank
  localparam logic [31:0] MAX_CONFIGS = 32'd256;
  // fine edge positions per system clock cycle (serializer bits)
  localparam logic [31:0] FINE_STEPS = 32'd32;
  // bits of a fine edge position
  localparam logic [31:0] FINE_BITS = 32'd5;
  // nominal system clock period (250 MHz)
  localparam logic [31:0] CLK_PERIOD_PS = 32'd4000;
  // one fine step (board time unit) = CLK_PERIOD_PS / FINE_STEPS
  localparam logic [31:0] TICK_PS = 32'd125;
  // shortest step the sequencer sustains, in system clock cycles
  localparam logic [31:0] MIN_STEP_CYCLES = 32'd4;
  // pipeline latency of the synthesised sequencer kernel, in cycles from its inputs to its outputs (the HLS schedule is pinned to it); hw/ tells the kernel a time this many cycles ahead so its edges land where a zero-latency kernel's would
  localparam logic [31:0] SEQ_KERNEL_LATENCY = 32'd1;
  // largest sequencer kernel pipeline latency the board top accepts (its kernel_latency is 4 bits); hw/ checks at elaboration that COMMAND_SETTLE_CYCLES covers it
  localparam logic [31:0] SEQ_KERNEL_LATENCY_MAX = 32'd15;
  // cycles from the sequencer's event outputs to the edge at the board outputs (the fine-edge stage register); the sequencer emits events this many cycles ahead
  localparam logic [31:0] OUTPUT_LATENCY_CYCLES = 32'd1;
  // an at-time commit may name a time at most this many seconds of board time ahead; a later one is refused (ERROR.COMMIT_FAR), since nothing but a cancel or STOP could end its wait
  localparam logic [31:0] COMMIT_HORIZON_S = 32'd3600;
  // reset value of LEASE_TTL_MS
  localparam logic [31:0] LEASE_DEFAULT_TTL_MS = 32'd10000;
  // largest LEASE_TTL_MS (one hour); larger writes are clamped
  localparam logic [31:0] LEASE_TTL_MAX_MS = 32'h36EE80;
  // cycles a COMMIT keeps the inactive bank and the tune table locked, from its pulse, until the kernel's STATUS shows VERIFY_BUSY (pulse + latency + 1 cycles): SEQ_KERNEL_LATENCY_MAX + 1, so it covers every latency the top can be built or run with; the read path's kernel fence waits as long
  localparam logic [31:0] COMMAND_SETTLE_CYCLES = 32'd16;
  // tune(a,b) calibration entries, index a*WAVELENGTHS+b
  localparam logic [31:0] TUNE_ENTRIES = 32'd4096;
  // 32-bit words per sequencer-side bank read (128-bit line)
  localparam logic [31:0] BANK_LINE_WORDS = 32'd4;
  // 128-bit lines per bank memory
  localparam logic [31:0] BANK_LINES = 32'd4096;
  // AXI4-Lite byte address width
  localparam logic [31:0] AXI_ADDR_BITS = 32'd18;
  // bits of a DDMTD tag; N = 2**DDMTD_TAG_BITS
  localparam logic [31:0] DDMTD_TAG_BITS = 32'd12;
  // DDMTD helper clock = system clock * N/(N+1): phase resolution CLK_PERIOD_PS/N (~0.98 ps), one phase sample per N+1 system cycles (~16.4 us)
  localparam logic [31:0] DDMTD_N = 32'd4096;
  // longest chain of boundary clocks (hops from the grandmaster) the servo is verified for (measured by sim.sync.chain16, figures in docs/clock-sync.md); a longer chain is refused (the co-simulation's scenario and the driver's fabric file, its sync_parent tree) rather than run unverified
  localparam logic [31:0] SYNC_MAX_CHAIN_HOPS = 32'd16;
  // longest fibre from a reference to a board the servo is designed and verified for, m (group index <= 1.5: 50 us one way); it bounds the age of a two-way exchange (the Delay_Resp carrying t4 returns over the fibre: about three one-way delays plus framing), which the servo waits out after a time step and before it takes the whole-period count; a longer link is refused by the co-simulation's scenario (docs/clock-sync.md)
  localparam logic [31:0] SYNC_MAX_FIBRE_M = 32'd10000;
  // SYNC_KI for a boundary clock whose parent is itself a boundary clock (96/65536 with KP = 1/4: jitter-transfer peaking 0.17 dB, 0.19 dB with a whole update of loop delay, under the 0.2 dB ITU-T G.8262 allows an equipment clock; docs/clock-sync.md, tests/hls_sync/jitter_transfer_test.cpp); the default peaks 1.3 dB per hop, which compounds along a chain; the first hop keeps the default, which tracks the grandmaster faster and holds over better
  localparam logic [31:0] SYNC_CASCADE_KI_Q16 = 32'd96;
  // bits per word of the sync link's transceiver, one word per system cycle (unit interval CLK_PERIOD_PS / SYNC_LINK_WORD_BITS = 125 ps); a receiver lock lands the word boundary on any of these bits (the bitslide), which the servo adds to the receive delay
  localparam logic [31:0] SYNC_LINK_WORD_BITS = 32'd32;
  // bit of a sync link frame's flags (and of the servo's sync_parent_flags input): the sender's servo is locked (a grandmaster always says so)
  localparam logic [31:0] SYNC_FLAG_LOCKED_BIT = 32'd0;
  // bit of a sync link frame's flags: the sender's time is good to follow (a grandmaster, or a servo locked once since enable that has kept its time since: re-acquiring after a link change, or in holdover); a boundary clock follows its reference while this is set, like PTP's clockClass, and holds over (SYNC_ERROR.PARENT_LOST) when it clears
  localparam logic [31:0] SYNC_FLAG_TIME_VALID_BIT = 32'd1;
  // bit of a sync link frame's flags: the sender is in holdover (its own reference lost or invalid): its time is valid but free-running on its oscillator
  localparam logic [31:0] SYNC_FLAG_HOLDOVER_BIT = 32'd2;
  // downstream timing-link ports of the board top (hw/sync_port.sv), each the reference end of a link to one follower, besides the board's own link: a grandmaster serves up to 1 + SYNC_DOWN_PORTS followers, a boundary clock SYNC_DOWN_PORTS; a board wrapper sets what its transceivers carry (the ZCU102's: 0)
  localparam logic [31:0] SYNC_DOWN_PORTS = 32'd7;
  // width of the sync link frame's flags the servo takes (sync_parent_flags)
  localparam logic [31:0] SYNC_FLAG_BITS = 32'd3;
  // the fastest a serving boundary clock (SYNC_CTRL.SERVES) moves its time once it is valid (after its first lock since enable), ppb: re-acquiring after a link change or a holdover it slews at most this fast, so the boundary clocks below it follow within their lock threshold (a proportional gain of 1/4 lags a ramp by 4 ramp steps per hop: 16 ps per hop) and stay coherent with each other (docs/clock-sync.md, "Boundary clocks that keep serving")
  localparam logic [31:0] SYNC_SERVING_SLEW_PPB = 32'd250;
  // cycles the synthesised servo kernel (hls/clock_sync) takes per update, from the cycle it latches its inputs (a DDMTD phase strobe, or a beat and a quarter without one) to its new outputs and one-cycle load strobes (the HLS schedule of the update is pinned to it; a quarter of a DDMTD beat); it reads no input meanwhile (sync_busy), and the board top holds a SYNC_ERROR clear or DDMTD phase that arrives then until it is free
  localparam logic [31:0] SYNC_KERNEL_LATENCY = 32'd1024;
  // width of the oscillator (VCXO) DAC word; mid-scale is the nominal frequency
  localparam logic [31:0] SYNC_DAC_BITS = 32'd16;
  // largest fixed (transceiver) delay a SYNC_CAL_DELAY_* register accepts, ps; larger values are clamped and flagged
  localparam logic [31:0] SYNC_CAL_DELAY_MAX_PS = 32'hF4240;
  // largest |fibre asymmetry| SYNC_CAL_ASYM_PS accepts, ps; beyond it clamped and flagged
  localparam logic [31:0] SYNC_CAL_ASYM_MAX_PS = 32'hF4240;
  // largest SYNC_SLEW_MAX_NS_PER_S accepted (1000 ppm); beyond it clamped and flagged
  localparam logic [31:0] SYNC_SLEW_MAX_LIMIT = 32'hF4240;
  // coarse time set: a two-way offset at least this large before the first lock since enable is removed by stepping board time by whole clock cycles instead of slewing
  localparam logic [31:0] SYNC_TIME_STEP_MIN_PS = 32'h186A0;
  // longest SYNC_EXCHANGE_PERIOD, cycles (16 exchanges per second, PTP-like: the slowest rate the servo is verified at, on 1 and 10 km at +-20% tuning gain, by clock_exchange_rate_bench, docs/clock-sync.md); the shortest is DDMTD_N + 1, one exchange per DDMTD beat, its reset value
  localparam logic [31:0] SYNC_EXCHANGE_PERIOD_MAX = 32'hEE6B28;
  // reset value of SYNC_KP (0.25: a quarter of the phase error corrected per sample)
  localparam logic [31:0] SYNC_DEFAULT_KP_Q16 = 32'd16384;
  // reset value of SYNC_KI (1/64: with KP = 1/4 a critically damped loop, time constant 8 samples)
  localparam logic [31:0] SYNC_DEFAULT_KI_Q16 = 32'd1024;
  // reset value of SYNC_LOCK_THRESH_PS
  localparam logic [31:0] SYNC_DEFAULT_LOCK_THRESH_PS = 32'd50;
  // reset value of SYNC_LOCK_SAMPLES
  localparam logic [31:0] SYNC_DEFAULT_LOCK_SAMPLES = 32'd16;
  // reset value of SYNC_SLEW_MAX_NS_PER_S (200 ppm, within an MMCM's phase-shift rate)
  localparam logic [31:0] SYNC_DEFAULT_SLEW_MAX_NS_PER_S = 32'h30D40;
  // reset value of SYNC_DAC_PULL_PPB (a +-50 ppm VCXO)
  localparam logic [31:0] SYNC_DEFAULT_DAC_PULL_PPB = 32'd50000;
  // reset value of SYNC_PHASE_STEP_FS: 1/56 of a 1000 MHz MMCM VCO period
  localparam logic [31:0] SYNC_DEFAULT_PHASE_STEP_FS = 32'd17857;
  // capability block magic 'LRAL'
  localparam logic [31:0] REG_CAP_MAGIC = 32'd0;
  localparam logic [31:0] CAP_MAGIC_VALUE = 32'h4C52414C;
  // regmap_version of this register map
  localparam logic [31:0] REG_CAP_VERSION = 32'd4;
  // PORTS
  localparam logic [31:0] REG_CAP_PORTS = 32'd8;
  // WAVELENGTHS
  localparam logic [31:0] REG_CAP_WAVELENGTHS = 32'd12;
  // MAX_STEPS
  localparam logic [31:0] REG_CAP_MAX_STEPS = 32'd16;
  // MAX_CONFIGS
  localparam logic [31:0] REG_CAP_MAX_CONFIGS = 32'd20;
  // FINE_STEPS
  localparam logic [31:0] REG_CAP_FINE_STEPS = 32'd24;
  // CLK_PERIOD_PS
  localparam logic [31:0] REG_CAP_CLK_PERIOD_PS = 32'd28;
  // MIN_STEP_CYCLES
  localparam logic [31:0] REG_CAP_MIN_STEP_CYCLES = 32'd32;
  // board index, strapped at the top level
  localparam logic [31:0] REG_CAP_BOARD_ID = 32'd36;
  // build ID: source hash, bits 31:0 (the first 64 bits of the git commit the bitstream or model was built from, set at build time by a parameter of the top; 0: unknown)
  localparam logic [31:0] REG_CAP_BUILD_HASH_LO = 32'd40;
  // build ID: source hash, bits 63:32 (CAP_BUILD_HASH_HI:CAP_BUILD_HASH_LO is the commit's first 16 hex digits)
  localparam logic [31:0] REG_CAP_BUILD_HASH_HI = 32'd44;
  // build ID: build time, seconds since 1970-01-01 UTC (SOURCE_DATE_EPOCH when set, else the commit's time, so a rebuild of one commit gives one build ID; 0: unknown). With CAP_VERSION, the build ID
  localparam logic [31:0] REG_CAP_BUILD_TIME = 32'd48;
  // command pulses; reads as 0
  localparam logic [31:0] REG_CTRL = 32'd64;
  // advance an event-triggered step at the next allowed boundary
  localparam logic [31:0] CTRL_TRIGGER_LSB = 32'd1;
  localparam logic [31:0] CTRL_TRIGGER_WIDTH = 32'd1;
  localparam logic [31:0] CTRL_TRIGGER_MASK = 32'h2;
  // clear every ERROR flag
  localparam logic [31:0] CTRL_CLEAR_ERRORS_LSB = 32'd2;
  localparam logic [31:0] CTRL_CLEAR_ERRORS_WIDTH = 32'd1;
  localparam logic [31:0] CTRL_CLEAR_ERRORS_MASK = 32'h4;
  // stop at the next step boundary; all gates low
  localparam logic [31:0] CTRL_STOP_LSB = 32'd3;
  localparam logic [31:0] CTRL_STOP_WIDTH = 32'd1;
  localparam logic [31:0] CTRL_STOP_MASK = 32'h8;
  // advance an event-triggered step at the first allowed boundary at or after TRIGGER_TIME (a timed trigger: boards told one time take one boundary together); the resolved boundary is in TRIGGERED_AT
  localparam logic [31:0] CTRL_TRIGGER_AT_LSB = 32'd4;
  localparam logic [31:0] CTRL_TRIGGER_AT_WIDTH = 32'd1;
  localparam logic [31:0] CTRL_TRIGGER_AT_MASK = 32'h10;
  // with TRIGGER or TRIGGER_AT: the step after the event step is TRIGGER_STEP instead of the next one (a jump, for phases in any order); a TRIGGER_STEP outside the running schedule is refused (ERROR.BAD_TRIGGER_STEP) and the trigger dropped. A commit swap due at that boundary wins over the jump
  localparam logic [31:0] CTRL_TRIGGER_JUMP_LSB = 32'd5;
  localparam logic [31:0] CTRL_TRIGGER_JUMP_WIDTH = 32'd1;
  localparam logic [31:0] CTRL_TRIGGER_JUMP_MASK = 32'h20;
  localparam logic [31:0] REG_COMMIT_MODE = 32'd68;
  // 0: at the next epoch boundary (immediately when idle); 1: at the first step boundary at or after COMMIT_TIME (exactly COMMIT_TIME when idle)
  localparam logic [31:0] COMMIT_MODE_AT_TIME_LSB = 32'd0;
  localparam logic [31:0] COMMIT_MODE_AT_TIME_WIDTH = 32'd1;
  localparam logic [31:0] COMMIT_MODE_AT_TIME_MASK = 32'h1;
  // commit board time in ticks, bits 31:0
  localparam logic [31:0] REG_COMMIT_TIME_LO = 32'd72;
  // commit board time in ticks, bits 63:32
  localparam logic [31:0] REG_COMMIT_TIME_HI = 32'd76;
  // the image CRC (header word CRC) the next COMMIT expects: the board swaps only a bank whose verified CRC equals it, so a commit is a compare-and-swap on exactly the image its writer staged (ERROR.COMMIT_MISMATCH otherwise)
  localparam logic [31:0] REG_COMMIT_CRC = 32'd80;
  // write the lease token: verify the inactive bank and make it active per COMMIT_MODE, COMMIT_TIME and COMMIT_CRC. Refused (SLVERR, nothing done) unless the token holds the live lease; from the write on, the inactive bank and the tune table refuse writes until the commit swaps, fails or is cancelled
  localparam logic [31:0] REG_COMMIT = 32'd84;
  // write the lease token: drop a commit that is verifying or waits for its swap boundary, if none of the swap's edges has left yet (STATUS.CANCELLED says it was in time; otherwise SWAPS shows the swap). Refused (SLVERR) unless the token holds the live lease
  localparam logic [31:0] REG_CANCEL = 32'd88;
  localparam logic [31:0] REG_STATUS = 32'd96;
  // a schedule is being executed
  localparam logic [31:0] STATUS_RUNNING_LSB = 32'd0;
  localparam logic [31:0] STATUS_RUNNING_WIDTH = 32'd1;
  localparam logic [31:0] STATUS_RUNNING_MASK = 32'h1;
  // bank the sequencer executes; the host writes the other
  localparam logic [31:0] STATUS_ACTIVE_BANK_LSB = 32'd1;
  localparam logic [31:0] STATUS_ACTIVE_BANK_WIDTH = 32'd1;
  localparam logic [31:0] STATUS_ACTIVE_BANK_MASK = 32'h2;
  // a verified bank waits for its swap boundary
  localparam logic [31:0] STATUS_COMMIT_PENDING_LSB = 32'd2;
  localparam logic [31:0] STATUS_COMMIT_PENDING_WIDTH = 32'd1;
  localparam logic [31:0] STATUS_COMMIT_PENDING_MASK = 32'h4;
  // the inactive bank is being checked
  localparam logic [31:0] STATUS_VERIFY_BUSY_LSB = 32'd3;
  localparam logic [31:0] STATUS_VERIFY_BUSY_WIDTH = 32'd1;
  localparam logic [31:0] STATUS_VERIFY_BUSY_MASK = 32'h8;
  // the current step is event-triggered and waits for TRIGGER
  localparam logic [31:0] STATUS_WAITING_TRIGGER_LSB = 32'd4;
  localparam logic [31:0] STATUS_WAITING_TRIGGER_WIDTH = 32'd1;
  localparam logic [31:0] STATUS_WAITING_TRIGGER_MASK = 32'h10;
  // the last commit was dropped by CANCEL before its swap (cleared by the next COMMIT)
  localparam logic [31:0] STATUS_CANCELLED_LSB = 32'd5;
  localparam logic [31:0] STATUS_CANCELLED_WIDTH = 32'd1;
  localparam logic [31:0] STATUS_CANCELLED_MASK = 32'h20;
  // sticky error flags; write 1 to clear
  localparam logic [31:0] REG_ERROR = 32'd100;
  // committed bank has a wrong magic
  localparam logic [31:0] ERROR_BAD_MAGIC_LSB = 32'd0;
  localparam logic [31:0] ERROR_BAD_MAGIC_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_BAD_MAGIC_MASK = 32'h1;
  // committed bank has an unknown image version
  localparam logic [31:0] ERROR_BAD_VERSION_LSB = 32'd1;
  localparam logic [31:0] ERROR_BAD_VERSION_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_BAD_VERSION_MASK = 32'h2;
  // step/config count or a config index out of range
  localparam logic [31:0] ERROR_BAD_BOUNDS_LSB = 32'd2;
  localparam logic [31:0] ERROR_BAD_BOUNDS_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_BAD_BOUNDS_MASK = 32'h4;
  // committed bank fails its CRC
  localparam logic [31:0] ERROR_BAD_CRC_LSB = 32'd3;
  localparam logic [31:0] ERROR_BAD_CRC_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_BAD_CRC_MASK = 32'h8;
  // the host wrote a locked bank (the running one, or the inactive one while it verifies or waits for its swap) or the tune table while a schedule runs or a commit is under way; the write was refused (SLVERR)
  localparam logic [31:0] ERROR_LOCKED_WRITE_LSB = 32'd4;
  localparam logic [31:0] ERROR_LOCKED_WRITE_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_LOCKED_WRITE_MASK = 32'h10;
  // a step boundary was served late
  localparam logic [31:0] ERROR_MISSED_DEADLINE_LSB = 32'd5;
  localparam logic [31:0] ERROR_MISSED_DEADLINE_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_MISSED_DEADLINE_MASK = 32'h20;
  // commit time too close or in the past; commit dropped
  localparam logic [31:0] ERROR_COMMIT_LATE_LSB = 32'd6;
  localparam logic [31:0] ERROR_COMMIT_LATE_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_COMMIT_LATE_MASK = 32'h40;
  // the verified bank's CRC is not COMMIT_CRC (the bank holds another image than its committer staged); commit dropped
  localparam logic [31:0] ERROR_COMMIT_MISMATCH_LSB = 32'd7;
  localparam logic [31:0] ERROR_COMMIT_MISMATCH_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_COMMIT_MISMATCH_MASK = 32'h80;
  // commit time more than COMMIT_HORIZON_S ahead; commit dropped
  localparam logic [31:0] ERROR_COMMIT_FAR_LSB = 32'd8;
  localparam logic [31:0] ERROR_COMMIT_FAR_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_COMMIT_FAR_MASK = 32'h100;
  // a COMMIT came while another commit was verifying or waiting for its swap, or a STOP was pending; it was dropped
  localparam logic [31:0] ERROR_COMMIT_BUSY_LSB = 32'd9;
  localparam logic [31:0] ERROR_COMMIT_BUSY_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_COMMIT_BUSY_MASK = 32'h200;
  // a jumping trigger (CTRL.TRIGGER_JUMP) named a TRIGGER_STEP outside the running schedule (at or beyond its step count, or no schedule runs); the trigger was dropped, the schedule runs on untouched
  localparam logic [31:0] ERROR_BAD_TRIGGER_STEP_LSB = 32'd10;
  localparam logic [31:0] ERROR_BAD_TRIGGER_STEP_WIDTH = 32'd1;
  localparam logic [31:0] ERROR_BAD_TRIGGER_STEP_MASK = 32'h400;
  // steps executed, bits 31:0 (reading LO latches HI)
  localparam logic [31:0] REG_STEPS_LO = 32'd104;
  // steps executed, bits 63:32
  localparam logic [31:0] REG_STEPS_HI = 32'd108;
  // step boundaries served late
  localparam logic [31:0] REG_MISSED = 32'd112;
  // index of the executing step
  localparam logic [31:0] REG_CUR_STEP = 32'd116;
  // configuration of the executing step
  localparam logic [31:0] REG_CUR_CONFIG = 32'd120;
  // generation word of the active bank's header
  localparam logic [31:0] REG_GENERATION = 32'd124;
  // board time in ticks, bits 31:0 (reading LO latches HI)
  localparam logic [31:0] REG_TIME_LO = 32'd128;
  // board time in ticks, bits 63:32
  localparam logic [31:0] REG_TIME_HI = 32'd132;
  // passes of the active schedule ended since it was committed: wraps, a one-shot end, jumps to step 0 (docs/sequencer.md)
  localparam logic [31:0] REG_EPOCHS = 32'd136;
  // bank swaps (activations) so far
  localparam logic [31:0] REG_SWAPS = 32'd140;
  // board time of the last swap in ticks, bits 31:0 (reading LO latches HI)
  localparam logic [31:0] REG_LAST_SWAP_LO = 32'd144;
  // board time of the last swap in ticks, bits 63:32
  localparam logic [31:0] REG_LAST_SWAP_HI = 32'd148;
  // token of the writer holding the lease; 0: free (never claimed, released or expired). One writer owns a board at a time; status readers need no lease
  localparam logic [31:0] REG_LEASE_OWNER = 32'd160;
  // board time the lease expires in ticks, bits 31:0 (reading LO latches HI)
  localparam logic [31:0] REG_LEASE_EXPIRES_LO = 32'd164;
  // board time the lease expires in ticks, bits 63:32
  localparam logic [31:0] REG_LEASE_EXPIRES_HI = 32'd168;
  // lifetime a claim or renewal gives the lease, ms of board time (1..LEASE_TTL_MAX_MS, clamped)
  localparam logic [31:0] REG_LEASE_TTL_MS = 32'd172;
  // write a non-zero token: take the lease if it is free or expired, or renew it if the token holds it (expiry = now + LEASE_TTL_MS); SLVERR and nothing changed if another token holds it
  localparam logic [31:0] REG_LEASE_CLAIM = 32'd176;
  // write the token holding the lease: free it; SLVERR if the token does not hold it
  localparam logic [31:0] REG_LEASE_RELEASE = 32'd180;
  // write a non-zero token: take the lease whoever holds it (deliberate break of a stale lease); the previous holder's COMMIT and CANCEL are refused from then on
  localparam logic [31:0] REG_LEASE_BREAK = 32'd184;
  // board time of a timed trigger (CTRL.TRIGGER_AT) in ticks, bits 31:0
  localparam logic [31:0] REG_TRIGGER_TIME_LO = 32'd192;
  // board time of a timed trigger in ticks, bits 63:32
  localparam logic [31:0] REG_TRIGGER_TIME_HI = 32'd196;
  // board time in ticks of the boundary the last trigger resolved, bits 31:0 (reading LO latches HI)
  localparam logic [31:0] REG_TRIGGERED_AT_LO = 32'd200;
  // board time of the boundary the last trigger resolved, bits 63:32
  localparam logic [31:0] REG_TRIGGERED_AT_HI = 32'd204;
  // triggers that ended an event step so far (a trigger's boundary is in TRIGGERED_AT once this counts it)
  localparam logic [31:0] REG_TRIGGERS = 32'd208;
  // board health inputs of the top (inputs of lightrail_board_top, synchronised to the system clock): what `lightrail health` checks beside the clock-sync and error registers
  localparam logic [31:0] REG_HEALTH = 32'd212;
  // the board wrapper's system-clock MMCM reports lock
  localparam logic [31:0] HEALTH_MMCM_LOCKED_LSB = 32'd0;
  localparam logic [31:0] HEALTH_MMCM_LOCKED_WIDTH = 32'd1;
  localparam logic [31:0] HEALTH_MMCM_LOCKED_MASK = 32'h1;
  // the sync link's receiver (towards this board's reference) has lock: the link is up; 0 on a board with no reference link (a grandmaster)
  localparam logic [31:0] HEALTH_LINK_UP_LSB = 32'd1;
  localparam logic [31:0] HEALTH_LINK_UP_WIDTH = 32'd1;
  localparam logic [31:0] HEALTH_LINK_UP_MASK = 32'h2;
  // a register with no effect, reset 0: the host writes and reads it back to test the register path (`lightrail flash`'s self-test)
  localparam logic [31:0] REG_SCRATCH = 32'd216;
  // the step a jumping trigger (CTRL.TRIGGER_JUMP) goes to at its boundary, 0..N_STEPS-1 of the running schedule
  localparam logic [31:0] REG_TRIGGER_STEP = 32'd220;
  // the step the last trigger's boundary went into (TRIGGER_STEP after a jump, else the step after the event step), valid with TRIGGERED_AT
  localparam logic [31:0] REG_TRIGGERED_STEP = 32'd224;
  // clock-synchronisation servo control (docs/clock-sync.md)
  localparam logic [31:0] REG_SYNC_CTRL = 32'd256;
  // run the servo; 0: DAC at mid-scale, no phase steps, state DISABLED
  localparam logic [31:0] SYNC_CTRL_ENABLE_LSB = 32'd0;
  localparam logic [31:0] SYNC_CTRL_ENABLE_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_CTRL_ENABLE_MASK = 32'h1;
  // refine the two-way offset with the DDMTD phase; 0: two-way exchange only (PTP-style)
  localparam logic [31:0] SYNC_CTRL_USE_DDMTD_LSB = 32'd1;
  localparam logic [31:0] SYNC_CTRL_USE_DDMTD_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_CTRL_USE_DDMTD_MASK = 32'h2;
  // this board is the reference on its sync link (a grandmaster): its message engine sends Sync and Follow_Up frames and answers Delay_Req; 0: it follows the link (docs/hw-clock-sync.md, sync_link)
  localparam logic [31:0] SYNC_CTRL_REFERENCE_LSB = 32'd2;
  localparam logic [31:0] SYNC_CTRL_REFERENCE_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_CTRL_REFERENCE_MASK = 32'h4;
  // this follower is the reference of other boards (a boundary clock): once its time is valid it re-acquires at most at SYNC_SERVING_SLEW_PPB, so the boards below it follow without losing lock
  localparam logic [31:0] SYNC_CTRL_SERVES_LSB = 32'd3;
  localparam logic [31:0] SYNC_CTRL_SERVES_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_CTRL_SERVES_MASK = 32'h8;
  localparam logic [31:0] REG_SYNC_STATUS = 32'd260;
  // 0 DISABLED, 1 FREE_RUN (no reference yet), 2 COARSE (slewing at the bound), 3 TRACK (PI on the two-way offset), 4 FINE (PI on the DDMTD phase), 5 LOCKED, 6 HOLDOVER
  localparam logic [31:0] SYNC_STATUS_STATE_LSB = 32'd0;
  localparam logic [31:0] SYNC_STATUS_STATE_WIDTH = 32'd3;
  localparam logic [31:0] SYNC_STATUS_STATE_MASK = 32'h7;
  // |offset| below SYNC_LOCK_THRESH_PS for SYNC_LOCK_SAMPLES samples in a row
  localparam logic [31:0] SYNC_STATUS_LOCKED_LSB = 32'd3;
  localparam logic [31:0] SYNC_STATUS_LOCKED_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_STATUS_LOCKED_MASK = 32'h8;
  // reference lost: frequency held at the last servo value
  localparam logic [31:0] SYNC_STATUS_HOLDOVER_LSB = 32'd4;
  localparam logic [31:0] SYNC_STATUS_HOLDOVER_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_STATUS_HOLDOVER_MASK = 32'h10;
  // reference link present
  localparam logic [31:0] SYNC_STATUS_REF_OK_LSB = 32'd5;
  localparam logic [31:0] SYNC_STATUS_REF_OK_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_STATUS_REF_OK_MASK = 32'h20;
  // the phase correction is limited by SYNC_SLEW_MAX_NS_PER_S
  localparam logic [31:0] SYNC_STATUS_SLEWING_LSB = 32'd6;
  localparam logic [31:0] SYNC_STATUS_SLEWING_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_STATUS_SLEWING_MASK = 32'h40;
  // the servo error comes from the DDMTD phase
  localparam logic [31:0] SYNC_STATUS_DDMTD_ACTIVE_LSB = 32'd7;
  localparam logic [31:0] SYNC_STATUS_DDMTD_ACTIVE_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_STATUS_DDMTD_ACTIVE_MASK = 32'h80;
  // the frequency correction is held at the edge of SYNC_DAC_PULL_PPB: the oscillator cannot be pulled further
  localparam logic [31:0] SYNC_STATUS_DAC_AT_RAIL_LSB = 32'd8;
  localparam logic [31:0] SYNC_STATUS_DAC_AT_RAIL_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_STATUS_DAC_AT_RAIL_MASK = 32'h100;
  // this board's time is good to follow: locked once since enable and kept since (locked, re-acquiring or in holdover); its frames say so (SYNC_FLAG_TIME_VALID_BIT)
  localparam logic [31:0] SYNC_STATUS_TIME_VALID_LSB = 32'd9;
  localparam logic [31:0] SYNC_STATUS_TIME_VALID_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_STATUS_TIME_VALID_MASK = 32'h200;
  // own link up, and the reference's frames say its time is valid but it is not locked (re-acquiring after a change of its own link, or in holdover): this board keeps following it; not a fault of this board's link
  localparam logic [31:0] SYNC_STATUS_PARENT_DEGRADED_LSB = 32'd10;
  localparam logic [31:0] SYNC_STATUS_PARENT_DEGRADED_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_STATUS_PARENT_DEGRADED_MASK = 32'h400;
  // own link up, and the reference's frames say it is in holdover (its own reference lost)
  localparam logic [31:0] SYNC_STATUS_PARENT_HOLDOVER_LSB = 32'd11;
  localparam logic [31:0] SYNC_STATUS_PARENT_HOLDOVER_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_STATUS_PARENT_HOLDOVER_MASK = 32'h800;
  // sticky servo flags; write 1 to clear
  localparam logic [31:0] REG_SYNC_ERROR = 32'd264;
  // a calibration or limit register was out of range and was clamped
  localparam logic [31:0] SYNC_ERROR_CAL_CLAMPED_LSB = 32'd0;
  localparam logic [31:0] SYNC_ERROR_CAL_CLAMPED_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_ERROR_CAL_CLAMPED_MASK = 32'h1;
  // a two-way exchange was rejected (negative round trip, calibration larger than the measured round trip, or a one-way delay far from the filtered one: an exchange across a time step)
  localparam logic [31:0] SYNC_ERROR_BAD_EXCHANGE_LSB = 32'd1;
  localparam logic [31:0] SYNC_ERROR_BAD_EXCHANGE_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_ERROR_BAD_EXCHANGE_MASK = 32'h2;
  // |offset| exceeded twice the lock threshold while locked
  localparam logic [31:0] SYNC_ERROR_LOST_LOCK_LSB = 32'd2;
  localparam logic [31:0] SYNC_ERROR_LOST_LOCK_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_ERROR_LOST_LOCK_MASK = 32'h4;
  // this board's own link to its reference went down (loss of light, receiver not aligned): holdover entered
  localparam logic [31:0] SYNC_ERROR_REF_LOST_LSB = 32'd3;
  localparam logic [31:0] SYNC_ERROR_REF_LOST_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_ERROR_REF_LOST_MASK = 32'h8;
  // in FINE, the DDMTD-refined offset and the two-way offset disagreed by more than an eighth of a period: the DDMTD sample was dropped and the servo re-acquires from TRACK
  localparam logic [31:0] SYNC_ERROR_PHASE_SLIP_LSB = 32'd4;
  localparam logic [31:0] SYNC_ERROR_PHASE_SLIP_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_ERROR_PHASE_SLIP_MASK = 32'h10;
  // the coarse time set stepped board time (an offset beyond SYNC_TIME_STEP_MIN_PS before the first lock since enable)
  localparam logic [31:0] SYNC_ERROR_TIME_STEPPED_LSB = 32'd5;
  localparam logic [31:0] SYNC_ERROR_TIME_STEPPED_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_ERROR_TIME_STEPPED_MASK = 32'h20;
  // the servo wanted a frequency correction beyond SYNC_DAC_PULL_PPB (the DAC word held at its rail): the oscillator is outside its pull range or the loop is unstable
  localparam logic [31:0] SYNC_ERROR_DAC_SATURATED_LSB = 32'd6;
  localparam logic [31:0] SYNC_ERROR_DAC_SATURATED_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_ERROR_DAC_SATURATED_MASK = 32'h40;
  // this board's own link: while locked the path delay or the DDMTD phase stepped by more than the lock threshold: within a quarter period the servo re-pointed its phase setpoint and slewed the board by the step (lock kept); beyond, or when the DDMTD and the exchange disagree, it re-acquired from TRACK
  localparam logic [31:0] SYNC_ERROR_DELAY_STEP_LSB = 32'd7;
  localparam logic [31:0] SYNC_ERROR_DELAY_STEP_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_ERROR_DELAY_STEP_MASK = 32'h80;
  // own link up, but the reference's frames declared its time invalid (it was reset, disabled or never locked): holdover entered; not a fault of this board's link
  localparam logic [31:0] SYNC_ERROR_PARENT_LOST_LSB = 32'd8;
  localparam logic [31:0] SYNC_ERROR_PARENT_LOST_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_ERROR_PARENT_LOST_MASK = 32'h100;
  // servo's estimate of local minus reference time, ps, signed (saturates)
  localparam logic [31:0] REG_SYNC_OFFSET_PS = 32'd268;
  // last round-trip delay (t2-t1)+(t4-t3), ps
  localparam logic [31:0] REG_SYNC_RTT_PS = 32'd272;
  // estimated one-way delay reference to this board (fixed + fibre forward), ps
  localparam logic [31:0] REG_SYNC_DELAY_MS_PS = 32'd276;
  // last proportional (phase) correction, ps, signed
  localparam logic [31:0] REG_SYNC_SERVO_P_PS = 32'd280;
  // integral term: frequency correction in parts per 10^12, signed
  localparam logic [31:0] REG_SYNC_SERVO_I_PPT = 32'd284;
  // oscillator DAC word driven (SYNC_DAC_BITS wide)
  localparam logic [31:0] REG_SYNC_DAC = 32'd288;
  // net MMCM fine phase steps issued since enable, signed, wraps
  localparam logic [31:0] REG_SYNC_PHASE_STEPS = 32'd292;
  // time spent in the current (or last) holdover, us
  localparam logic [31:0] REG_SYNC_HOLDOVER_US = 32'd296;
  // this board's own timing link (port 0, hw/sync_port.sv): its message engine (hw/sync_link.sv); the co-simulation runs the engine (docs/cosim.md; in its fast mode, sync.link "model", the receiver is held in reset and this reads 0)
  localparam logic [31:0] REG_SYNC_LINK = 32'd300;
  // the receiver found the word boundary (a run of IDLE words at one bit offset): the far end runs the message engine
  localparam logic [31:0] SYNC_LINK_ALIGNED_LSB = 32'd0;
  localparam logic [31:0] SYNC_LINK_ALIGNED_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_LINK_ALIGNED_MASK = 32'h1;
  // follower: the reference's last Sync said it is locked (or a grandmaster)
  localparam logic [31:0] SYNC_LINK_PARENT_LOCKED_LSB = 32'd1;
  localparam logic [31:0] SYNC_LINK_PARENT_LOCKED_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_LINK_PARENT_LOCKED_MASK = 32'h2;
  // follower: the reference's last Sync said its time is valid (SYNC_FLAG_TIME_VALID_BIT); the servo follows only then
  localparam logic [31:0] SYNC_LINK_PARENT_TIME_VALID_LSB = 32'd2;
  localparam logic [31:0] SYNC_LINK_PARENT_TIME_VALID_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_LINK_PARENT_TIME_VALID_MASK = 32'h4;
  // follower: the reference's last Sync said it is in holdover
  localparam logic [31:0] SYNC_LINK_PARENT_HOLDOVER_LSB = 32'd3;
  localparam logic [31:0] SYNC_LINK_PARENT_HOLDOVER_WIDTH = 32'd1;
  localparam logic [31:0] SYNC_LINK_PARENT_HOLDOVER_MASK = 32'h8;
  // unit intervals from the transmitted word boundary to the receiver's (0..SYNC_LINK_WORD_BITS-1), valid while ALIGNED; added to the receive delay
  localparam logic [31:0] SYNC_LINK_BITSLIDE_LSB = 32'd8;
  localparam logic [31:0] SYNC_LINK_BITSLIDE_WIDTH = 32'd5;
  localparam logic [31:0] SYNC_LINK_BITSLIDE_MASK = 32'h1F00;
  // this board's own link: frames dropped (bad CRC, cut short) and line errors (a word neither IDLE, SOF nor payload) since reset, wrapping (0 in the co-simulation's fast mode)
  localparam logic [31:0] REG_SYNC_LINK_BAD_FRAMES = 32'd304;
  // the downstream timing-link ports (1..SYNC_DOWN_PORTS, hw/sync_port.sv in the reference role), each serving one follower
  localparam logic [31:0] REG_SYNC_DOWN_LINK = 32'd308;
  // bit k-1: downstream port k's receiver found the word boundary (its follower runs the message engine); SYNC_DOWN_PORTS bits, 0 for ports a build leaves out
  localparam logic [31:0] SYNC_DOWN_LINK_ALIGNED_LSB = 32'd0;
  localparam logic [31:0] SYNC_DOWN_LINK_ALIGNED_WIDTH = 32'd7;
  localparam logic [31:0] SYNC_DOWN_LINK_ALIGNED_MASK = 32'h7F;
  // every downstream port's frames dropped and line errors together, since reset, wrapping (one cycle behind the ports' own counts)
  localparam logic [31:0] REG_SYNC_DOWN_BAD_FRAMES = 32'd312;
  // cycles from one Sync to the next that this board sends as a reference (on its downstream ports, and on its own link when SYNC_CTRL.REFERENCE): the two-way exchange rate its followers get; reset DDMTD_N + 1 (one exchange per DDMTD beat, 61,020/s); a write is clamped to DDMTD_N + 1 .. SYNC_EXCHANGE_PERIOD_MAX and reads back as in force; takes effect at the next Sync
  localparam logic [31:0] REG_SYNC_EXCHANGE_PERIOD = 32'd316;
  // fixed delay reference->board outside the fibre (reference TX + board RX), ps, 0..SYNC_CAL_DELAY_MAX_PS
  localparam logic [31:0] REG_SYNC_CAL_DELAY_MS_PS = 32'd320;
  // fixed delay board->reference outside the fibre (board TX + reference RX), ps, 0..SYNC_CAL_DELAY_MAX_PS
  localparam logic [31:0] REG_SYNC_CAL_DELAY_SM_PS = 32'd324;
  // fibre asymmetry forward minus backward, ps, signed, |a| <= SYNC_CAL_ASYM_MAX_PS: forward = (fibre round trip + a)/2
  localparam logic [31:0] REG_SYNC_CAL_ASYM_PS = 32'd328;
  // proportional gain, Q16 fraction of the phase error corrected per sample (<= 65536)
  localparam logic [31:0] REG_SYNC_KP = 32'd336;
  // integral gain once locked, Q16 (<= 65536); until lock the servo integrates at least at SYNC_DEFAULT_KI_Q16, so a narrow tracking gain does not slow acquisition
  localparam logic [31:0] REG_SYNC_KI = 32'd340;
  // lock threshold on |offset|, ps
  localparam logic [31:0] REG_SYNC_LOCK_THRESH_PS = 32'd344;
  // consecutive samples below threshold to declare lock (>= 1)
  localparam logic [31:0] REG_SYNC_LOCK_SAMPLES = 32'd348;
  // bound on the phase slew, ns per second (<= SYNC_SLEW_MAX_LIMIT): once locked, time never steps and never runs backwards (only the coarse time set before the first lock steps it)
  localparam logic [31:0] REG_SYNC_SLEW_MAX_NS_PER_S = 32'd352;
  // oscillator pull range at DAC full scale, +- ppb (1..1000000)
  localparam logic [31:0] REG_SYNC_DAC_PULL_PPB = 32'd356;
  // one MMCM fine phase step, fs (1/56 of the VCO period on UltraScale+; 1..1000000)
  localparam logic [31:0] REG_SYNC_PHASE_STEP_FS = 32'd360;
  // Is this byte offset one of the registers above?
  function automatic logic is_register(input logic [31:0] offset);
    case (offset)
      REG_CAP_MAGIC: is_register = 1'b1;
      REG_CAP_VERSION: is_register = 1'b1;
      REG_CAP_PORTS: is_register = 1'b1;
      REG_CAP_WAVELENGTHS: is_register = 1'b1;
      REG_CAP_MAX_STEPS: is_register = 1'b1;
      REG_CAP_MAX_CONFIGS: is_register = 1'b1;
      REG_CAP_FINE_STEPS: is_register = 1'b1;
      REG_CAP_CLK_PERIOD_PS: is_register = 1'b1;
      REG_CAP_MIN_STEP_CYCLES: is_register = 1'b1;
      REG_CAP_BOARD_ID: is_register = 1'b1;
      REG_CAP_BUILD_HASH_LO: is_register = 1'b1;
      REG_CAP_BUILD_HASH_HI: is_register = 1'b1;
      REG_CAP_BUILD_TIME: is_register = 1'b1;
      REG_CTRL: is_register = 1'b1;
      REG_COMMIT_MODE: is_register = 1'b1;
      REG_COMMIT_TIME_LO: is_register = 1'b1;
      REG_COMMIT_TIME_HI: is_register = 1'b1;
      REG_COMMIT_CRC: is_register = 1'b1;
      REG_COMMIT: is_register = 1'b1;
      REG_CANCEL: is_register = 1'b1;
      REG_STATUS: is_register = 1'b1;
      REG_ERROR: is_register = 1'b1;
      REG_STEPS_LO: is_register = 1'b1;
      REG_STEPS_HI: is_register = 1'b1;
      REG_MISSED: is_register = 1'b1;
      REG_CUR_STEP: is_register = 1'b1;
      REG_CUR_CONFIG: is_register = 1'b1;
      REG_GENERATION: is_register = 1'b1;
      REG_TIME_LO: is_register = 1'b1;
      REG_TIME_HI: is_register = 1'b1;
      REG_EPOCHS: is_register = 1'b1;
      REG_SWAPS: is_register = 1'b1;
      REG_LAST_SWAP_LO: is_register = 1'b1;
      REG_LAST_SWAP_HI: is_register = 1'b1;
      REG_LEASE_OWNER: is_register = 1'b1;
      REG_LEASE_EXPIRES_LO: is_register = 1'b1;
      REG_LEASE_EXPIRES_HI: is_register = 1'b1;
      REG_LEASE_TTL_MS: is_register = 1'b1;
      REG_LEASE_CLAIM: is_register = 1'b1;
      REG_LEASE_RELEASE: is_register = 1'b1;
      REG_LEASE_BREAK: is_register = 1'b1;
      REG_TRIGGER_TIME_LO: is_register = 1'b1;
      REG_TRIGGER_TIME_HI: is_register = 1'b1;
      REG_TRIGGERED_AT_LO: is_register = 1'b1;
      REG_TRIGGERED_AT_HI: is_register = 1'b1;
      REG_TRIGGERS: is_register = 1'b1;
      REG_HEALTH: is_register = 1'b1;
      REG_SCRATCH: is_register = 1'b1;
      REG_TRIGGER_STEP: is_register = 1'b1;
      REG_TRIGGERED_STEP: is_register = 1'b1;
      REG_SYNC_CTRL: is_register = 1'b1;
      REG_SYNC_STATUS: is_register = 1'b1;
      REG_SYNC_ERROR: is_register = 1'b1;
      REG_SYNC_OFFSET_PS: is_register = 1'b1;
      REG_SYNC_RTT_PS: is_register = 1'b1;
      REG_SYNC_DELAY_MS_PS: is_register = 1'b1;
      REG_SYNC_SERVO_P_PS: is_register = 1'b1;
      REG_SYNC_SERVO_I_PPT: is_register = 1'b1;
      REG_SYNC_DAC: is_register = 1'b1;
      REG_SYNC_PHASE_STEPS: is_register = 1'b1;
      REG_SYNC_HOLDOVER_US: is_register = 1'b1;
      REG_SYNC_LINK: is_register = 1'b1;
      REG_SYNC_LINK_BAD_FRAMES: is_register = 1'b1;
      REG_SYNC_DOWN_LINK: is_register = 1'b1;
      REG_SYNC_DOWN_BAD_FRAMES: is_register = 1'b1;
      REG_SYNC_EXCHANGE_PERIOD: is_register = 1'b1;
      REG_SYNC_CAL_DELAY_MS_PS: is_register = 1'b1;
      REG_SYNC_CAL_DELAY_SM_PS: is_register = 1'b1;
      REG_SYNC_CAL_ASYM_PS: is_register = 1'b1;
      REG_SYNC_KP: is_register = 1'b1;
      REG_SYNC_KI: is_register = 1'b1;
      REG_SYNC_LOCK_THRESH_PS: is_register = 1'b1;
      REG_SYNC_LOCK_SAMPLES: is_register = 1'b1;
      REG_SYNC_SLEW_MAX_NS_PER_S: is_register = 1'b1;
      REG_SYNC_DAC_PULL_PPB: is_register = 1'b1;
      REG_SYNC_PHASE_STEP_FS: is_register = 1'b1;
      default: is_register = 1'b0;
    endcase
  endfunction
  // tune(a,b) in ticks at word a*WAVELENGTHS+b (bits 15:0): laser settling time from wavelength a to b; refused (SLVERR, ERROR.LOCKED_WRITE) while a schedule runs or a commit is under way, since verified schedules were checked against it
  localparam logic [31:0] MEM_TUNE_BASE = 32'h10000;
  localparam logic [31:0] MEM_TUNE_WORDS = 32'd4096;
  // schedule bank 0 (image layout below); writes while it is locked (ERROR.LOCKED_WRITE) are refused with SLVERR
  localparam logic [31:0] MEM_BANK0_BASE = 32'h20000;
  localparam logic [31:0] MEM_BANK0_WORDS = 32'd16384;
  // schedule bank 1
  localparam logic [31:0] MEM_BANK1_BASE = 32'h30000;
  localparam logic [31:0] MEM_BANK1_WORDS = 32'd16384;
  // schedule image magic
  localparam logic [31:0] IMG_MAGIC = 32'h4C525348;
  // schedule image format version
  localparam logic [31:0] IMG_VERSION = 32'd1;
  localparam logic [31:0] IMG_HEADER_WORDS = 32'd16;
  // image magic 'LRSH'
  localparam logic [31:0] IMG_HDR_MAGIC = 32'd0;
  // image format version
  localparam logic [31:0] IMG_HDR_VERSION = 32'd1;
  // steps in the program, 1..MAX_STEPS
  localparam logic [31:0] IMG_HDR_N_STEPS = 32'd2;
  // configurations, 1..MAX_CONFIGS
  localparam logic [31:0] IMG_HDR_N_CONFIGS = 32'd3;
  // bit 0: cyclic
  localparam logic [31:0] IMG_HDR_FLAGS = 32'd4;
  // gate-low time after each boundary, in ticks
  localparam logic [31:0] IMG_HDR_GUARD_TICKS = 32'd5;
  // host-chosen schedule generation
  localparam logic [31:0] IMG_HDR_GENERATION = 32'd6;
  // CRC-32 (IEEE, reflected) over header words 0..14, the used config words, then the used step words
  localparam logic [31:0] IMG_HDR_CRC = 32'd15;
  localparam logic [31:0] IMG_FLAGS_CYCLIC_LSB = 32'd0;
  localparam logic [31:0] IMG_FLAGS_CYCLIC_WIDTH = 32'd1;
  localparam logic [31:0] IMG_FLAGS_CYCLIC_MASK = 32'h1;
  // first word of the configuration table
  localparam logic [31:0] IMG_CONFIG_BASE_WORD = 32'd16;
  // words per configuration
  localparam logic [31:0] IMG_CONFIG_WORDS = 32'd4;
  // bits per port entry within a configuration
  localparam logic [31:0] IMG_PORT_BITS = 32'd8;
  // wavelength index
  localparam logic [31:0] IMG_PORT_WAVELENGTH_LSB = 32'd0;
  localparam logic [31:0] IMG_PORT_WAVELENGTH_WIDTH = 32'd6;
  localparam logic [31:0] IMG_PORT_WAVELENGTH_MASK = 32'h3F;
  // port dark: gate low, wavelength select kept
  localparam logic [31:0] IMG_PORT_DARK_LSB = 32'd7;
  localparam logic [31:0] IMG_PORT_DARK_WIDTH = 32'd1;
  localparam logic [31:0] IMG_PORT_DARK_MASK = 32'h80;
  // first word of the step table
  localparam logic [31:0] IMG_STEP_BASE_WORD = 32'd1040;
  // words per step
  localparam logic [31:0] IMG_STEP_WORDS = 32'd2;
  // step duration in ticks, bits 31:0
  localparam logic [31:0] IMG_STEP_DURATION_LO_LSB = 32'd0;
  localparam logic [31:0] IMG_STEP_DURATION_LO_WIDTH = 32'd32;
  localparam logic [31:0] IMG_STEP_DURATION_LO_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] IMG_STEP_DURATION_LO_WORD = 32'd0;
  // step duration in ticks, bits 39:32
  localparam logic [31:0] IMG_STEP_DURATION_HI_LSB = 32'd0;
  localparam logic [31:0] IMG_STEP_DURATION_HI_WIDTH = 32'd8;
  localparam logic [31:0] IMG_STEP_DURATION_HI_MASK = 32'hFF;
  localparam logic [31:0] IMG_STEP_DURATION_HI_WORD = 32'd1;
  // configuration index
  localparam logic [31:0] IMG_STEP_CONFIG_LSB = 32'd8;
  localparam logic [31:0] IMG_STEP_CONFIG_WIDTH = 32'd12;
  localparam logic [31:0] IMG_STEP_CONFIG_MASK = 32'hFFF00;
  localparam logic [31:0] IMG_STEP_CONFIG_WORD = 32'd1;
  // event-triggered: the duration is a minimum; the step ends at the first allowed boundary after TRIGGER
  localparam logic [31:0] IMG_STEP_EVENT_LSB = 32'd31;
  localparam logic [31:0] IMG_STEP_EVENT_WIDTH = 32'd1;
  localparam logic [31:0] IMG_STEP_EVENT_MASK = 32'h80000000;
  localparam logic [31:0] IMG_STEP_EVENT_WORD = 32'd1;
endpackage
/* verilator lint_on UNUSEDPARAM */
