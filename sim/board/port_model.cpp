#include "board/port_model.hpp"

#include <Vsync_port.h>
#include <Vsync_port___024root.h>
#include <Vsync_port_down.h>
#include <Vsync_port_down___024root.h>
#include <verilated_fst_c.h>

#include "board/model_clock.hpp"

namespace lightrail::sim {

namespace {

template <class M, class Root>
class Port final : public PortModel {
 public:
  Port() : m_(std::make_unique<M>()) {
    m_->rst_ni = 0;
    m_->rst_dmtd_ni = 0;
    m_->rst_rx_ni = 0;
  }
  ~Port() override { m_->final(); }

  void trace(VerilatedFstC* fst) override { m_->trace(fst, 99); }

  void edge(const PortInputs& in) override {
    auto& m = *m_;
    // The low phase is evaluated only where the kept level cannot be set
    // (model_clock.hpp): nothing in the port runs on clk_i's falling edge.
    if (!evaluated_ || !Clocks::clk_low(*m.rootp)) {
      m.clk_i = 0;
      m.eval();
    }
    m.rst_ni = in.rst_n;
    m.time_i = in.time_ticks;
    m.time_step_i = in.time_step;
    m.sync_ctrl_i = in.sync_ctrl;
    m.sync_status_i = in.sync_status;
    m.exchange_period_i = in.exchange_period;
    m.clk_i = 1;
    m.eval();
    evaluated_ = true;
  }

  PortOutputs outputs() const override {
    const auto& m = *m_;
    return {m.phase_valid_o != 0, m.phase_o,        m.aligned_o != 0,
            m.rx_bitslide_o,      m.parent_flags_o, m.bad_frames_o};
  }

  PortExchange exchange() const override {
    const auto& m = *m_;
    return {m.exchanges_o, m.exchange_fine_o != 0, m.t1_fs_o, m.t2_fs_o, m.t3_fs_o, m.t4_fs_o};
  }

  void dmtd_edge(bool ref_level, bool local_level) override {
    auto& m = *m_;
    m.rst_dmtd_ni = m.rst_ni;  // released with the system reset
    // Its own low phase (the helper is only ~1 ps per cycle slower than
    // clk_i, so with jitter two helper edges can fall in one system cycle):
    // nothing reads the model before the rising edge, so it is only told the
    // clock was low.
    if (!evaluated_ || !Clocks::dmtd_low(*m.rootp)) {
      m.clk_dmtd_i = 0;
      m.eval();
    }
    m.clk_rx_i = ref_level;
    // clk_i is sampled as data here. Between system edges the model holds it
    // high; lowering it in its low phase is no edge the port uses (nothing
    // runs on its negedge), and the next edge raises it again.
    if (!local_level) m.clk_i = 0;
    m.clk_dmtd_i = 1;
    m.eval();
    evaluated_ = true;
  }

  bool in_reset() const override { return !m_->rst_ni; }
  uint32_t tx_word() const override { return m_->tx_word_o; }

  // The recovered clock's edges, each evaluated: the receiver runs on its
  // rising edges and keeps a copy of the SOF toggle on its falling edges.
  void rx_rise(bool rx_reset_n, uint32_t word) override {
    auto& m = *m_;
    if (m.clk_rx_i) {
      m.clk_rx_i = 0;
      m.eval();
    }
    m.rst_rx_ni = rx_reset_n;
    m.rx_word_i = word;
    m.clk_rx_i = 1;
    m.eval();
    evaluated_ = true;
  }
  void rx_fall() override {
    m_->clk_rx_i = 0;
    m_->eval();
  }
  bool rx_level() const override { return m_->clk_rx_i; }
  bool link_aligned() const override { return m_->aligned_o; }
  uint32_t link_bad_frames() const override { return m_->bad_frames_o; }

 private:
  using Clocks = model_clock::Clocks<Root>;
  std::unique_ptr<M> m_;
  bool evaluated_ = false;
};

}  // namespace

std::unique_ptr<PortModel> PortModel::make(bool downstream) {
  if (downstream) return std::make_unique<Port<Vsync_port_down, Vsync_port_down___024root>>();
  return std::make_unique<Port<Vsync_port, Vsync_port___024root>>();
}

}  // namespace lightrail::sim
