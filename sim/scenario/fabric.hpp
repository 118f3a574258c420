// The optical fabric between boards' lasers and receivers.
#pragma once

namespace lightrail::sim {

// An N-port arrayed waveguide grating router: light entering port s on
// wavelength w leaves at port (s + w) mod N (cyclic AWGR).
inline int awgr_receiver(int source_port, int wavelength, int ports) {
  return (source_port + wavelength) % ports;
}

}  // namespace lightrail::sim
