"""Times GET /v1/dreams/search over HTTP on a journal of 10,000 dreams.

Usage: python3 script/bench_search.py URL LABEL [DREAMS] [ROUNDS]
Registers a user, adds DREAMS dreams (default 10,000) in batches: descriptions of 15 to 150
words drawn from a vocabulary of 3,000 with a Zipf-like skew (some words in most dreams,
most in few), some with diacritics, a dream sign now and then, a few tags. Then sends
ROUNDS (default 30) rounds of a mix of queries over one keep-alive connection (words, a
prefix of one and two letters, diacritics, filters, "on this day", no match) and prints
p50 and p99 for each and over all, then what adding a dream costs while the index grows.
"""
import http.client
import json
import random
import statistics
import sys
import time
import urllib.parse
import uuid

url = urllib.parse.urlparse(sys.argv[1])
label = sys.argv[2]
dreams = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 30
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)


def call(method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = response.read()
    if response.status >= 300:
        sys.exit(f"bench-search: {method} {path} answered {response.status}: {data[:300]!r}")
    return data


random.seed(2026)
syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "dri", "mor", "fen", "gal", "hé", "jö", "quy", "bre", "stö", "wan"]
vocabulary = ["".join(random.choice(syllables) for _ in range(random.randint(2, 4))) for _ in range(3000)]
signs = ["violet", "sea", "unicorn", "lantern", "tide", "flying", "teeth", "shark", "café", "Łódź", "stairs", "owl"]
tags = ["Flying", "Teeth falling out", "Water", "Chased", "Falling", "Late", "Lost", "School", "Family", "Café"]
creatures = [{"kind": "unicorn", "color": "pink"}, {"kind": "shark"}, {"kind": "dragon"}, {"kind": "crusty"}]
effects = ["fireBreathing", "laserFocus", "magic", "fireflies", "rain", "snow"]


def word():
    return vocabulary[min(len(vocabulary) - 1, int(len(vocabulary) ** random.random()) - 1)]


def dream(n):
    words = [word() for _ in range(random.randint(15, 150))]
    for _ in range(random.randint(0, 3)):
        words[random.randrange(len(words))] = random.choice(signs)
    return {
        "description": " ".join(words).capitalize() + ".", "creature": creatures[n % 4],
        "effects": [e for e in effects if random.random() < 0.25], "lucid": random.random() < 0.2,
        "dreamtOn": f"20{16 + n % 10}-{1 + n % 12:02d}-{1 + (n * 7) % 28:02d}",
        "tags": random.sample(tags, random.randint(0, 2)),
    }


name = f"search-{uuid.uuid4().hex[:12]}"
token = json.loads(call("POST", "/v1/users", {"username": name, "password": "correct horse battery staple"}))["token"]
start = time.perf_counter()
for first in range(0, dreams, 400):
    call("POST", "/v1/actions", {"actions": [{"type": "addDream", "dream": dream(n)} for n in range(first, min(dreams, first + 400))]}, token)
print(f"bench-search ({label}): added {dreams:,} dreams in {time.perf_counter() - start:.1f} s")

common, rare = vocabulary[0], vocabulary[2000]
queries = [
    ("common word", {"q": common}), ("rare word", {"q": rare}), ("sign", {"q": "violet"}),
    ("two signs", {"q": "unicorn violet"}), ("diacritics", {"q": "CAFE lodz"}), ("prefix of 1", {"q": "k"}),
    ("prefix of 2", {"q": "fl"}), ("no match", {"q": "zzqx"}), ("tag word", {"q": "teeth"}),
    ("words and filters", {"q": "sea", "creature": "shark", "lucid": "false"}),
    ("filters only", {"effect": "magic", "tag": "water"}), ("on this day", {"monthDay": "11-15"}),
    ("syntax", {"q": '"tide" AND (sea OR NOT *) NEAR:&|!'}),
]
# The first search of a journal makes its words (see JournalWords): timed on its own.
start = time.perf_counter()
call("GET", "/v1/dreams/search?" + urllib.parse.urlencode({"q": "violet"}), token=token)
print(f"bench-search ({label}): the first search, which makes the journal's words: {(time.perf_counter() - start) * 1e3:.1f} ms")
times = {name: [] for name, _ in queries}
found = {}
for _ in range(rounds):
    for name, parameters in queries:
        path = "/v1/dreams/search?" + urllib.parse.urlencode(parameters)
        start = time.perf_counter()
        answer = call("GET", path, token=token)
        times[name].append(time.perf_counter() - start)
        found[name] = json.loads(answer)["total"]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * p + 0.999999) - 1))]


everything = [t for values in times.values() for t in values]
print(f"bench-search ({label}): GET /v1/dreams/search at {dreams:,} dreams, {rounds} rounds of {len(queries)} queries, "
      f"first page of 50 with snippets: p50 {percentile(everything, 0.5) * 1e3:.2f} ms, "
      f"p99 {percentile(everything, 0.99) * 1e3:.2f} ms, max {max(everything) * 1e3:.2f} ms")
for name, _ in queries:
    print(f"  {name}: {found[name]} found; p50 {percentile(times[name], 0.5) * 1e3:.2f} ms, p99 {percentile(times[name], 0.99) * 1e3:.2f} ms")

adds = []
for n in range(rounds * 4):
    start = time.perf_counter()
    call("POST", "/v1/dreams", dream(dreams + n), token)
    adds.append(time.perf_counter() - start)
print(f"bench-search ({label}): POST /v1/dreams at {dreams:,} dreams: median {statistics.median(adds) * 1e3:.2f} ms")
