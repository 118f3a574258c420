#!/usr/bin/env python3
"""Checks of the board target that need no vendor tool (docs/board.md, "Checks").

  pins    every top-level port of the board wrapper that leaves the chip has a
          PACKAGE_PIN (every bit, each pin once, none on a port that does not
          exist) and, unless it is a transceiver or GT reference-clock pin, an
          IOSTANDARD; the ports that stay on chip are exactly the XRT kernel
          interface kernel.xml declares (ap_clk, ap_rst_n, s_axi_control_*)
  clocks  every clock input has a create_clock at its true period, computed
          from defs/regmap.json (CLK_PERIOD_PS; the DDMTD helper at
          CLK_PERIOD_PS * (DDMTD_N + 1) / DDMTD_N), to Vivado's 1 ps; the
          out-of-context clocks likewise; the recovered clock is its own clock
  range   kernel.xml's s_axi_control range covers every register and window
          of the map (2^AXI_ADDR_BITS bytes)
  kernels the HLS kernels' black boxes have exactly the top's seq_* / sync_*
          ports, same names and widths, opposite directions, plus ap_clk and
          ap_rst_n
  lanes   the transceiver site of every gate and PPS pin (from the
          MGTHTXP<channel>_<quad> name on its XDC line) is a channel that
          hw/vivado/gth_ip.tcl enables, and the wrapper's GtIndex maps each
          port to that channel's index in the core (channels ordered X, then
          Y) and gives the HPC1 reference clock exactly the quad-129/130 ones
  package every placed port's XDC line names its package pin (the comment's
          first word): transceiver ports sit on transceiver pins of their
          direction (outputs on MGTHTX, inputs on MGTHRX or MGTREFCLK), other
          ports on I/O pins; the P and N ports of a differential pair sit on
          the P and N pins of one pair; each I/O pin's bank (the name's suffix)
          is in exactly one "VCCO <rail> <volts> banks ..." line and the
          port's IOSTANDARD needs that voltage; no pin name twice

Usage: check_board.py ROOT [--self-test]. --self-test breaks each input in
ways the checks must catch and fails if one is not caught.
"""
import json
import math
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

WRAPPER = "hw/board/lightrail_zcu102_top.sv"
TOP = "hw/lightrail_board_top.sv"
PKG = "hw/lightrail_hwdef_pkg.sv"
BOARD_XDC = "constraints/zcu102_board.xdc"
OOC_XDC = "constraints/lightrail_ooc.xdc"
TIMING_XDC = "constraints/lightrail_timing.xdc"
KERNEL_XML = "hw/vitis/kernel.xml"
REGMAP = "defs/regmap.json"
GTH_TCL = "hw/vivado/gth_ip.tcl"
KERNELS = {"hw/board/blackbox/lightrail_sequencer.sv": "seq_",
           "hw/board/blackbox/lightrail_clock_sync.sv": "sync_"}
# Transceiver data and reference-clock pins take no IOSTANDARD.
GT_PORT = re.compile(r"(txp|txn|rxp|rxn|refclk_hpc\d_[pn]|refclk_[pn])$")


def pkg_constants(text):
    consts = {}
    for m in re.finditer(r"localparam\s+logic\s*\[31:0\]\s*(\w+)\s*=\s*32'([dh])([0-9A-Fa-f_]+)\s*;", text):
        consts[m.group(1)] = int(m.group(3).replace("_", ""), 10 if m.group(2) == "d" else 16)
    return consts


def width(rng, consts):
    """Bits of a packed range such as [lightrail_hwdef_pkg::PORTS*5-1:0]; 1 if none."""
    if not rng:
        return 1
    m = re.fullmatch(r"\[(.*):(.*)\]", rng.replace(" ", ""))
    if not m:
        raise ValueError(f"cannot read range {rng}")

    def ev(expr):
        expr = expr.replace("lightrail_hwdef_pkg::", "").replace("$clog2", "clog2")
        # (C ? A : B), unnested, as Python's conditional expression
        expr = re.sub(r"\(([^()?:]+)\?([^()?:]+):([^()?:]+)\)", r"((\2) if (\1) else (\3))", expr)
        names = {k: v for k, v in consts.items()}
        names["clog2"] = lambda x: max(0, math.ceil(math.log2(x)))
        return int(eval(expr, {"__builtins__": {}}, names))  # expressions from our own RTL only

    return abs(ev(m.group(1)) - ev(m.group(2))) + 1


