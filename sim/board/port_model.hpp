// A timing-link port of a co-simulated board: the board top's
// hw/sync_port.sv (the message engine and its DDMTD), verilated on its own
// and clocked with the board's core (sim/board/board.cpp). The top wires its core
// (hw/lightrail_board_core.sv) to its ports; the co-simulation verilates
// the two apart, so an edge of a port's recovered clock or of the DDMTD's
// helper evaluates that port, not the whole board (docs/cosim.md, "The
// timing link"). Board::cycle keeps the wiring cycle-exact.
#pragma once

#include <cstdint>
#include <memory>

#include "board/link_port.hpp"

class VerilatedFstC;

namespace lightrail::sim {

// What the core holds for a port's next edge (its inputs from the core).
struct PortInputs {
  bool rst_n = false;
  uint64_t time_ticks = 0;
  bool time_step = false;
  uint32_t sync_ctrl = 0, sync_status = 0;
  uint32_t exchange_period = 0;  // SYNC_EXCHANGE_PERIOD
};

// What a port shows the core and the servo after its edge.
struct PortOutputs {
  bool phase_valid = false;
  uint32_t phase = 0;
  bool aligned = false;
  uint32_t bitslide = 0, parent_flags = 0, bad_frames = 0;
  bool operator==(const PortOutputs& o) const {
    return phase_valid == o.phase_valid && phase == o.phase && aligned == o.aligned &&
           bitslide == o.bitslide && parent_flags == o.parent_flags && bad_frames == o.bad_frames;
  }
};

// A follower's last exchange as its port holds it (the servo's inputs).
struct PortExchange {
  uint32_t exchanges = 0;
  bool fine = false;
  uint64_t t1_fs = 0, t2_fs = 0, t3_fs = 0, t4_fs = 0;
};

class PortModel : public LinkPort {
 public:
  // The board's own link's port (the role SYNC_CTRL.REFERENCE sets), or a
  // downstream port (the top instantiates those with DOWNSTREAM = 1; a model
  // of its own here, verilated with that parameter).
  static std::unique_ptr<PortModel> make(bool downstream);

  // One rising edge of clk_i, with the inputs the core held before it.
  virtual void edge(const PortInputs& in) = 0;
  virtual PortOutputs outputs() const = 0;
  virtual PortExchange exchange() const = 0;
  virtual void trace(VerilatedFstC* fst) = 0;
};

}  // namespace lightrail::sim
