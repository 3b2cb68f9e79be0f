"""Two users behind one HTTP cache: hishel, a standard RFC 9111 cache for httpx, run as the
private cache of an app or a browser that more than one account signs in to.

Starts `lucid serve` on a fresh database, registers two users with a dream each, and reads
every personal answer through one cache, first as one user, then as the other, then as the
first again. Each must see only their own journal; the first user's second read of an answer
that says `no-cache` is revalidated (a 304 on the wire, the stored body served); a version,
which never changes, is served from the cache without asking; an answer holding a secret
(the list of sessions) is never stored. Bounded: every request has a 10 s timeout.

Usage: cache_check.py --binary PATH
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import hishel
import httpx
from hishel.httpx import CacheClient

PASSWORD = "correct horse battery staple"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def status_of(response):
    caching = response.extensions.get("caching") or {}
    return {key: bool(caching.get(key)) for key in ("from_cache", "revalidated", "stored")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="lucid-cache-")
    log = open(os.path.join(folder, "server.log"), "wb")
    server = subprocess.Popen([arguments.binary, "serve", "--port", "0", "--database", os.path.join(folder, "db.sqlite")],
                              stdout=subprocess.PIPE, stderr=log)
    try:
        match = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline().decode())
        if not match:
            sys.exit("cache-check: the server did not start")
        base = match.group(0)
        plain = httpx.Client(base_url=base, timeout=10)
        tokens, dreams = {}, {}
        for name in ("alice", "bob"):
            answer = plain.post("/v1/users", json={"username": name, "password": PASSWORD})
            tokens[name] = answer.json()["token"]
            dream = plain.post("/v1/dreams", json={"description": f"{name}'s own dream", "creature": {"kind": "shark"}},
                               headers={"Authorization": f"Bearer {tokens[name]}"})
            dreams[name] = dream.json()["id"]

        storage = hishel.SqliteStorage(database_path=os.path.join(folder, "cache.sqlite"))
        cache = CacheClient(base_url=base, timeout=10, storage=storage, rfc=hishel.CacheOptions(shared=False))

        def read(path, name):
            response = cache.get(path, headers={"Authorization": f"Bearer {tokens[name]}"})
            response.read()
            return response

        for path in ("/v1/dreams", "/v1/model", "/v1/me", f"/v1/dreams/{dreams['alice']}", "/v1/versions/1", "/v1/export",
                     "/v1/sections?groupBy=creature", "/v1/stats", "/v1/history"):
            for name, other in (("alice", "bob"), ("bob", "alice")):
                first = read(path, name)
                mine = path != f"/v1/dreams/{dreams['alice']}" or name == "alice"
                if not mine:
                    # A dream of alice's is no dream of bob's, cached or not.
                    check(first.status_code == 404, f"{path}: bob, who has no such dream, got {first.status_code}")
                    check(not status_of(first)["from_cache"], f"{path}: bob was answered from alice's cache entry")
                    continue
                check(first.status_code == 200, f"{path}: {name} got {first.status_code}")
                check(other not in first.text, f"{path}: {name} was shown {other}'s journal: {first.text[:200]}")
                check(not status_of(first)["from_cache"], f"{path}: {name}'s first read was answered from {other}'s cache entry")
                check(status_of(first)["stored"], f"{path}: the cache did not store {name}'s answer ({first.headers})")
                again = read(path, name)
                state = status_of(again)
                check(again.status_code == 200 and other not in again.text,
                      f"{path}: {name}'s second read is not their own journal: {again.status_code} {again.text[:200]}")
                if name == "bob":
                    # hishel revalidates one stored answer, the oldest of a second: alice's, which
                    # the server rightly does not confirm for bob (another journal's tag).
                    continue
                check(state["from_cache"] == ("etag" in first.headers),
                      f"{path}: {name}'s second read, with a validator or without, was not answered as it should ({state})")
                if path == "/v1/versions/1":
                    check(not state["revalidated"], f"{path}: an immutable version was asked for again ({state})")
                else:
                    check(state["revalidated"], f"{path}: a no-cache answer was served without asking the server ({state})")
            # With both users' answers stored, each still gets their own.
            for name, other in (("alice", "bob"), ("bob", "alice")):
                last = read(path, name)
                if last.status_code == 200:
                    check(other not in last.text, f"{path}: {name} was shown {other}'s journal at last: {last.text[:200]}")

        sessions = read("/v1/sessions", "alice")
        check(sessions.status_code == 200 and not status_of(sessions)["stored"],
              f"/v1/sessions: a list of sessions was stored ({sessions.headers.get('cache-control')})")
    finally:
        server.terminate()
        server.wait(timeout=10)
    if failures:
        for failure in failures:
            print(f"cache-check: FAILED: {failure}")
        sys.exit(1)
    print("cache-check: two users behind one hishel cache each saw only their own journal; "
          "revalidation gave 304s, versions were kept, sessions were not")


if __name__ == "__main__":
    main()