def module_ports(text, module, consts):
    """[(direction, name, width)] of an ANSI port list."""
    start = text.index(f"module {module}")
    head = text[start:text.index("\n);", start)]
    ports = []
    for m in re.finditer(r"^\s*(input|output)\s+logic\s+(?:signed\s+)?(\[[^\]]*\])?\s*(\w+)\s*,?\s*(?://.*)?$", head, re.M):
        ports.append((m.group(1), m.group(3), width(m.group(2), consts)))
    if not ports:
        raise ValueError(f"no ports found for module {module}")
    return ports


def xdc_lines(text):
    """Logical XDC lines: comments dropped, backslash continuations joined."""
    out, cur = [], ""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        cur += line
        if cur.strip():
            out.append(cur.strip())
        cur = ""
    return out


def port_props(xdc):
    """{port bit: {PROPERTY: value}} from set_property lines on get_ports."""
    props = {}
    for line in xdc_lines(xdc):
        m = re.match(r"set_property\s+(-dict\s+\{([^}]*)\}|(\S+)\s+(\S+))\s+\[get_ports\s+(\{[^}]*\}|[^\]\s]+)\]", line)
        if not m:
            continue
        if m.group(2) is not None:
            toks = m.group(2).split()
            kv = dict(zip(toks[0::2], toks[1::2]))
        else:
            kv = {m.group(3): m.group(4)}
        for port in m.group(5).strip("{}").split():
            entry = props.setdefault(port, {})
            for k, v in kv.items():
                if k in entry and k in ("PACKAGE_PIN", "LOC") and entry[k] != v:
                    entry.setdefault("_conflict", []).append(f"{k} {entry[k]} and {v}")
                entry[k] = v
    return props


def check_pins(files, consts, errors):
    wrapper = module_ports(files[WRAPPER], "lightrail_zcu102_top", consts)
    kernel = ET.fromstring(files[KERNEL_XML]).find("kernel")
    slaves = [p.get("name") for p in kernel.iter("port") if p.get("mode") == "slave"]
    on_chip = {"ap_clk", "ap_rst_n"}
    props = port_props(files[BOARD_XDC])
    bits = set()
    for direction, name, w in wrapper:
        if name in on_chip or any(name.startswith(s + "_") for s in slaves):
            if f"{name}" in props or f"{name}[0]" in props:
                errors.append(f"pins: {name} is a kernel interface port (kernel.xml) but has a pin constraint")
            continue
        for b in range(w):
            key = f"{name}[{b}]" if w > 1 else name
            bits.add(key)
            p = props.get(key, {})
            if "PACKAGE_PIN" not in p and "LOC" not in p:
                errors.append(f"pins: port {key} ({direction}) has no PACKAGE_PIN in {BOARD_XDC}")
            elif not GT_PORT.search(name) and "IOSTANDARD" not in p:
                errors.append(f"pins: port {key} has a pin but no IOSTANDARD")
            for c in p.get("_conflict", []):
                errors.append(f"pins: port {key} placed twice ({c})")
    for key in props:
        if key not in bits:
            errors.append(f"pins: {BOARD_XDC} constrains port {key}, which lightrail_zcu102_top does not have")
    used = {}
    for key, p in props.items():
        pin = p.get("PACKAGE_PIN", p.get("LOC"))
        if pin:
            if pin in used:
                errors.append(f"pins: pin {pin} given to both {used[pin]} and {key}")
            used[pin] = key


def clocks_of(xdc):
    """{target: (name, period)} of create_clock lines; target is the get_ports or get_pins argument."""
    out = {}
    for line in xdc_lines(xdc):
        m = re.match(r"create_clock\s+(.*)$", line)
        if not m:
            continue
        args = m.group(1)
        period = re.search(r"-period\s+([0-9.]+)", args)
        name = re.search(r"-name\s+(\S+)", args)
        target = re.search(r"\[get_(?:ports|pins)\s+(.*)\]\s*$", args)
        if not (period and name and target):
            out.setdefault("_malformed", []).append(line)
            continue
        out[target.group(1).strip("{} ")] = (name.group(1), float(period.group(1)))
    return out


def true_periods(regmap):
    params = {p["name"]: p["value"] for p in regmap["parameters"]}
    clk_ns = params["CLK_PERIOD_PS"] / 1000.0
    n = params["DDMTD_N"]
    return clk_ns, clk_ns * (n + 1) / n


