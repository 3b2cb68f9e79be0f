"""POST /v1/import on a live server: how long a Day One file takes to import, to undo, to
redo and to import again (every entry then skipped), and how much memory the server holds,
now and at its peak (VmRSS and VmHWM of /proc/PID/status).

Usage: python3 script/bench_import.py URL PID [ENTRIES|full]

URL is a lucid serve on 127.0.0.1 whose process id is PID; start a fresh one for each run, so
that the peak is this import's. Each step shows its time, the server's CPU time in it (user and
system, from /proc/PID/stat: what other load on the machine inflates least), and memory. ENTRIES (default 10,000) entries, or `full`: as many as fit
just under the 32 MiB import limit. The entries are made up here, seeded, so every run imports
the same bytes: texts of 40 to 6,000 characters (a long tail, about 900 on average, as
journal entries run), one to three tags on most, a time zone on most, a few starred.
"""
import http.client
import json
import os
import random
import sys
import time
import urllib.parse
import uuid

url = urllib.parse.urlparse(sys.argv[1])
pid = int(sys.argv[2])
phase = sys.argv[3] if len(sys.argv) > 3 else "10000"
IMPORT_LIMIT = 32 << 20

WORDS = (
    "the sea was violet and a unicorn stood on the pier watching boats drift past while I tried to "
    "remember why my teeth felt loose school again an exam I never studied for the dragon in the garage "
    "opened one eye rain fell upwards through a glass roof and nobody noticed shark fins in the swimming "
    "pool my grandmother's kitchen but larger flying low over fields of snow lamps with two shadows"
).split()
TAGS = ["Flying", "teeth falling out", "school", "sea", "dragon", "lucid", "nightmare", "family", "water", "falling"]
ZONES = ["Europe/Paris", "America/Los_Angeles", "Asia/Tokyo", "Australia/Sydney", "Europe/London", "America/New_York"]


def entry(rng):
    length = min(6_000, max(40, int(rng.lognormvariate(6.5, 0.8))))
    words = []
    size = 0
    while size < length:
        word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
    text = " ".join(words)[:length]
    # Paragraphs, as people write them, and Day One's escaped Markdown now and then.
    text = text.replace(" the ", "\n\nThe ", 2).replace(" and ", " and\\. ", 1)
    created = 1_500_000_000 + rng.randrange(250_000_000)
    item = {
        "uuid": uuid.UUID(int=rng.getrandbits(128)).hex.upper(),
        "creationDate": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created)),
        "modifiedDate": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created + rng.randrange(3600))),
        "text": text,
        "tags": rng.sample(TAGS, rng.choice([0, 1, 1, 2, 3])),
        "starred": rng.random() < 0.1,
        "duration": 0,
        "isPinned": False,
        "creationDevice": "Phone",
    }
    if rng.random() < 0.9:
        item["timeZone"] = rng.choice(ZONES)
    return item


def document(count, seed):
    rng = random.Random(seed)
    return {"metadata": {"version": "1.0"}, "entries": [entry(rng) for _ in range(count)]}


def filling(seed, limit):
    """A document of as many entries as fit just under `limit` bytes."""
    rng = random.Random(seed)
    items = []
    size = 64
    while True:
        item = entry(rng)
        encoded = len(json.dumps(item)) + 2
        if size + encoded > limit - 4096:
            break
        items.append(item)
        size += encoded
    return {"metadata": {"version": "1.0"}, "entries": items}


def call(method, path, body=None, token=None):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    started = time.perf_counter()
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    return response.status, data, elapsed


def register():
    status, body, _ = call("POST", "/v1/users", json.dumps({
        "username": f"import-{uuid.uuid4().hex[:12]}", "password": "correct horse battery staple"}).encode())
    if status != 201:
        sys.exit(f"bench-import: registering answered {status}: {body[:300]!r}")
    return json.loads(body)["token"]


def memory():
    """The server's resident memory now and at its peak so far, in MiB."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def cpu():
    """The server's CPU time so far (user and system), in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def step(label, method, path, body=None, token=None, expect=200):
    before = cpu()
    status, data, elapsed = call(method, path, body, token)
    spent = cpu() - before
    if status != expect:
        sys.exit(f"bench-import: {label} answered {status}: {data[:300]!r}")
    rss, peak = memory()
    answer = json.loads(data) if data else {}
    shown = {key: answer[key] for key in ("version", "added", "skipped") if key in answer}
    print(f"  {label:<30} {elapsed * 1000:7.0f} ms (CPU {spent * 1000:5.0f} ms)   RSS {rss:6.1f} MiB   peak {peak:6.1f} MiB   {shown}")
    return answer


def main():
    if phase == "full":
        body = json.dumps(filling(2, IMPORT_LIMIT)).encode()
    else:
        body = json.dumps(document(int(phase), 1)).encode()
    count = body.count(b'"uuid"')
    rss, peak = memory()
    print(f"bench-import: {count} Day One entries, {len(body) / (1 << 20):.1f} MiB; server RSS {rss:.1f} MiB (peak {peak:.1f})")
    token = register()
    rss, peak = memory()
    print(f"  {'registered (argon2id: 64 MiB)':<30} {'':>23}   RSS {rss:6.1f} MiB   peak {peak:6.1f} MiB")
    step(f"import {count}", "POST", "/v1/import", body, token)
    step("undo the import", "POST", "/v1/undo", None, token)
    step("redo it", "POST", "/v1/redo", None, token)
    step(f"import again ({count} skipped)", "POST", "/v1/import", body, token)


if __name__ == "__main__":
    main()
