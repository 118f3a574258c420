// A cycle-level AXI4-Lite master that plays host requests onto a verilated
// board's bus pins: one word per transaction, address and data together.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "board/bus_request.hpp"

namespace lightrail::sim {

template <class Model>
class AxiMaster {
 public:
  bool busy() const { return req_ != nullptr; }
  // Some channel is driven: sample() then reads the slave's pins (with none,
  // it reads nothing of the model).
  bool pins_active() const { return aw_ || w_ || b_ || ar_ || r_; }

  void abort(const std::string& why) {
    if (!req_) return;
    result_.ok = false;
    result_.error = why;
    answer(req_, std::move(result_));
    req_ = nullptr;
  }

  // The board reset: the request in flight fails and the master lets go of
  // every channel (the slave forgets any half-done handshake with it).
  void reset_bus(const std::string& why) {
    abort(why);
    aw_ = w_ = b_ = ar_ = r_ = false;
  }

  void begin(BusRequest* r) {
    req_ = r;
    index_ = 0;
    result_ = {};
    start_beat();
  }

  // Before the rising edge: drive the pins and note which handshakes the
  // edge will complete.
  void drive(Model& m) {
    m.s_axil_awvalid = aw_;
    m.s_axil_wvalid = w_;
    m.s_axil_bready = b_;
    m.s_axil_arvalid = ar_;
    m.s_axil_rready = r_;
    m.s_axil_awaddr = addr_;
    m.s_axil_araddr = addr_;
    m.s_axil_wdata = data_;
    m.s_axil_wstrb = 0xF;
  }
  void sample(const Model& m) {
    hs_aw_ = aw_ && m.s_axil_awready;
    hs_w_ = w_ && m.s_axil_wready;
    hs_b_ = b_ && m.s_axil_bvalid;
    hs_ar_ = ar_ && m.s_axil_arready;
    hs_r_ = r_ && m.s_axil_rvalid;
    if (hs_b_ && m.s_axil_bresp != 0) fail(m.s_axil_bresp);
    accepted_ = hs_b_ && m.s_axil_bresp == 0;
    if (hs_r_) {
      if (m.s_axil_rresp != 0) fail(m.s_axil_rresp);
      result_.data.push_back(m.s_axil_rdata);
    }
  }
  // The write beat the board accepted (OKAY) at the last edge, if any: what
  // the board keeps, as opposed to what the host sent.
  bool accepted_write(uint32_t* addr, uint32_t* data) const {
    if (!accepted_) return false;
    *addr = addr_;
    *data = data_;
    return true;
  }

  // After the edge: advance; returns the finished request, if any.
  BusRequest* advance(uint64_t sim_fs) {
    if (!req_) return nullptr;
    if (hs_aw_) aw_ = false;
    if (hs_w_) w_ = false;
    if (hs_ar_) {
      ar_ = false;
      r_ = true;
    }
    bool beat_done = false;
    if (!aw_ && !w_ && write_ && !b_ && !hs_b_) b_ = true;
    if (hs_b_) b_ = false, beat_done = true;
    if (hs_r_) r_ = false, beat_done = true;
    if (!beat_done) return nullptr;
    if (++index_ < total() && result_.ok) {
      start_beat();
      return nullptr;
    }
    BusRequest* done = req_;
    req_ = nullptr;
    result_.sim_fs = sim_fs;
    answer(done, std::move(result_));
    return done;
  }

 private:
  uint32_t total() const {
    return req_->kind == BusRequest::Kind::kWrite ? uint32_t(req_->data.size()) : req_->count;
  }
  void start_beat() {
    write_ = req_->kind == BusRequest::Kind::kWrite;
    addr_ = req_->addr + 4 * index_;
    aw_ = w_ = write_;
    ar_ = !write_;
    data_ = write_ ? req_->data[index_] : 0;
    b_ = r_ = false;
  }
  void fail(uint32_t resp) {
    if (!result_.ok) return;
    result_.ok = false;
    result_.axi_resp = resp;
    result_.failed_word = index_;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s at 0x%05X (AXI response %u)", resp == 2 ? "SLVERR" : "DECERR", addr_,
                  resp);
    result_.error = buf;
  }

  BusRequest* req_ = nullptr;
  BusRequest::Result result_;
  uint32_t index_ = 0, addr_ = 0, data_ = 0;
  bool write_ = false, aw_ = false, w_ = false, b_ = false, ar_ = false, r_ = false;
  bool hs_aw_ = false, hs_w_ = false, hs_b_ = false, hs_ar_ = false, hs_r_ = false;
  bool accepted_ = false;
};

}  // namespace lightrail::sim
