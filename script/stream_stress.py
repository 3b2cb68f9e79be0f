"""Many event streams, every event, every time: a bounded stress of `GET /v1/events`.

Used by script/stress-streams; standard library only. Each run starts fresh `lucid serve`
processes on a fresh database (a SQLite file, or a new database on the PostgreSQL server
whose socket folder is given; with `pg2`, two instances on that one database), registers
one user who opens ONE_USER_STREAMS streams and USERS users who open PER_USER streams each,
every stream from its own loopback address (127.0.1.1 onwards; with two instances they
alternate between them), after BEFORE versions of each journal. Then, ROUNDS times, for the
many-streams user and then another user:

  healthz   `GET /healthz` on every instance answers 200 within 1 s
  write     BURST dreams added at once are each answered 201 within 2 s
  delivery  every open stream of that user receives the new versions' events within 5 s,
            and no stream ends
  exactly-once  every stream has received exactly the versions written to its journal since
            it opened, in order, each once

and says which check failed, on which stream, and when. Writes go to the instances in turn,
or (`--writes-on last`) all to the last one, so that the others hear of every version
through PostgreSQL alone; by default odd runs do the one and even runs the other. `--churn N`
adds N clients that meanwhile register, stream, poll, write and delete their accounts;
`--hogs N` N busy processes. Exits 1 if any run failed; prints one line per run and a JSON
summary (timings, failures by check) last.

Usage: python3 stream_stress.py --binary PATH --store sqlite|pg1|pg2 [--pg-socket DIR]
         [--runs N] [--rounds N] [--one-user-streams N] [--users N] [--per-user N]
         [--before N] [--burst N] [--writes-on spread|last|alternate] [--churn N] [--hogs N]
         [--until-failure]
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import stream_load

HEALTHZ_BOUND = 1.0
WRITE_BOUND = 2.0
DELIVERY_BOUND = 5.0


def version_of(fields):
    """The version an answer's ETag names: `"12"`, or `"12-…"` where it also names the journal."""
    return int(fields["etag"].strip('"').split("-")[0])


def address(number):
    """The loopback address of stream `number`: 127.0.1.1 onwards, 250 per third octet."""
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


async def request(port, method, path, token=None, body=None, source="127.0.0.1"):
    """One HTTP/1.1 request on its own connection (stream_load's); returns (status, headers, body)."""
    headers = {"Authorization": f"Bearer {token}"} if token else None
    return await stream_load.request("127.0.0.1", port, method, path, headers=headers, body=body, source=source)


class Stream:
    """One open event stream: the versions it received, when, and whether it ended."""

    def __init__(self, number, user, port):
        self.number = number
        self.user = user
        self.port = port
        self.source = address(number)
        self.received = []  # (version, monotonic time)
        self.ended_at = None
        self.end_reason = None
        self.arrived = asyncio.Event()

    async def open(self, token):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.source, 0))
        self.writer.write((f"GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                           f"Authorization: Bearer {token}\r\n\r\n").encode())
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"stream {self.number} refused: {head[:200]!r}")

    async def read(self):
        buffer = b""
        try:
            while True:
                size_line = await self.reader.readuntil(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                if size == 0:
                    self.end_reason = "ended (last chunk)"
                    break
                buffer += await self.reader.readexactly(size)
                await self.reader.readexactly(2)
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    for line in block.split(b"\n"):
                        if line.startswith(b"id: "):
                            self.received.append((int(line[4:]), time.monotonic()))
                            self.arrived.set()
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            self.end_reason = f"cut ({type(error).__name__})"
        finally:
            self.ended_at = time.monotonic()
            self.arrived.set()
            self.writer.close()

    def versions(self):
        return [version for version, _ in self.received]


class Instance:
    """One `lucid serve` process."""

    def __init__(self, binary, database, folder, index):
        self.log_path = os.path.join(folder, f"server-{index}.log")
        self.out_path = os.path.join(folder, f"server-{index}.out")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--database", database, "--max-streams-per-user", "1000"],
            stdout=open(self.out_path, "w"), stderr=open(self.log_path, "w"), stdin=subprocess.DEVNULL)
        self.port = None
        for _ in range(600):
            with open(self.out_path) as out:
                found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", out.read())
            if found:
                self.port = int(found.group(1))
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"a server did not start: {open(self.log_path).read()[-2000:]}")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def log_tail(self, lines=15):
        with open(self.log_path, errors="replace") as log:
            return log.read().splitlines()[-lines:]


class Failure(Exception):
    def __init__(self, check, detail):
        super().__init__(f"{check}: {detail}")
        self.check = check
        self.detail = detail


async def register(port, name, source):
    status, _, data = await request(port, "POST", "/v1/users", body={
        "username": name, "password": f"correct horse {name} battery"}, source=source)
    if status != 201:
        raise RuntimeError(f"registering {name}: {status} {data[:200]!r}")
    return json.loads(data)["token"]