def check_clocks(files, regmap, errors):
    clk, dmtd = true_periods(regmap)
    # Vivado keeps periods to the picosecond: a period within half of it is true.
    tol = 0.0005 + 1e-9

    def expect(clocks, target, name, period, where):
        if target not in clocks:
            errors.append(f"clocks: {where} has no create_clock on {target} (expected {name} at {period:.6f} ns)")
            return
        got_name, got = clocks[target]
        if abs(got - period) > tol:
            errors.append(f"clocks: {where}: {target} declared at {got} ns, its true period is {period:.6f} ns")
        if got_name != name:
            errors.append(f"clocks: {where}: {target} is named {got_name}, the timing constraints expect {name}")

    board = clocks_of(files[BOARD_XDC])
    for bad in board.get("_malformed", []):
        errors.append(f"clocks: cannot read '{bad}'")
    # Clock inputs of the wrapper: every port feeding a clock input buffer.
    ins = re.findall(r"IBUFDS_GTE4\s*#?.*?\.I\((\w+)\)", files[WRAPPER], re.S)
    if not ins:
        errors.append("clocks: no clock input buffers found in the wrapper")
    roles = {"dmtd": ("dmtd_clk", dmtd)}
    names = {"gtrefclk_hpc0_p": "vcxo_refclk", "gtrefclk_hpc1_p": "vcxo_refclk_hpc1"}
    for port in ins:
        if "dmtd" in port:
            name, period = roles["dmtd"]
        else:
            name, period = names.get(port, port), clk
        expect(board, port, name, period, BOARD_XDC)
    rx = [t for t in board if "RXOUTCLK" in t]
    if not rx:
        errors.append(f"clocks: {BOARD_XDC} does not declare the recovered clock (RXOUTCLK) as its own clock")
    else:
        expect(board, rx[0], "rx_clk", clk, BOARD_XDC)
    ooc = clocks_of(files[OOC_XDC])
    expect(ooc, "clk_i", "sys_clk", clk, OOC_XDC)
    expect(ooc, "clk_dmtd_i", "dmtd_clk", dmtd, OOC_XDC)
    expect(ooc, "clk_rx_i", "rx_clk", clk, OOC_XDC)
    timing = " ".join(xdc_lines(files[TIMING_XDC]))
    # The message engine crosses rx_clk -> sys_clk through bounded paths: a
    # clock group would override the bounds (UG903, constraints precedence).
    if re.search(r"set_clock_groups", timing):
        errors.append(f"clocks: {TIMING_XDC} groups clocks: that overrides the bounded crossings (set_max_delay)")
    bounds = [line for line in xdc_lines(files[TIMING_XDC]) if re.match(r"set_max_delay\s+-datapath_only\s", line)]
    for cells in ("u_link/u_sof_rise_sync/sync_q1_reg", "u_link/u_sof_fall_sync/sync_q1_reg", "u_link/u_rx/*_q_reg"):
        if not any(cells in line for line in bounds):
            errors.append(f"clocks: {TIMING_XDC} does not bound the crossing to/from {cells}")
    if "create_clock" in timing:
        errors.append(f"clocks: {TIMING_XDC} must not define clocks (it is read in both builds)")


def check_range(files, regmap, consts, errors):
    kernel = ET.fromstring(files[KERNEL_XML]).find("kernel")
    ports = [p for p in kernel.iter("port") if p.get("name") == "s_axi_control"]
    if not ports:
        errors.append("range: kernel.xml has no s_axi_control port")
        return
    rng = int(ports[0].get("range"), 0)
    need = max(m["offset"] + 4 * m["words"] for m in regmap["memories"])
    need = max(need, max(r.get("offset", 0) + 4 for r in regmap["registers"]))
    if rng < need:
        errors.append(f"range: s_axi_control range {rng:#x} does not cover the map (last byte at {need - 1:#x})")
    if rng != 1 << consts["AXI_ADDR_BITS"]:
        errors.append(f"range: s_axi_control range {rng:#x} is not 2^AXI_ADDR_BITS = {1 << consts['AXI_ADDR_BITS']:#x}")
    wrapper = module_ports(files[WRAPPER], "lightrail_zcu102_top", consts)
    aw = [w for _, n, w in wrapper if n == "s_axi_control_awaddr"]
    if not aw or (1 << aw[0]) != rng:
        errors.append(f"range: s_axi_control_awaddr is {aw} bits wide, the range needs {rng.bit_length() - 1}")


