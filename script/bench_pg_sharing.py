#!/usr/bin/env python3
"""Structure sharing on PostgreSQL: what a one-dream edit adds to the database when the
journal holds 10,000 dreams, against one when it holds 10. Speaks HTTP to a running
`lucid serve` on PostgreSQL and reads table sizes with psql.

Usage: bench_pg_sharing.py URL PSQL_HOST DATABASE [EDITS]
"""
import http.client
import json
import subprocess
import sys
import uuid
from urllib.parse import urlparse

url, psql_host, database = sys.argv[1:4]
edits = int(sys.argv[4]) if len(sys.argv) > 4 else 500
address = urlparse(url)


def call(method, path, body=None, token=None):
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    headers = {"Content-Type": "application/merge-patch+json" if method == "PATCH" else "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    data = response.read()
    if response.status >= 300:
        sys.exit(f"{method} {path}: {response.status} {data[:200]!r}")
    return json.loads(data) if data else None


def journal_bytes():
    query = ("SELECT sum(pg_total_relation_size(name::regclass)) "
             "FROM unnest(ARRAY['versions', 'dream_revisions', 'journals']) AS name")
    out = subprocess.run(["psql", "-At", "-h", psql_host, "-U", "lucid", "-d", database, "-c", query],
                         check=True, capture_output=True, text=True).stdout
    return int(out.strip())


def seeded(count):
    token = call("POST", "/v1/users", {"username": "sharing" + uuid.uuid4().hex[:8],
                                       "password": "correct horse battery staple"})["token"]
    ids = []
    for start in range(0, count, 1000):
        dreams = [{"id": str(uuid.uuid4()), "description": f"Dream {n}: flying over a violet sea with a lantern.",
                   "creature": {"kind": "shark"}} for n in range(start, min(count, start + 1000))]
        ids += [d["id"] for d in dreams]
        call("POST", "/v1/actions", {"actions": [{"type": "addDream", "dream": d} for d in dreams]}, token)
    return token, ids


small, big = seeded(10), seeded(10_000)
results = {}
for name, (token, ids) in (("10", small), ("10,000", big)):
    before = journal_bytes()
    for number in range(edits):
        call("PATCH", f"/v1/dreams/{ids[(number * 7919) % len(ids)]}",
             {"description": f"Edit {number}: the lantern went out and the sea turned to glass."}, token)
    results[name] = (journal_bytes() - before) / edits

for name, per_edit in results.items():
    print(f"postgresql: a one-dream edit in a journal of {name} dreams adds {per_edit:,.0f} bytes "
          f"(table and index pages, over {edits} edits)")
