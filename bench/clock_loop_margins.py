#!/usr/bin/env python3
"""Gain and phase margins of the clock servo's loops (docs/clock-sync.md,
"Frequency acquisition"), from their closed forms, over the oscillator's
tuning gain G (true pull / what the servo is told) and d, the updates of delay
before a measurement's correction acts.

  /usr/bin/python3 bench/clock_loop_margins.py

Loops (one update per DDMTD beat, 16.4 us):
  syntonise FLL  c += -y/4 per beat from the DDMTD beat:  L = (G/4) z^-d / (1 - z^-1)
  FINE FLL       c += -y/2 (|error| > 8 lock thresholds): L = (G/2) z^-d / (1 - z^-1)
  FINE PI        KP phase, G*KI frequency:  L = (KP (1 - z^-1) + G KI) z^-(d+1) / (1 - z^-1)^2
  old COARSE FLL on the exchange (gain 1/2, d = the exchange's age in updates)
"""
import numpy as np

W = np.linspace(1e-5, np.pi, 400000)
Z = np.exp(1j * W)
UPDATE_S = 4097 * 4e-9
FIBRE_S_PER_M = 1.4682 / 299792458.0


def margins(l):
    mag = np.abs(l)
    ph = np.degrees(np.unwrap(np.angle(l)))
    if ph[0] > 0:
        ph -= 360
    i = np.where((mag[:-1] - 1) * (mag[1:] - 1) <= 0)[0]
    pm = min(180 + ph[k] for k in i) if len(i) else float("nan")
    j = np.where((ph[:-1] + 180) * (ph[1:] + 180) <= 0)[0]
    gm = min(-20 * np.log10(mag[k]) for k in j) if len(j) else float("inf")
    return pm, gm


def fll(gain, G, d):
    return margins(gain * G * Z ** (-d) / (1 - 1 / Z))


def pi(kp, ki, G, d):
    return margins((kp * (1 - 1 / Z) + G * ki) * Z ** (-d - 1) / (1 - 1 / Z) ** 2)


def main():
    gains = (0.39, 0.91, 1.0, 1.51)
    print("| loop | G | d | phase margin | gain margin |")
    print("|---|---|---|---|---|")
    for name, gain in (("syntonise FLL 1/4", 0.25), ("FINE FLL 1/2", 0.5)):
        for G in gains:
            for d in (1, 2):
                pm, gm = fll(gain, G, d)
                print(f"| {name} | {G} | {d} | {pm:.0f} deg | {gm:.1f} dB |")
    for ki_name, ki in (("1/64", 1 / 64), ("96/65536", 96 / 65536)):
        for G in gains:
            for d in (0, 1):
                pm, gm = pi(0.25, ki, G, d)
                print(f"| FINE PI KP 1/4 KI {ki_name} | {G} | {d} | {pm:.0f} deg | {gm:.1f} dB |")
    for km in (1, 2.5, 4, 10):
        # Sync forward, Delay_Req back, Delay_Resp forward, 10 us of framing and latency.
        age = 3 * km * 1000 * FIBRE_S_PER_M + 10e-6
        d = int(np.ceil(age / UPDATE_S))
        pm, gm = fll(0.5, 1.51, d)
        print(f"| old COARSE FLL 1/2 on the exchange, {km} km | 1.51 | {d} | {pm:.0f} deg | {gm:.1f} dB |")


if __name__ == "__main__":
    main()