def check_kernels(files, consts, errors):
    top = module_ports(files[TOP], "lightrail_board_top", consts)
    flip = {"input": "output", "output": "input"}
    for path, prefix in KERNELS.items():
        module = Path(path).stem
        bb = module_ports(files[path], module, consts)
        # The HLS tops name each port as the top does, its _i/_o suffix dropped.
        want = {re.sub(r"_[io]$", "", n): (flip[d], w) for d, n, w in top if n.startswith(prefix)}
        want["ap_clk"] = ("input", 1)
        want["ap_rst_n"] = ("input", 1)
        got = {n: (d, w) for d, n, w in bb}
        for n, dw in want.items():
            if n not in got:
                errors.append(f"kernels: {module} lacks port {n}")
            elif got[n] != dw:
                errors.append(f"kernels: {module}.{n} is {got[n]}, the top needs {dw}")
        for n in got:
            if n not in want:
                errors.append(f"kernels: {module} has port {n}, which the top does not have")


def gth_site(mgt):
    """GTHE4_CHANNEL site of a pin named MGTHTXP<channel>_<quad> on the XCZU9EG:
    quads 128-130 are column X0, 228-230 column X1, four channels a quad, Y
    counting up from quad x27's first channel."""
    m = re.fullmatch(r"MGTH[TR]X[PN](\d)_(\d)(\d\d)", mgt)
    if not m:
        return None
    ch, column, quad = int(m.group(1)), int(m.group(2)), int(m.group(3))
    return (column - 1, (quad - 27) * 4 + ch)


def check_lanes(files, consts, errors):
    ports = consts["PORTS"]
    sites = {}
    for line in files[BOARD_XDC].splitlines():
        m = re.match(r"set_property PACKAGE_PIN \w+ \[get_ports \{?(gate_txp\[(\d+)\]|pps_txp)\}?\]\s*;#\s*(\S+)", line)
        if m:
            lane = ports if m.group(1) == "pps_txp" else int(m.group(2))
            site = gth_site(m.group(3))
            if site is None:
                errors.append(f"lanes: cannot read the transceiver pin '{m.group(3)}' of {m.group(1)}")
            else:
                sites[lane] = site
    for lane in range(ports + 1):
        if lane not in sites:
            what = "pps_txp" if lane == ports else f"gate_txp[{lane}]"
            errors.append(f"lanes: {what} has no MGTHTXP<channel>_<quad> comment in {BOARD_XDC}")
    if len(sites) != ports + 1:
        return
    m = re.search(r"module_name lightrail_gth_tx .*?CONFIG.CHANNEL_ENABLE \{([^}]*)\}", files[GTH_TCL], re.S)
    if not m:
        errors.append(f"lanes: no CHANNEL_ENABLE for lightrail_gth_tx in {GTH_TCL}")
        return
    enabled = sorted(tuple(int(v) for v in re.fullmatch(r"X(\d+)Y(\d+)", c).groups()) for c in m.group(1).split())
    if sorted(sites.values()) != enabled:
        errors.append(f"lanes: the gate and PPS pins sit on {sorted(sites.values())}, {GTH_TCL} enables {enabled}")
        return
    m = re.search(r"localparam int GtIndex\[GtLanes\] = '\{([^}]*)\}", files[WRAPPER])
    first = re.search(r"localparam int GtFirstHpc0 = (\d+);", files[WRAPPER])
    if not m or not first:
        errors.append("lanes: GtIndex or GtFirstHpc0 not found in the wrapper")
        return
    index = [int(v) for v in m.group(1).split(",")]
    for lane, site in sites.items():
        want = enabled.index(site)
        what = "the PPS lane" if lane == ports else f"port {lane}"
        if lane >= len(index) or index[lane] != want:
            got = index[lane] if lane < len(index) else None
            errors.append(f"lanes: GtIndex gives {what} channel {got}, its pin is on X{site[0]}Y{site[1]} = channel {want}")
    for i, site in enumerate(enabled):
        if (i < int(first.group(1))) != (site[0] == 0):
            errors.append(f"lanes: channel {i} (X{site[0]}Y{site[1]}) gets the wrong reference clock (GtFirstHpc0)")


