"""lucid backup on a live server: how long it takes, how big the copy is, and what it does to
the server's writes, against the other ways of copying a live SQLite database.

Usage: python3 script/bench_backup.py URL DATABASE LUCID [DREAMS] [SECONDS]

URL is a lucid serve on 127.0.0.1 using the SQLite file DATABASE; LUCID is the lucid binary.
Adds DREAMS dreams (default 10,000), one POST /v1/dreams each, to one journal from 8 threads,
then keeps 8 writers adding dreams (one journal each, one keep-alive connection each) and
measures, SECONDS seconds each (default 5):
  before   writes alone;
  during   writes while lucid backup runs back to back, each copy to a new file;
then one more lucid backup timed alone as time(1) does (real, user, sys), lucid check on that
copy, and, under the same load, the alternatives: VACUUM INTO, SQLite's backup API in steps
of 100 pages with 10 ms between them (as SQLite's documentation shows; given at most 10 s),
and the sqlite3 shell's .backup (steps of 100 pages, no pause; given at most 30 s).
"""
import http.client
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid

url = urllib.parse.urlparse(sys.argv[1])
database, lucid = sys.argv[2], sys.argv[3]
dreams = int(sys.argv[4]) if len(sys.argv) > 4 else 10_000
seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 5.0
work = tempfile.mkdtemp(prefix="bench-backup-", dir=os.path.dirname(os.path.abspath(database)))
WRITERS = 8


