"""Times GET /v1/sections with and without ?since= on a journal of 10,000 dreams.

Usage: python3 script/bench_sections.py URL [DREAMS] [REQUESTS]
Registers a user, adds DREAMS dreams (default 10,000) in batches, makes one edit and one
undo, then sends REQUESTS (default 20) requests per grouping over one keep-alive
connection and prints the median and the largest time, with the answer's size.
"""
import http.client
import json
import statistics
import sys
import time
import urllib.parse
import uuid

url = urllib.parse.urlparse(sys.argv[1])
dreams = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
requests = int(sys.argv[3]) if len(sys.argv) > 3 else 20
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)


def call(method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = response.read()
    if response.status >= 300:
        sys.exit(f"bench-sections: {method} {path} answered {response.status}: {data[:300]!r}")
    return data


name = f"sections-{uuid.uuid4().hex[:12]}"
token = json.loads(call("POST", "/v1/users", {"username": name, "password": "correct horse battery staple"}))["token"]
creatures = [{"kind": "unicorn", "color": "pink"}, {"kind": "shark"}, {"kind": "dragon"}, {"kind": "crusty"}]
effects = ["magic", "rain", "snow", "fireflies"]
for start in range(0, dreams, 1000):
    actions = [{
        "type": "addDream",
        "dream": {
            "description": f"Dream {n}: flying over a violet sea with a lantern, the tide singing.",
            "creature": creatures[n % 4], "effects": effects[: n % 3],
            "dreamtOn": f"20{20 + n % 7}-{1 + n % 12:02d}-{1 + n % 28:02d}",
        },
    } for n in range(start, min(dreams, start + 1000))]
    call("POST", "/v1/actions", {"actions": actions}, token)
model = json.loads(call("GET", "/v1/model", token=token))
first = model["dreams"][0]["id"]
call("PATCH", f"/v1/dreams/{first}", {"numberOfCreatures": 7}, token)
call("POST", "/v1/undo", token=token)
head = json.loads(call("GET", "/v1/model", token=token))["version"]

print(f"GET /v1/sections on a journal of {dreams:,} dreams at version {head}, {requests} requests each "
      "(median / max, answer size):")
for grouping in ["creature", "month", "effect", "none"]:
    for since in [None, head - 1]:
        path = f"/v1/sections?groupBy={grouping}" + (f"&since={since}" if since is not None else "")
        times, size = [], 0
        for _ in range(requests):
            started = time.perf_counter()
            size = len(call("GET", path, token=token))
            times.append(time.perf_counter() - started)
        label = f"groupBy={grouping}" + (" since=head-1" if since is not None else "")
        print(f"  {label:32} {statistics.median(times) * 1000:7.1f} ms / {max(times) * 1000:7.1f} ms, {size / 1e6:.2f} MB")
