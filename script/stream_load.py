"""Holds many open event streams against a running Lucid and measures event delivery.

Used by script/bench-streams; standard library only. Registers USERS users, opens
STREAMS_PER_USER `GET /v1/events` streams for each, every stream from its own loopback
address among 127.0.x.y (so the server sees many clients), and writes `ready` into the
control folder once every stream is open. Until the file `stop` appears there it keeps
reading every stream and, every WRITE_INTERVAL seconds, adds a dream to a random user's
journal, recording when the write was sent; each stream records when each version reached
it. Then it writes a JSON report: streams still open, versions written, events expected,
received, missing or out of order, and the delivery latency from sending a write to each
stream receiving its event (p50, p99, max).

Usage: python3 stream_load.py URL CONTROL_FOLDER USERS STREAMS_PER_USER [WRITE_INTERVAL]
"""

import asyncio
import json
import os
import random
import resource
import sys
import time


def raise_open_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def request(host, port, method, path, headers=None, body=None, source="127.0.0.1"):
    """One HTTP/1.1 request on its own connection; returns (status, headers, body)."""
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close"]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        payload = b""
        if body is not None:
            payload = json.dumps(body).encode()
            lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        fields = {}
        for line in head.decode().split("\r\n")[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                fields[name.strip().lower()] = value.strip()
        length = int(fields.get("content-length", "0"))
        data = await reader.readexactly(length) if length else b""
        return status, fields, data
    finally:
        writer.close()


class Stream:
    """One open event stream: the versions it received and when."""

    def __init__(self, user, source):
        self.user = user
        self.source = source
        self.received = []  # (version, monotonic time)
        self.open = False
        self.ended = False

    async def run(self, host, port, token, opened):
        reader, writer = await asyncio.open_connection(host, port, local_addr=(self.source, 0))
        writer.write((f"GET /v1/events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
                      f"Authorization: Bearer {token}\r\n\r\n").encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"stream refused: {head[:100]!r}")
        self.open = True
        opened()
        buffer = b""
        try:
            while True:
                size_line = await reader.readuntil(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                if size == 0:
                    break
                buffer += await reader.readexactly(size)
                await reader.readexactly(2)
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    for line in block.split(b"\n"):
                        if line.startswith(b"id: "):
                            self.received.append((int(line[4:]), time.monotonic()))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.ended = True
            self.open = False
            writer.close()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else None


async def main():
    url, control, users, per_user = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    interval = float(sys.argv[5]) if len(sys.argv) > 5 else 0.1
    host, port = url.removeprefix("http://").split(":")
    port = int(port)
    raise_open_file_limit()

    tokens = []
    for index in range(users):
        status, _, data = await request(host, port, "POST", "/v1/users", body={
            "username": f"stream{os.getpid()}x{index}", "password": f"correct horse {index} battery"})
        if status != 201:
            raise RuntimeError(f"registering: {status} {data[:200]!r}")
        tokens.append(json.loads(data)["token"])

    streams, tasks = [], []
    opened = asyncio.Event()
    count = 0

    def one_opened():
        nonlocal count
        count += 1
        if count == users * per_user:
            opened.set()

    for user in range(users):
        for device in range(per_user):
            number = user * per_user + device
            # 127.0.2.1 onwards: 250 addresses per third octet.
            source = f"127.0.{2 + number // 250}.{1 + number % 250}"
            stream = Stream(user, source)
            streams.append(stream)
            tasks.append(asyncio.create_task(stream.run(host, port, tokens[user], one_opened)))
            if number % 100 == 99:
                await asyncio.sleep(0.05)  # do not flood the accept queue
    try:
        await asyncio.wait_for(opened.wait(), timeout=120)
    except asyncio.TimeoutError:
        failed = [t.exception() for t in tasks if t.done() and t.exception()]
        raise RuntimeError(f"only {count} of {len(streams)} streams opened; first failure: {failed[:1]}")
    with open(os.path.join(control, "ready"), "w") as ready:
        ready.write(f"{len(streams)}\n")

    writes = {}  # (user, version) -> monotonic time the write was sent
    write_failures = 0
    while not os.path.exists(os.path.join(control, "stop")):
        user = random.randrange(users)
        sent = time.monotonic()
        status, fields, _ = await request(
            host, port, "POST", "/v1/dreams", headers={"Authorization": f"Bearer {tokens[user]}"},
            body={"description": "A lantern on the stairs", "creature": {"kind": "shark"}})
        if status == 201:
            writes[(user, int(fields["etag"].strip('"').split("-")[0]))] = sent
        else:
            write_failures += 1
        await asyncio.sleep(interval)
    await asyncio.sleep(2)  # the last events are on their way

    latencies, expected, missing, disordered = [], 0, 0, 0
    versions_of = {}
    for (user, version) in writes:
        versions_of.setdefault(user, []).append(version)
    for stream in streams:
        got = {version: at for version, at in stream.received}
        order = [version for version, _ in stream.received]
        if order != sorted(set(order)):
            disordered += 1
        for version in versions_of.get(stream.user, []):
            expected += 1
            if version in got:
                latencies.append(got[version] - writes[(stream.user, version)])
            else:
                missing += 1
    report = {
        "streams": len(streams),
        "streamsOpenAtEnd": sum(1 for s in streams if s.open),
        "writes": len(writes),
        "writeFailures": write_failures,
        "eventsExpected": expected,
        "eventsReceived": len(latencies),
        "eventsMissing": missing,
        "streamsOutOfOrder": disordered,
        "latencyP50Ms": round(1000 * percentile(latencies, 0.50), 2) if latencies else None,
        "latencyP99Ms": round(1000 * percentile(latencies, 0.99), 2) if latencies else None,
        "latencyMaxMs": round(1000 * max(latencies), 2) if latencies else None,
        "withinOneSecond": sum(1 for l in latencies if l <= 1.0),
    }
    with open(os.path.join(control, "report.json"), "w") as out:
        json.dump(report, out, indent=2)
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
