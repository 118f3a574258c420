// ap_uint<W> for the kernels' top-level ports: Xilinx's own type where its
// header is on the include path (Vitis HLS, or the public
// HLS_arbitrary_Precision_Types headers for a compile check), otherwise a
// small stand-in so g++ builds and runs the same tops here.
//
// The tops use only what both provide: construction and assignment from an
// unsigned integer, to_uint64() (W <= 64), range(hi, lo) assigned from an
// unsigned integer or read with to_uint64() (fields of at most 64 bits),
// and copy. Anything else would compile here and fail under Vitis.
#pragma once

#if __has_include(<ap_int.h>) && !defined(LIGHTRAIL_AP_UINT_STANDIN)
#include <ap_int.h>
#else
#include <cstdint>

// Stand-in: W bits in 64-bit words, bits above W always zero.
template <int W>
class ap_uint {
  static_assert(W >= 1 && W <= 4096, "ap_uint width");
  static constexpr int kWords = (W + 63) / 64;

 public:
  class RangeRef {
   public:
    RangeRef(ap_uint& v, int hi, int lo) : v_(v), hi_(hi), lo_(lo) {}
    RangeRef& operator=(uint64_t x) {
      v_.set_field(hi_, lo_, x);
      return *this;
    }
    uint64_t to_uint64() const { return v_.get_field(hi_, lo_); }

   private:
    ap_uint& v_;
    int hi_, lo_;
  };

  ap_uint() = default;
  ap_uint(uint64_t x) {  // NOLINT(google-explicit-constructor): as Xilinx's
    w_[0] = x;
    clip();
  }
  ap_uint& operator=(uint64_t x) { return *this = ap_uint(x); }

  uint64_t to_uint64() const { return w_[0]; }
  RangeRef range(int hi, int lo) { return RangeRef(*this, hi, lo); }
  RangeRef range(int hi, int lo) const { return RangeRef(const_cast<ap_uint&>(*this), hi, lo); }

 private:
  void clip() {
    if (W % 64 != 0) w_[kWords - 1] &= (uint64_t{1} << (W % 64)) - 1;
  }
  // Fields of at most 64 bits, hi >= lo, inside the word (checked by the
  // tests through the port widths; out-of-range bits are dropped).
  uint64_t get_field(int hi, int lo) const {
    uint64_t r = 0;
    for (int b = hi; b >= lo; --b) r = (r << 1) | ((b < W) ? (w_[b / 64] >> (b % 64)) & 1 : 0);
    return r;
  }
  void set_field(int hi, int lo, uint64_t x) {
    for (int b = lo; b <= hi && b < W; ++b) {
      const uint64_t bit = uint64_t{1} << (b % 64);
      if ((x >> (b - lo)) & 1) {
        w_[b / 64] |= bit;
      } else {
        w_[b / 64] &= ~bit;
      }
    }
  }

  uint64_t w_[kWords] = {};
};
#endif
