#!/usr/bin/env python3
"""A loopback TCP proxy in front of `lightrail-cosim serve` that breaks one
connection on purpose, once, for the fabric co-simulation tests:

  cut_proxy.py --upstream PORT --port-file F [--log L] RULE

RULE is one of
  --cut-after-bytes N         close both sides once N bytes came from the client
  --write-at LO[:HI] ACTION   act on the first client line "WR <addr> ..." with
                              LO <= addr < HI (hex; HI defaults to LO+4)
ACTION:
  --action cut                close both sides; the line is not forwarded
  --action cut-mid            forward the first half of the line, then close
  --action corrupt            flip bit 0 of the line's last word, forward it
  --action stall              hold the line (not forwarded) for --stall-s
                              seconds, or until --release-file exists, then cut

The rule fires once; every later connection is forwarded untouched, so a
driver that reconnects reaches the board again. Stops on SIGTERM.
"""
import argparse
import os
import signal
import socket
import sys
import threading
import time

fired = threading.Event()
lock = threading.Lock()
client_bytes = 0
log_file = None


def log(msg):
    line = f"cut_proxy: {time.time():.3f} {msg}\n"
    sys.stderr.write(line)
    if log_file:
        with open(log_file, "a") as f:
            f.write(line)


def close(*socks):
    for s in socks:
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            s.close()
        except OSError:
            pass


def upstream_to_client(up, client):
    try:
        while True:
            data = up.recv(65536)
            if not data:
                break
            client.sendall(data)
    except OSError:
        pass
    close(up, client)


def write_address(line):
    parts = line.split(b" ")
    if len(parts) < 3 or parts[0] != b"WR":
        return None
    try:
        return int(parts[1], 16)
    except ValueError:
        return None


def act_on_line(args, line, up, client):
    """Returns the bytes to forward, or None when the connection was cut."""
    if args.action == "cut":
        log(f"cut before {line[:40]!r}")
        close(up, client)
        return None
    if args.action == "cut-mid":
        half = line[: max(1, len(line) // 2)]
        up.sendall(half)
        log(f"cut in the middle of {line[:40]!r} ({len(half)} of {len(line)} bytes sent)")
        time.sleep(0.05)
        close(up, client)
        return None
    if args.action == "corrupt":
        body = line.rstrip(b"\r\n")
        words = body.split(b" ")
        value = int(words[-1], 16) ^ 1
        words[-1] = format(value, "x").encode()
        log(f"corrupted the last word of {line[:40]!r}")
        return b" ".join(words) + line[len(body):]
    if args.action == "stall":
        log(f"stalling {line[:40]!r}")
        deadline = time.time() + args.stall_s
        while time.time() < deadline:
            if args.release_file and os.path.exists(args.release_file):
                break
            time.sleep(0.01)
        log("stall over: cut")
        close(up, client)
        return None
    raise ValueError(args.action)


def client_to_upstream(args, client, up):
    global client_bytes
    pending = b""
    try:
        while True:
            data = client.recv(65536)
            if not data:
                break
            if args.cut_after_bytes is not None and not fired.is_set():
                with lock:
                    room = args.cut_after_bytes - client_bytes
                    client_bytes += len(data)
                if room <= len(data):
                    fired.set()
                    up.sendall(data[: max(0, room)])
                    log(f"cut after {args.cut_after_bytes} client bytes")
                    time.sleep(0.05)
                    break
                up.sendall(data)
                continue
            if args.write_at is None or fired.is_set():
                if pending:
                    data, pending = pending + data, b""
                up.sendall(data)
                continue
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                line += b"\n"
                addr = write_address(line)
                lo, hi = args.write_at
                if not fired.is_set() and addr is not None and lo <= addr < hi:
                    fired.set()
                    out = act_on_line(args, line, up, client)
                    if out is None:
                        return
                    line = out
                up.sendall(line)
    except OSError:
        pass
    close(up, client)


def serve(args):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"{listener.getsockname()[1]}\n")
    os.replace(tmp, args.port_file)
    while True:
        client, _ = listener.accept()
        try:
            up = socket.create_connection(("127.0.0.1", args.upstream), timeout=5)
            up.settimeout(None)
        except OSError as e:
            log(f"upstream: {e}")
            close(client)
            continue
        for s in (client, up):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=upstream_to_client, args=(up, client), daemon=True).start()
        threading.Thread(target=client_to_upstream, args=(args, client, up), daemon=True).start()


def parse_range(text):
    lo, _, hi = text.partition(":")
    lo = int(lo, 16)
    return (lo, int(hi, 16) if hi else lo + 4)


def main():
    global log_file
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--upstream", type=int, required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--log")
    p.add_argument("--cut-after-bytes", type=int)
    p.add_argument("--write-at", type=parse_range)
    p.add_argument("--action", choices=["cut", "cut-mid", "corrupt", "stall"], default="cut")
    p.add_argument("--stall-s", type=float, default=5.0)
    p.add_argument("--release-file")
    args = p.parse_args()
    if (args.cut_after_bytes is None) == (args.write_at is None):
        p.error("give exactly one of --cut-after-bytes and --write-at")
    log_file = args.log
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    serve(args)


if __name__ == "__main__":
    main()