# VCCO an IOSTANDARD needs (UG571, "Supported I/O Standards"; UltraScale+
# LVDS outputs are HP-bank only, at 1.8 V). One not listed is refused, so a
# new standard is added here deliberately.
VCCO_OF = {"LVCMOS33": 3.3, "LVCMOS25": 2.5, "LVCMOS18": 1.8, "LVCMOS15": 1.5, "LVCMOS12": 1.2,
           "LVDS": 1.8, "LVDS_25": 2.5}
MGT_PIN = re.compile(r"MGTH(TX|RX)([PN])(\d)_(\d{3})|MGTREFCLK(\d)([PN])_(\d{3})")
IO_PIN = re.compile(r"IO_(?:L(\d+)([PN])|T\dU_N12)\w*_(\d{2,3})")


def pin_notes(xdc):
    """{port bit: first word of the comment on its PACKAGE_PIN line}."""
    notes = {}
    for line in xdc.splitlines():
        m = re.match(r"set_property\s+(?:-dict\s+\{[^}]*(?:PACKAGE_PIN|LOC)[^}]*\}|(?:PACKAGE_PIN|LOC)\s+\S+)\s+"
                     r"\[get_ports\s+(?:\{([^}]*)\}|([^\]\s]+))\]\s*(?:;#\s*(\S+))?", line)
        if m:
            for port in (m.group(1) or m.group(2)).split():
                notes[port] = m.group(3)
    return notes


def rails_of(xdc):
    """{bank: (rail, volts)} from "#   VCCO <rail> <volts> banks <n> ..." lines."""
    banks, errors = {}, []
    for line in xdc.splitlines():
        m = re.match(r"#\s+VCCO\s+(\w+)\s+([0-9.]+)\s+banks\s+([\d ]+)$", line.strip())
        if m:
            for b in m.group(3).split():
                if b in banks:
                    errors.append(f"package: bank {b} is in two VCCO lines ({banks[b][0]}, {m.group(1)})")
                banks[b] = (m.group(1), float(m.group(2)))
    return banks, errors


def pair_of(port):
    """(pair name, 'P' or 'N') of a differential port bit, else None."""
    m = re.fullmatch(r"(.*?)(_p|_n|txp|txn|rxp|rxn)(\[\d+\])?", port)
    if not m:
        return None
    return (m.group(1) + m.group(2)[:-1] + "p/n" + (m.group(3) or ""), m.group(2)[-1].upper())


def check_package(files, consts, errors):
    xdc = files[BOARD_XDC]
    props = port_props(xdc)
    notes = pin_notes(xdc)
    banks, rail_errors = rails_of(xdc)
    errors.extend(rail_errors)
    direction = {}
    for d, name, w in module_ports(files[WRAPPER], "lightrail_zcu102_top", consts):
        for b in range(w):
            direction[f"{name}[{b}]" if w > 1 else name] = d
    named = {}
    pairs = {}
    for port, p in props.items():
        site = p.get("PACKAGE_PIN", p.get("LOC"))
        if not site:
            continue
        pin = notes.get(port)
        if not pin:
            errors.append(f"package: {port} ({site}) has no package pin name in its comment")
            continue
        if pin in named and named[pin][0] != site:
            errors.append(f"package: {pin} named for both {named[pin][0]} ({named[pin][1]}) and {site} ({port})")
        named[pin] = (site, port)
        base = port.split("[")[0]
        gt, io = MGT_PIN.fullmatch(pin), IO_PIN.fullmatch(pin)
        leg = pair_of(port)
        if GT_PORT.search(base):
            if not gt:
                errors.append(f"package: {port} is a transceiver port but {pin} is not a transceiver pin")
                continue
            kind = "TX" if gt.group(1) == "TX" else ("RX" if gt.group(1) else "REFCLK")
            want = "TX" if direction.get(port) == "output" else ("RX", "REFCLK")
            if kind not in want:
                errors.append(f"package: {port} is an {direction.get(port)} on {pin}, a {kind} pin")
            polarity = gt.group(2) or gt.group(6)
            pair_id = (kind, gt.group(3) or gt.group(5), gt.group(4) or gt.group(7))
        else:
            if not io:
                errors.append(f"package: {port} takes an IOSTANDARD but {pin} is not an I/O pin")
                continue
            bank = io.group(3)
            if bank not in banks:
                errors.append(f"package: {port} is on {pin}, bank {bank}, which no VCCO line declares")
            else:
                rail, volts = banks[bank]
                std = p.get("IOSTANDARD")
                if std not in VCCO_OF:
                    errors.append(f"package: {port}: IOSTANDARD {std} is not one this check knows the VCCO of")
                elif VCCO_OF[std] != volts:
                    errors.append(f"package: {port} ({std}, needs {VCCO_OF[std]} V) is in bank {bank} on {rail} = {volts} V")
            polarity = io.group(2)
            pair_id = ("IO", io.group(1), bank)
        if leg:
            if polarity != leg[1]:
                errors.append(f"package: {port} is the {leg[1]} leg of {leg[0]} but {pin} is an "
                              f"{polarity or 'unpaired'} pin")
            pairs.setdefault(leg[0], {})[leg[1]] = (pair_id, pin, p.get("IOSTANDARD"))
    for name, legs in pairs.items():
        if set(legs) != {"P", "N"}:
            errors.append(f"package: differential pair {name} has only its {''.join(legs)} leg placed")
        elif legs["P"][0] != legs["N"][0]:
            errors.append(f"package: {name}: {legs['P'][1]} and {legs['N'][1]} are not the two pins of one pair")
        elif legs["P"][2] != legs["N"][2]:
            errors.append(f"package: {name}: legs have IOSTANDARDs {legs['P'][2]} and {legs['N'][2]}")


