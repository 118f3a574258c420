#!/usr/bin/env python3
"""lightraild over TLS (issue 30), on loopback only, with a throwaway CA the
test makes (openssl CLI).

A client that trusts the CA talks to it: a GET without a token is 401 (over
TLS reads need one), with it 200, a job is submitted; /healthz needs none. A
client that does not trust the CA fails its handshake. Plain HTTP to the TLS
port gets no HTTP reply, and the daemon serves TLS on afterwards. A bind
beyond loopback without --tls-cert exits 2 before touching anything
(nothing is bound: the refusal comes first); a key others may read exits 1
naming --tls-key.

  tls.py COSIM LIGHTRAILD SOURCE_DIR
"""
import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys

from daemon_lib import Harness, fail

cosim, daemon, src = sys.argv[1:4]
TOKEN = "test-token-0123456789abcdef"
if not shutil.which("openssl"):
    print("SKIP: no openssl command to make a test CA")
    sys.exit(77)


def openssl(*args):
    r = subprocess.run(["openssl"] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        fail("openssl %s: %s" % (" ".join(args), r.stderr))


def make_ca(h):
    """A CA, and a server certificate for 127.0.0.1 it signed; returns paths."""
    ca_key, ca, key, csr, cert, ext = (h.path(n) for n in ("ca.key", "ca.pem", "server.key", "server.csr",
                                                         "server.pem", "san.ext"))
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
            ca_key, "-out", ca, "-days", "1", "-subj", "/CN=lightraild test CA")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
            "-out", csr, "-subj", "/CN=127.0.0.1")
    with open(ext, "w") as f:
        f.write("subjectAltName = IP:127.0.0.1\nextendedKeyUsage = serverAuth\n")
    openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert, "-days", "1",
            "-extfile", ext)
    os.chmod(key, 0o600)
    return ca, cert, key


def https(port, ca, method, path, token=None, body=None):
    ctx = ssl.create_default_context(cafile=ca)
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=ctx, timeout=30)
    headers = {"Authorization": "Bearer " + token} if token else {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"null")
    finally:
        conn.close()


with Harness(cosim, daemon, src, boards=1, sync=False) as h:
    ca, cert, key = make_ca(h)
    # Beyond loopback without TLS: refused at start, naming the options.
    r = subprocess.run([daemon, "--fabric", h.path("fabric.json"), "--token-file", h.path("token"), "--state-dir",
                        h.path("state-refused"), "--bind", "0.0.0.0", "--port", "0"], capture_output=True, text=True)
    if r.returncode != 2 or "--tls-cert" not in r.stderr or os.path.exists(h.path("state-refused")):
        fail("--bind 0.0.0.0 without TLS: exit %d, %s" % (r.returncode, r.stderr))
    # A key others may read: refused naming it.
    shutil.copy(key, h.path("public.key"))
    os.chmod(h.path("public.key"), 0o644)
    r = subprocess.run([daemon, "--fabric", h.path("fabric.json"), "--token-file", h.path("token"), "--state-dir",
                        h.path("state"), "--tls-cert", cert, "--tls-key", h.path("public.key"), "--allow-unlocked"],
                       capture_output=True, text=True)
    if r.returncode != 1 or "--tls-key" not in r.stderr:
        fail("a readable key: exit %d, %s" % (r.returncode, r.stderr))

    h.start_daemon(args=["--tls-cert", cert, "--tls-key", key])
    port = int(h.url.rsplit(":", 1)[1])
    status, doc = https(port, ca, "GET", "/v1/jobs")
    if status != 401 or doc["error"]["field"] != "Authorization":
        fail("a GET without a token over TLS: %d %s" % (status, doc))
    status, doc = https(port, ca, "GET", "/healthz")
    if status != 200:
        fail("/healthz over TLS: %d %s" % (status, doc))
    status, job = https(port, ca, "POST", "/v1/jobs", TOKEN, {"job": h.job_file("dp16.job.json")})
    if status != 201:
        fail("submit over TLS: %d %s" % (status, job))
    status, doc = https(port, ca, "GET", "/v1/jobs", TOKEN)
    if status != 200 or [j["id"] for j in doc["jobs"]] != [job["id"]]:
        fail("GET with the token over TLS: %d %s" % (status, doc))
    # A client that does not trust the CA.
    try:
        https(port, None, "GET", "/healthz")
        fail("a client without the CA got through")
    except ssl.SSLError:
        pass
    # Plain HTTP to the TLS port: no HTTP reply.
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            answer = s.recv(4096)
        except ConnectionResetError:
            answer = b""
    if answer.startswith(b"HTTP/"):
        fail("plain HTTP was answered: %r" % answer[:200])
    status, doc = https(port, ca, "GET", "/v1/jobs/" + job["id"], TOKEN)
    if status != 200:
        fail("TLS after the plain request: %d %s" % (status, doc))
    h.stop_daemon()
    if h.proc.returncode != 0:
        fail("exit %d on SIGTERM" % h.proc.returncode)
    print("TLS on 127.0.0.1 with a test CA: GET without token 401, /healthz 200, submit 201, GET with token 200; "
          "untrusted client refused; plain HTTP got %r; 0.0.0.0 without TLS exit 2; readable key exit 1" % answer[:40])
