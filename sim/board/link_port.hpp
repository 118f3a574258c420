// One end of a timing link at word level, as the co-simulation carries it:
// a board's port (sim/board/port_model.hpp): the message engine's transmitter and
// receiver, and the port's DDMTD.
#pragma once

#include <cstdint>

namespace lightrail::sim {

struct LinkPort {
  virtual ~LinkPort() = default;
  // The board's rst_ni is low.
  virtual bool in_reset() const = 0;
  // One helper-clock edge of the port's DDMTD, with the levels its
  // recovered clock and the board's own clock have at it.
  virtual void dmtd_edge(bool ref_level, bool local_level) = 0;
  // The word the transmitter holds after this cycle's edge (tx_word_o).
  virtual uint32_t tx_word() const = 0;
  // The recovered clock's edges onto clk_rx_i: a rising edge presenting a
  // received word (rst_rx_ni as given), its fall, and its level now.
  virtual void rx_rise(bool rx_reset_n, uint32_t word) = 0;
  virtual void rx_fall() = 0;
  virtual bool rx_level() const = 0;
  // The engine's receiver aligned, and its count of dropped frames and
  // line errors (SYNC_LINK_BAD_FRAMES for the board's own link).
  virtual bool link_aligned() const = 0;
  virtual uint32_t link_bad_frames() const = 0;
};

}  // namespace lightrail::sim
