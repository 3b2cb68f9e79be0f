"""What GET /v1/export costs on a journal of 10,000 dreams: time, and the server's memory.

Usage: python3 script/bench_export.py URL SERVER_PID [DREAMS]
Registers a user, adds DREAMS dreams (default 10,000) in batches of 1,000 and edits 200 of
them one by one (so history has versions of both sizes), then exports the journal in each
form with a reader that takes everything at once, and once more with a slow reader (64 KiB
every 20 ms). For each it prints the time, the size of the export, and the server's resident
memory (VmRSS of /proc/SERVER_PID/status) before and after, and its peak while exporting
(VmHWM, reset before each export by writing 5 to /proc/SERVER_PID/clear_refs). Last, for
contrast, GET /v1/model, which renders the whole journal in memory.
"""
import http.client
import json
import sys
import threading
import time
import urllib.parse
import uuid

url = urllib.parse.urlparse(sys.argv[1])
pid = int(sys.argv[2])
dreams = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000


def call(method, path, body=None, token=None):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    if response.status >= 300:
        sys.exit(f"bench-export: {method} {path} answered {response.status}: {data[:300]!r}")
    return data


def status():
    """VmRSS and VmHWM of the server, in KiB."""
    values = {}
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


def reset_peak():
    with open(f"/proc/{pid}/clear_refs", "w") as file:
        file.write("5")


def measure(label, path, token, headers=None, slow=False):
    """Downloads `path`, returns nothing; prints time, size and memory."""
    reset_peak()
    time.sleep(0.2)
    before, _ = status()
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    connection.request("GET", path, headers={"Authorization": f"Bearer {token}", **(headers or {})})
    started = time.perf_counter()
    response = connection.getresponse()
    if response.status != 200:
        sys.exit(f"bench-export: GET {path} answered {response.status}: {response.read()[:300]!r}")
    size, peak_sampled = 0, 0
    while True:
        piece = response.read(64 << 10) if slow else response.read()
        if not piece:
            break
        size += len(piece)
        if slow:
            peak_sampled = max(peak_sampled, status()[0])
            time.sleep(0.02)
        else:
            break
    elapsed = time.perf_counter() - started
    connection.close()
    time.sleep(0.2)
    after, peak = status()
    growth = peak - before
    print(f"  {label:34} {elapsed * 1000:8.0f} ms  {size / 1e6:6.2f} MB  RSS {before / 1024:6.1f} -> {after / 1024:6.1f} MiB,"
          f" peak {peak / 1024:6.1f} MiB (+{growth / 1024:5.1f} MiB, {growth * 1024 / max(size, 1) * 100:4.1f}% of the export)")


name = f"export-{uuid.uuid4().hex[:12]}"
token = json.loads(call("POST", "/v1/users", {"username": name, "password": "correct horse battery staple"}))["token"]
creatures = [{"kind": "unicorn", "color": "pink"}, {"kind": "shark"}, {"kind": "dragon"}, {"kind": "crusty"}]
effects = ["magic", "rain", "snow", "fireflies"]
words = ("violet sea lantern tide singing flying tower stairs teeth falling forest glass river "
         "mother school exam late train dark water light moon fire door").split()
for start in range(0, dreams, 1000):
    actions = [{
        "type": "addDream",
        "dream": {
            "description": f"Dream {n}: " + " ".join(words[(n * 7 + i) % len(words)] for i in range(40 + n % 60))
            + (" *bold* # not a heading <b>html</b> & [link](x)" if n % 10 == 0 else ""),
            "creature": creatures[n % 4], "effects": effects[: n % 3],
            "dreamtOn": f"20{20 + n % 7}-{1 + n % 12:02d}-{1 + n % 28:02d}",
            "lucid": n % 5 == 0, "tags": ["flying", "water"][: n % 3],
        },
    } for n in range(start, min(dreams, start + 1000))]
    call("POST", "/v1/actions", {"actions": actions}, token)
ids = [dream["id"] for dream in json.loads(call("GET", "/v1/dreams?limit=100", token=token))["items"]]
for n in range(200):
    call("PATCH", f"/v1/dreams/{ids[n % len(ids)]}", {"numberOfCreatures": 1 + n % 9}, token)
call("GET", "/v1/dreams?limit=1", token=token)  # the head is cached: writes leave it there

rss, _ = status()
print(f"GET /v1/export of a journal of {dreams:,} dreams ({dreams // 1000 + 200} versions); server RSS {rss / 1024:.1f} MiB")
measure("Lucid JSON", "/v1/export", token)
measure("Lucid JSON, again", "/v1/export", token)
measure("Lucid JSON with history", "/v1/export?history=true", token)
measure("Markdown", "/v1/export?format=markdown", token)
measure("Day One JSON", "/v1/export?format=dayone", token)
measure("Lucid JSON, slow reader", "/v1/export", token, slow=True)
print("For contrast, an answer rendered whole in memory:")
measure("GET /v1/model", "/v1/model", token)