def run(files):
    consts = pkg_constants(files[PKG])
    regmap = json.loads(files[REGMAP])
    errors = []
    check_pins(files, consts, errors)
    check_clocks(files, regmap, errors)
    check_range(files, regmap, consts, errors)
    check_kernels(files, consts, errors)
    check_lanes(files, consts, errors)
    check_package(files, consts, errors)
    return errors


def self_test(files):
    """Each mutation must produce at least one error naming what was broken."""
    def mut(path, old, new, count=1):
        text = files[path]
        if old not in text:
            raise SystemExit(f"self-test: '{old}' not found in {path}")
        return {**files, path: text.replace(old, new, count)}

    def swap(path, a, b):
        text = files[path]
        if a not in text or b not in text:
            raise SystemExit(f"self-test: '{a}' or '{b}' not found in {path}")
        return {**files, path: text.replace(a, "\0").replace(b, a).replace("\0", b)}

    regmap = json.loads(files[REGMAP])
    for p in regmap["parameters"]:
        if p["name"] == "DDMTD_N":
            p["value"] = 1024
    cases = [
        ("a pin removed", mut(BOARD_XDC, "set_property PACKAGE_PIN G31 [get_ports {gate_txp[15]}]", ""), "gate_txp[15]"),
        ("an IOSTANDARD removed", mut(BOARD_XDC, "{PACKAGE_PIN A20 IOSTANDARD LVCMOS33", "{PACKAGE_PIN A20"), "pps_pin_o"),
        ("a pin used twice", mut(BOARD_XDC, "PACKAGE_PIN AL12", "PACKAGE_PIN AH14"), "AH14"),
        ("a stale port", mut(BOARD_XDC, "[get_ports {led_o[7]}]", "[get_ports {led_o[8]}]"), "led_o[8]"),
        ("the helper at 4 ns", mut(BOARD_XDC, "-period 4.001 -name dmtd_clk", "-period 4.000 -name dmtd_clk"), "dmtd_refclk_p"),
        ("an OOC helper at 4 ns", mut(OOC_XDC, "-period 4.001", "-period 4.000"), "clk_dmtd_i"),
        ("no recovered clock", mut(BOARD_XDC, "RXOUTCLK", "TXOUTCLK", -1), "RXOUTCLK"),
        ("DDMTD_N changed", {**files, REGMAP: json.dumps(regmap)}, "true period"),
        ("rx and sys grouped", mut(TIMING_XDC, "# rst_ni is synchronous", "set_clock_groups -asynchronous -group [get_clocks rx_clk] -group [get_clocks sys_clk]\n# rst_ni is synchronous"), "groups clocks"),
        ("a SOF sampler unbounded", mut(TIMING_XDC, " || NAME =~ *u_link/u_sof_fall_sync/sync_q1_reg*", ""), "u_sof_fall_sync"),
        ("a 64 KiB range", mut(KERNEL_XML, 'range="0x40000"', 'range="0x10000"'), "range"),
        ("a kernel port missing", mut("hw/board/blackbox/lightrail_sequencer.sv", "  input  logic seq_stop,\n", ""), "seq_stop"),
        ("a kernel port too narrow", mut("hw/board/blackbox/lightrail_clock_sync.sv", "logic [63:0] sync_time_step", "logic [31:0] sync_time_step"), "sync_time_step"),
        ("two gates swapped in GtIndex", mut(WRAPPER, "'{14, 13, 15", "'{13, 14, 15"), "GtIndex gives port 0"),
        ("a gate moved to another lane", mut(BOARD_XDC, ";# MGTHTXP2_229", ";# MGTHTXP0_230"), "enables"),
        ("a gate pin without its transceiver name", mut(BOARD_XDC, " ;# MGTHTXP3_129", ""), "gate_txp[15]"),
        ("P and N ports swapped", swap(BOARD_XDC, "[get_ports si5328_ckin_p]", "[get_ports si5328_ckin_n]"),
         "si5328_ckin_p is the P leg"),
        ("a pair's legs on two pairs", mut(BOARD_XDC, ";# IO_L11N_T1U_N9_GC_67", ";# IO_L12N_T1U_N11_GC_67"),
         "not the two pins of one pair"),
        ("a gate lane's N on another channel", mut(BOARD_XDC, ";# MGTHTXN2_228", ";# MGTHTXN3_228"),
         "gate_txp/n[7]"),
        ("an output on a receiver pin", mut(BOARD_XDC, ";# MGTHTXP0_230", ";# MGTHRXP0_230"), "link_txp is an output"),
        ("a 1.8 V standard in a 3.3 V bank", mut(BOARD_XDC, "{PACKAGE_PIN AL12 IOSTANDARD LVCMOS33", "{PACKAGE_PIN AL12 IOSTANDARD LVCMOS18"),
         "led_o[7] (LVCMOS18, needs 1.8 V) is in bank 44"),
        ("LVDS on a 3.3 V rail", mut(BOARD_XDC, "#   VCCO VADJ_FMC 1.8 banks 66 67", "#   VCCO VADJ_FMC 3.3 banks 66 67"),
         "si5328_ckin_p (LVDS"),
        ("a bank without a VCCO line", mut(BOARD_XDC, "VCCO VCC3V3 3.3 banks 44 47 49", "VCCO VCC3V3 3.3 banks 44 49"),
         "bank 47"),
        ("a pin without its package pin name", mut(BOARD_XDC, " ;# IO_L6N_HDGC_AD6N_44 GPIO_LED_7", ""), "led_o[7] (AL12) has no package pin name"),
        ("a port placed by LOC without its name", mut(BOARD_XDC, "PACKAGE_PIN AL12 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[7]}] ;# IO_L6N_HDGC_AD6N_44 GPIO_LED_7",
                                                   "LOC AL12 IOSTANDARD LVCMOS33 SLEW SLOW DRIVE 8} [get_ports {led_o[7]}]"), "led_o[7] (AL12) has no package pin name"),
        ("one pin name on two pins", mut(BOARD_XDC, ";# IO_L7P_HDGC_AD5P_44", ";# IO_L7N_HDGC_AD5N_44"), "IO_L7N_HDGC_AD5N_44 named for both"),
        ("a new wrapper port without a pin", mut(WRAPPER, "  output logic [ 7:0]                               led_o\n",
                                                  "  output logic [ 7:0]                               led_o,\n  output logic extra_o\n"), "extra_o"),
    ]
    failed = 0
    for what, mutated, needle in cases:
        errs = run(mutated)
        if not any(needle in e for e in errs):
            print(f"self-test FAILED: {what} was not caught (errors: {errs[:3]})")
            failed += 1
        else:
            print(f"self-test ok: {what} -> {next(e for e in errs if needle in e)}")
    return failed


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    root = Path(sys.argv[1])
    paths = [WRAPPER, TOP, PKG, BOARD_XDC, OOC_XDC, TIMING_XDC, KERNEL_XML, REGMAP, GTH_TCL, *KERNELS]
    files = {p: (root / p).read_text() for p in paths}
    if "--self-test" in sys.argv[2:]:
        return 1 if self_test(files) else 0
    errors = run(files)
    for e in errors:
        print(e)
    if errors:
        print(f"{len(errors)} problem(s)")
        return 1
    print("board checks passed: pins, clocks, register range, kernel ports, lanes, package")
    return 0


if __name__ == "__main__":
    sys.exit(main())