async def churn(ports, run, worker, stop):
    """What else a full suite does to the server meanwhile: other users write, open and drop
    streams, wait in long polls, and delete their accounts. Returns how many requests failed."""
    failed = 0
    number = 0
    while not stop.is_set():
        number += 1
        port = ports[number % len(ports)]
        source = address(3000 + worker * 50 + number % 50)
        try:
            token = await register(port, f"c{worker}n{number}r{run}x{os.getpid()}", source)
            stream = Stream(4000 + worker * 50 + number % 50, "churn", ports[(number + 1) % len(ports)])
            await stream.open(token)
            reader = asyncio.create_task(stream.read())
            poll = asyncio.create_task(request(port, "GET", "/v1/changes?since=0&wait=5", token=token, source=source))
            for _ in range(3):
                status, _, _ = await request(ports[(number + _) % len(ports)], "POST", "/v1/dreams", token=token, body={
                    "description": "Churn", "creature": {"kind": "shark"}}, source=source)
                failed += status != 201
            await poll
            if number % 2:
                status, _, _ = await request(port, "DELETE", "/v1/me", token=token, body={
                    "password": f"correct horse c{worker}n{number}r{run}x{os.getpid()} battery"}, source=source)
                failed += status != 204
            stream.writer.close()
            reader.cancel()
        except (OSError, asyncio.IncompleteReadError, RuntimeError):
            failed += 1
    return failed


def write_port(args, ports, run, turn):
    """Where a write goes: the instances in turn, or always the last one, so that the others
    hear of every version through PostgreSQL only."""
    last = args.writes_on == "last" or (args.writes_on == "alternate" and run % 2 == 1)
    return ports[-1] if last else ports[turn % len(ports)]


async def one_run(args, instances, run):
    ports = [instance.port for instance in instances]
    timings = {"healthz": [], "write": [], "delivery": []}
    users = ["many"] + [f"u{index}" for index in range(args.users)]
    tokens = {}
    for index, user in enumerate(users):
        tokens[user] = await register(ports[index % len(ports)], f"{user}r{run}x{os.getpid()}", address(2000 + index))
    # Versions before the streams open, on every instance: each stream starts from a head.
    for number in range(args.before):
        for index, user in enumerate(users):
            status, _, _ = await request(write_port(args, ports, run, number + index), "POST", "/v1/dreams", token=tokens[user], body={
                "description": "Before", "creature": {"kind": "dragon"}})
            if status != 201:
                raise RuntimeError(f"writing before: {status}")
    plan = [("many", number) for number in range(args.one_user_streams)]
    plan += [(user, None) for user in users[1:] for _ in range(args.per_user)]
    streams = []
    for number, (user, _) in enumerate(plan):
        streams.append(Stream(number, user, ports[number % len(ports)]))
    # Opened all at once, as many devices coming back together would.
    await asyncio.gather(*(stream.open(tokens[stream.user]) for stream in streams))
    readers = [asyncio.create_task(stream.read()) for stream in streams]
    opened_at = time.monotonic()
    stop = asyncio.Event()
    churners = [asyncio.create_task(churn(ports, run, worker, stop)) for worker in range(args.churn)]
    written = {user: [] for user in users}  # versions written since the streams opened

    try:
        for round_ in range(args.rounds):
            for writer_user in ["many", users[1 + round_ % args.users] if args.users else "many"]:
                # healthz on every instance
                for port in ports:
                    start = time.monotonic()
                    status, _, _ = await request(port, "GET", "/healthz")
                    took = time.monotonic() - start
                    timings["healthz"].append(took)
                    if status != 200 or took > HEALTHZ_BOUND:
                        raise Failure("healthz", f"round {round_}: port {port} status {status} in {took * 1000:.0f} ms")
                port = write_port(args, ports, run, round_ + len(written[writer_user]))
                for stream in streams:
                    stream.arrived.clear()
                start = time.monotonic()
                # A burst: several writes at once, as a client sending its queue or many devices would.
                answers = await asyncio.gather(*(request(port, "POST", "/v1/dreams", token=tokens[writer_user], body={
                    "description": f"Round {round_} of run {run}, {index}", "creature": {"kind": "shark"}})
                    for index in range(args.burst)))
                took = time.monotonic() - start
                timings["write"].append(took)
                for status, fields, data in answers:
                    if status != 201 or took > WRITE_BOUND:
                        raise Failure("write", f"round {round_}: {writer_user} on port {port}: {status} in {took * 1000:.0f} ms {data[:200]!r}")
                versions = sorted(version_of(fields) for _, fields, _ in answers)
                written[writer_user] += versions
                version = versions[-1]
                mine = [stream for stream in streams if stream.user == writer_user]
                deadline = start + DELIVERY_BOUND
                while True:
                    missing = [s for s in mine if version not in s.versions() and s.ended_at is None]
                    ended = [s for s in streams if s.ended_at is not None]
                    if ended:
                        first = min(ended, key=lambda s: s.ended_at)
                        raise Failure("delivery", (
                            f"round {round_}: {len(ended)} streams ended, first stream {first.number} ({first.user}, port "
                            f"{first.port}) {first.end_reason} {first.ended_at - opened_at:.2f} s after opening, "
                            f"having got {first.versions()[-5:]}; versions written {written[first.user][-5:]}"))
                    if not missing:
                        break
                    now = time.monotonic()
                    if now >= deadline:
                        sample = missing[0]
                        raise Failure("delivery", (
                            f"round {round_}: {len(missing)} of {len(mine)} streams of {writer_user} lack version {version} "
                            f"after {DELIVERY_BOUND} s (e.g. stream {sample.number} on port {sample.port} got "
                            f"{sample.versions()[-5:]})"))
                    # Woken by any stream's event, or every 50 ms.
                    waiters = [asyncio.create_task(s.arrived.wait()) for s in missing[:1]]
                    await asyncio.wait(waiters, timeout=0.05)
                    for waiter in waiters:
                        waiter.cancel()
                timings["delivery"].append(max(dict(s.received)[version] for s in mine) - start)
                # Exactly what was written to each stream's journal, in order, once.
                for stream in streams:
                    if stream.versions() != written[stream.user]:
                        raise Failure("exactly-once", (
                            f"round {round_}: stream {stream.number} ({stream.user}, port {stream.port}) got "
                            f"{stream.versions()} where {written[stream.user]} were written"))
    finally:
        stop.set()
        timings["churnFailures"] = sum(await asyncio.gather(*churners))
        for task in readers:
            task.cancel()
        for stream in streams:
            stream.writer.close()
        await asyncio.gather(*readers, return_exceptions=True)
    return timings


