"""A client of lightraild, the strategy daemon (docs/lightraild.md).

Standard library only. Every method returns the daemon's JSON reply; a
refusal raises LightrailError(status, field, message), a daemon that cannot
be reached LightrailError(0, "", why).

    client = Client("http://127.0.0.1:7001", token_file="~/.lightraild-token")
    job = client.submit(json.load(open("job.json")), target_accuracy=0.9)
    client.phase(job["id"], "gradients")
"""

import http.client
import json
import os
import stat
import urllib.parse

__all__ = ["Client", "LightrailError"]


class LightrailError(Exception):
    """The daemon refused a request (status: its HTTP status, 0 when it could
    not be reached; field: the offending part of the request, or "")."""

    def __init__(self, status, field, message):
        super().__init__(f"HTTP {status}" + (f" at {field}" if field else "") + f": {message}")
        self.status = status
        self.field = field
        self.message = message


# The rule of every token file, as the daemon, `lightrail job` and the
# driver read one (docs/driver.md, "Token files"): a regular file of this
# user's that group and others cannot use; one final "\n" or "\r\n" is not
# part of the token; the token is 16..256 printable ASCII characters
# without spaces. A token others may read is no secret.
TOKEN_BYTES = (16, 256)


def _read_token(path):
    path = os.path.expanduser(path)

    def bad(why):
        return LightrailError(0, "token_file", f"token file {path}: {why}")

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise bad(f"cannot open ({e.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise bad("not a regular file")
        if st.st_uid != os.geteuid():
            raise bad(f"owned by uid {st.st_uid}, not by this user (uid {os.geteuid()})")
        if st.st_mode & 0o077:
            raise bad(f"group or others may use it (mode {st.st_mode & 0o7777:04o}); chmod 600 it")
        data = f.read(TOKEN_BYTES[1] + 3)
    if len(data) > TOKEN_BYTES[1] + 2:
        raise bad(f"longer than a token ({TOKEN_BYTES[0]}..{TOKEN_BYTES[1]} characters)")
    if data.endswith(b"\n"):
        data = data[:-1]
    if data.endswith(b"\r"):
        data = data[:-1]
    if not TOKEN_BYTES[0] <= len(data) <= TOKEN_BYTES[1]:
        raise bad(f"the token must be {TOKEN_BYTES[0]}..{TOKEN_BYTES[1]} characters (it has {len(data)})")
    if any(c <= 0x20 or c > 0x7E for c in data):
        raise bad("the token must be printable ASCII without spaces")
    return data.decode("ascii")


class Client:
    """One daemon. token_file is needed only by the calls that change state
    (submit, phase, progress, delete); reads need none."""

    def __init__(self, url, token_file=None, timeout=120.0):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "http" or not parts.hostname or not parts.port or parts.path not in ("", "/"):
            raise ValueError(f"daemon URL {url!r}: http://HOST:PORT")
        self._host = parts.hostname
        self._port = parts.port
        self._token = _read_token(token_file) if token_file else None
        self._timeout = timeout

    # One connection per request: the daemon closes idle ones anyway.
    def _request(self, method, path, body=None, extra_headers=None):
        headers = {"Accept": "application/json"}
        headers.update(extra_headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if method != "GET":
            if self._token is None:
                raise LightrailError(0, "token_file", f"{method} {path} changes state: the Client needs a token_file")
            headers["Authorization"] = "Bearer " + self._token
        conn = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
        try:
            conn.request(method, path, body=data, headers=headers)
            reply = conn.getresponse()
            raw = reply.read()
        except (OSError, http.client.HTTPException) as e:
            raise LightrailError(0, "", f"lightraild at {self._host}:{self._port}: {e}") from None
        finally:
            conn.close()
        try:
            doc = json.loads(raw) if raw else None
        except ValueError:
            raise LightrailError(reply.status, "", f"the reply is not JSON: {raw[:200]!r}") from None
        if 200 <= reply.status < 300:
            return doc
        err = doc.get("error", {}) if isinstance(doc, dict) else {}
        raise LightrailError(reply.status, err.get("field", ""), err.get("message", raw.decode(errors="replace")))

    @staticmethod
    def _id(job_id):
        # Job ids are URL-unreserved characters; anything else is refused
        # here rather than sent as another path.
        if not job_id or any(not (c.isascii() and (c.isalnum() or c in "-._~")) for c in job_id):
            raise LightrailError(0, "id", f"{job_id!r} is not a job id (A-Z a-z 0-9 - . _ ~)")
        return job_id

    def submit(self, job, target_accuracy=None, wait_for_circuits=False, idempotency_key=None):
        """idempotency_key: sent as Idempotency-Key, so that submit() called
        again with the same key and job after a lost reply returns the job
        the first call made instead of making a second one."""
        body = {"job": job}
        if target_accuracy is not None:
            body["target_accuracy"] = target_accuracy
        if wait_for_circuits:
            body["wait_for_circuits"] = True
        extra = {"Idempotency-Key": idempotency_key} if idempotency_key is not None else None
        return self._request("POST", "/v1/jobs", body, extra)

    def phase(self, job_id, phase):
        """phase: the name of a phase in the job file, or its index."""
        return self._request("POST", f"/v1/jobs/{self._id(job_id)}/phase", {"phase": phase})

    def replace_phases(self, job_id, phases):
        """Replaces the job's phases (a job file's "phases" list), all or
        nothing: refused, the old phases run on. Returns the job."""
        return self._request("POST", f"/v1/jobs/{self._id(job_id)}/phases", {"phases": phases})

    def progress(self, job_id, accuracy):
        return self._request("POST", f"/v1/jobs/{self._id(job_id)}/progress", {"accuracy": accuracy})

    def jobs(self):
        return self._request("GET", "/v1/jobs")

    def job(self, job_id):
        return self._request("GET", f"/v1/jobs/{self._id(job_id)}")

    def delete(self, job_id):
        return self._request("DELETE", f"/v1/jobs/{self._id(job_id)}")

    def fabric(self):
        return self._request("GET", "/v1/fabric")