class Client:
    """One keep-alive connection to the server."""

    def __init__(self):
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)

    def call(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.connection.getresponse()
        return response.status, response.read()


def register(client):
    status, body = client.call("POST", "/v1/users", {"username": f"backup-{uuid.uuid4().hex[:12]}",
                                                     "password": "correct horse battery staple"})
    if status != 201:
        sys.exit(f"bench-backup: registering answered {status}: {body[:300]!r}")
    return json.loads(body)["token"]


def dream(number):
    return {"description": f"Dream {number}: flying over a violet sea with a lantern, the tide singing below.",
            "creature": [{"kind": "unicorn", "color": "pink"}, {"kind": "shark"}, {"kind": "dragon"}][number % 3],
            "effects": ["magic", "rain", "snow"][: number % 4]}


# --- Seeding: one journal of DREAMS dreams, each its own version.

seed_token = register(Client())
next_number = iter(range(dreams))
seed_lock = threading.Lock()
seed_failures = []


def seed():
    client = Client()
    while True:
        with seed_lock:
            number = next(next_number, None)
        if number is None:
            return
        status, body = client.call("POST", "/v1/dreams", dream(number), seed_token)
        if status != 201:
            seed_failures.append(f"{status} {body[:200]!r}")
            return


started = time.perf_counter()
seeders = [threading.Thread(target=seed) for _ in range(WRITERS)]
for thread in seeders:
    thread.start()
for thread in seeders:
    thread.join()
if seed_failures:
    sys.exit(f"bench-backup: seeding failed: {seed_failures[0]}")
status, body = Client().call("GET", "/v1/model", token=seed_token)
print(f"seeded one journal with {len(json.loads(body)['dreams']):,} dreams ({dreams:,} versions) "
      f"in {time.perf_counter() - started:.1f} s")

# --- The write load: WRITERS threads, each adding dreams to its own journal.

writes = []  # (sent, seconds, status) for every write, in no particular order
writes_lock = threading.Lock()
stop = threading.Event()


def write(token):
    client, number, mine = Client(), 0, []
    while not stop.is_set():
        number += 1
        sent = time.perf_counter()
        try:
            status, _ = client.call("POST", "/v1/dreams", dream(number), token)
        except (OSError, http.client.HTTPException) as error:
            status, client = f"{type(error).__name__}", Client()
        mine.append((sent, time.perf_counter() - sent, status))
    with writes_lock:
        writes.extend(mine)


writer_tokens = [register(Client()) for _ in range(WRITERS)]
writers = [threading.Thread(target=write, args=(token,)) for token in writer_tokens]
for thread in writers:
    thread.start()


def timed(command, limit=120.0):
    """Runs `command`, killed after `limit` seconds; its exit status (None if killed), its output,
    and its real, user and system seconds, as time(1) reports them."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    killer = threading.Timer(limit, process.kill)
    killer.start()
    output = process.stdout.read().decode()  # to its end, so the child never waits on a full pipe
    _, status, usage = os.wait4(process.pid, 0)
    real = time.perf_counter() - started
    killer.cancel()
    process.stdout.close()
    code = os.waitstatus_to_exitcode(status)
    return (None if code == -9 else code), output, real, usage.ru_utime, usage.ru_stime


time.sleep(1)  # the writers get going
windows = {}
before_start = time.perf_counter()
time.sleep(seconds)
windows["before"] = (before_start, time.perf_counter())

durations = []
during_start = time.perf_counter()
while time.perf_counter() - during_start < seconds:
    target = os.path.join(work, f"copy-{len(durations)}.sqlite")
    code, output, real, _, _ = timed([lucid, "backup", "--database", database, target])
    if code != 0:
        sys.exit(f"bench-backup: lucid backup failed: {output}")
    durations.append(real)
    os.remove(target)
windows["during"] = (during_start, time.perf_counter())

# One backup alone, timed, then checked.
headline = os.path.join(work, "backup.sqlite")
alone_start = time.perf_counter()
code, output, backup_real, backup_user, backup_system = timed([lucid, "backup", "--database", database, headline])
windows["alone"] = (alone_start, time.perf_counter())
if code != 0:
    sys.exit(f"bench-backup: lucid backup failed: {output}")
size = os.path.getsize(headline)
wal = os.path.getsize(database + "-wal") if os.path.exists(database + "-wal") else 0
# VACUUM INTO at once, on about the same database.
comparisons = []
target = os.path.join(work, "vacuum.sqlite")
code, output, real, user, system = timed(["sqlite3", "-readonly", database, f"VACUUM INTO '{target}'"])
comparisons.append(("VACUUM INTO", f"real {real:.3f} s, user {user:.3f} s, sys {system:.3f} s, "
                    f"{os.path.getsize(target) / 1e6:.1f} MB" if code == 0 else f"failed: {output.strip()}"))
if os.path.exists(target):
    os.remove(target)
check_code, check_output, check_real, _, _ = timed([lucid, "check", "--database", headline])

# --- The other alternatives, under the same load.


def chunked(pages, pause, limit):
    """SQLite's backup API in steps of `pages`, `pause` seconds apart: (finished, seconds, restarts)."""
    target = os.path.join(work, "chunked.sqlite")
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    destination = sqlite3.connect(target)
    progress, restarts, started = [], [0], time.perf_counter()

    def step(status, remaining, total):
        # A restart starts over from the first page: more left than the step before.
        if progress and remaining > progress[-1]:
            restarts[0] += 1
        progress.append(remaining)
        if time.perf_counter() - started > limit:
            raise TimeoutError
        time.sleep(pause)

    try:
        source.backup(destination, pages=pages, progress=step)
        finished = True
    except TimeoutError:
        finished = False
    elapsed = time.perf_counter() - started
    source.close()
    destination.close()
    os.remove(target)
    return finished, elapsed, restarts[0]


finished, elapsed, restarts = chunked(100, 0.010, 10.0)
comparisons.append(("backup API, 100 pages a step, 10 ms apart",
                    f"{'finished in' if finished else 'gave up after'} {elapsed:.2f} s, restarted {restarts} times"))
target = os.path.join(work, "shell.sqlite")
code, output, real, _, _ = timed(["sqlite3", "-readonly", database, f".backup '{target}'"], limit=30.0)
comparisons.append(("sqlite3 shell .backup (100 pages a step, no pause)",
                    f"{real:.3f} s" if code == 0 else "killed after 30 s, unfinished" if code is None
                    else f"failed: {output.strip()}"))
for leftover in [target, target + "-journal"]:
    if os.path.exists(leftover):
        os.remove(leftover)

stop.set()
for thread in writers:
    thread.join()
shutil.rmtree(work)

# --- Report.


def window(name):
    start, end = windows[name]
    inside = [w for w in writes if start <= w[0] < end]
    failed = [w for w in inside if w[2] != 201]
    latencies = sorted(w[1] for w in inside)
    if not latencies:
        return "no writes sent"
    p99 = latencies[int(len(latencies) * 0.99)] if latencies else 0
    return (f"{len(inside) / (end - start):7.0f} writes/s, {len(failed)} failed, latency p50 "
            f"{statistics.median(latencies) * 1000:5.1f} ms, p99 {p99 * 1000:5.1f} ms, max {latencies[-1] * 1000:5.1f} ms")


print(f"lucid backup of the live database, alone: real {backup_real:.3f} s, user {backup_user:.3f} s, "
      f"sys {backup_system:.3f} s; the copy: {size / 1e6:.1f} MB ({size:,} bytes); the -wal beside the database: "
      f"{wal / 1e6:.1f} MB")
print(f"lucid backup back to back for {seconds:g} s under the load: {len(durations)} copies, "
      f"median {statistics.median(durations):.3f} s, max {max(durations):.3f} s")
print(f"lucid check of the copy: exit {check_code}, real {check_real:.3f} s: {check_output.strip().splitlines()[-1]}")
print(f"writes by {WRITERS} writers, each to its own journal over one keep-alive connection:")
print(f"  before the backups  {window('before')}")
print(f"  during the backups  {window('during')}")
print(f"  during the one alone{window('alone')}")
print("the other ways of copying the live database, under the same load:")
for name, result in comparisons:
    print(f"  {name:52} {result}")
failures = [w for w in writes if w[2] != 201]
if failures or check_code != 0:
    sys.exit(f"bench-backup: {len(failures)} writes failed (first: {failures[0][2] if failures else '-'}), check exit {check_code}")