def make_database(args, run, folder):
    if args.store == "sqlite":
        return os.path.join(folder, "lucid.sqlite")
    name = f"stress{os.getpid()}r{run}"
    subprocess.run(["psql", "-q", "-h", args.pg_socket, "-U", "lucid", "-d", "postgres", "-c", f"CREATE DATABASE {name}"],
                   check=True, stdout=subprocess.DEVNULL)
    return f"postgresql://lucid@/{name}?host={args.pg_socket}"


def drop_database(args, run):
    if args.store != "sqlite":
        subprocess.run(["psql", "-q", "-h", args.pg_socket, "-U", "lucid", "-d", "postgres", "-c",
                        f"DROP DATABASE IF EXISTS stress{os.getpid()}r{run} WITH (FORCE)"], stdout=subprocess.DEVNULL)


def hog():
    while True:
        pass


def percentile(values, fraction):
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 1) if ordered else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--store", choices=["sqlite", "pg1", "pg2"], required=True)
    parser.add_argument("--pg-socket")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one-user-streams", type=int, default=200)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--per-user", type=int, default=20)
    parser.add_argument("--hogs", type=int, default=0)
    parser.add_argument("--before", type=int, default=2, help="versions of each journal before its streams open")
    parser.add_argument("--burst", type=int, default=2, help="writes sent at once each round")
    parser.add_argument("--writes-on", choices=["spread", "last", "alternate"], default="alternate")
    parser.add_argument("--churn", type=int, default=0, help="clients doing other things meanwhile")
    parser.add_argument("--until-failure", action="store_true")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    hogs = [multiprocessing.Process(target=hog, daemon=True) for _ in range(args.hogs)]
    for process in hogs:
        process.start()
    failures, all_timings = [], {"healthz": [], "write": [], "delivery": []}
    try:
        for run in range(args.runs):
            folder = tempfile.mkdtemp(prefix="lucid-stress-")
            database = make_database(args, run, folder)
            instances = []
            started = time.monotonic()
            try:
                for index in range(2 if args.store == "pg2" else 1):
                    instances.append(Instance(args.binary, database, folder, index))
                timings = asyncio.run(one_run(args, instances, run))
                for key in all_timings:
                    all_timings[key] += timings[key]
                print(f"run {run + 1}/{args.runs} {args.store}: ok in {time.monotonic() - started:.1f} s; "
                      f"healthz max {max(timings['healthz']) * 1000:.0f} ms, write max {max(timings['write']) * 1000:.0f} ms, "
                      f"delivery max {max(timings['delivery']) * 1000:.0f} ms, churn failures {timings['churnFailures']}", flush=True)
            except Failure as failure:
                failures.append({"run": run + 1, "check": failure.check, "detail": failure.detail})
                print(f"run {run + 1}/{args.runs} {args.store}: FAILED {failure}", flush=True)
                for index, instance in enumerate(instances):
                    print(f"  instance {index} log tail:", *instance.log_tail(), sep="\n    ", flush=True)
                if args.until_failure:
                    break
            finally:
                for instance in instances:
                    instance.stop()
                drop_database(args, run)
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        for process in hogs:
            process.terminate()
    summary = {
        "store": args.store, "runs": run + 1, "failed": len(failures),
        "failuresByCheck": {check: sum(1 for f in failures if f["check"] == check) for check in {f["check"] for f in failures}},
        "healthzP50Ms": percentile(all_timings["healthz"], 0.5), "healthzMaxMs": percentile(all_timings["healthz"], 1.0),
        "writeP50Ms": percentile(all_timings["write"], 0.5), "writeMaxMs": percentile(all_timings["write"], 1.0),
        "deliveryP50Ms": percentile(all_timings["delivery"], 0.5), "deliveryMaxMs": percentile(all_timings["delivery"], 1.0),
    }
    print(json.dumps(summary))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
