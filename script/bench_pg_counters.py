#!/usr/bin/env python3
"""What PostgreSQL and the Lucid instances did during each run of script/bench, for
script/bench-postgres: commits and flushes of the write-ahead log (pg_stat_database,
pg_stat_wal), statement time (pg_stat_statements), and CPU time from /proc.

  bench_pg_counters.py snapshot FILE LABEL SOCKET_DIR DATABASE POSTMASTER PIDS before|after WORKLOAD CONNECTIONS
      appends the counters now to FILE: of DATABASE on the server listening in SOCKET_DIR,
      whose process is POSTMASTER, and of the Lucid instances PIDS (separated by commas).
  bench_pg_counters.py report FILE SECONDS PGBENCH_TPS LABEL=SUMMARY...
      prints, per run, the request rate against pgbench's, the commits and flushes a second,
      requests per flush, and CPU per request in the instances and in PostgreSQL; then each
      store's rate against SQLite's (LABEL sqlite).
"""
import json
import os
import subprocess
import sys

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids):
    """CPU time (user + system) of these processes, in seconds."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
    return total / TICKS


def postgres_pids(postmaster):
    """The server and every process it started (backends, walwriter, checkpointer…)."""
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[1] == postmaster:
                        children.append(entry)
            except (FileNotFoundError, IndexError):
                pass
    return [postmaster] + children


def query(host, database, sql):
    command = ["psql", "-At", "-h", host, "-U", "lucid", "-d", database, "-c", sql]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()


def snapshot(path, label, host, database, postmaster, pids, phase, workload, connections):
    commits, = query(host, database, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
    syncs, = query(host, database, "SELECT wal_sync FROM pg_stat_wal")
    statements, = query(host, database, "SELECT coalesce(sum(total_exec_time), 0) FROM pg_stat_statements")
    record = {
        "label": label, "phase": phase, "workload": workload, "connections": connections,
        "commits": int(commits), "syncs": int(syncs), "statement_ms": float(statements),
        "lucid_cpu": cpu_seconds(pids.split(",")),
        "postgres_cpu": cpu_seconds(postgres_pids(postmaster)),
    }
    with open(path, "a") as file:
        file.write(json.dumps(record) + "\n")


def summary_rates(path):
    """(workload, connections) → requests a second, from script/bench's summary table."""
    rates, on = {}, False
    with open(path) as file:
        for line in file:
            fields = line.split()
            if fields[:1] == ["workload"]:
                on = True
            elif on and len(fields) == 7:
                rate = float(fields[2])
                # add+undo's rate counts pairs of requests.
                rates[(fields[0], fields[1])] = rate * 2 if fields[0] == "add+undo" else rate
    return rates


def report(path, seconds, tps, summaries):
    records = [json.loads(line) for line in open(path)]
    print(f"{'store':<7} {'workload':<9} {'conns':>5} {'req/s':>9} {'/pgbench':>8} {'commits/s':>9} "
          f"{'flushes/s':>9} {'req/flush':>9} {'lucid µs':>8} {'pg µs':>8} {'stmt µs':>8}")
    for label, summary in summaries:
        rates = summary_rates(summary)
        befores = {(r["workload"], r["connections"]): r for r in records if r["label"] == label and r["phase"] == "before"}
        for after in (r for r in records if r["label"] == label and r["phase"] == "after"):
            key = (after["workload"], after["connections"])
            before, rate = befores.get(key), rates.get(key)
            if before is None or not rate:
                continue
            requests = rate * seconds
            delta = {name: after[name] - before[name] for name in
                     ("commits", "syncs", "statement_ms", "lucid_cpu", "postgres_cpu")}
            print(f"{label:<7} {key[0]:<9} {key[1]:>5} {rate:>9.0f} {rate / tps:>8.2f} {delta['commits'] / seconds:>9.0f} "
                  f"{delta['syncs'] / seconds:>9.0f} {requests / max(delta['syncs'], 1):>9.1f} "
                  f"{delta['lucid_cpu'] / requests * 1e6:>8.0f} {delta['postgres_cpu'] / requests * 1e6:>8.0f} "
                  f"{delta['statement_ms'] / requests * 1e3:>8.0f}")
    base = dict(summaries).get("sqlite")
    if base:
        sqlite = summary_rates(base)
        print()
        print(f"{'store':<7} {'workload':<9} {'conns':>5} {'/sqlite':>8}")
        for label, summary in summaries:
            if label != "sqlite":
                for key, rate in summary_rates(summary).items():
                    if sqlite.get(key):
                        print(f"{label:<7} {key[0]:<9} {key[1]:>5} {rate / sqlite[key]:>8.2f}")
    print("(req/s counts requests, add+undo's both; /pgbench: against pgbench's durable inserts a second; commits count"
          " every transaction, reads' too; flushes are the log's syncs to disk (pg_stat_wal); µs are CPU time per request"
          " in all instances, in all PostgreSQL processes, and statement time per request (pg_stat_statements))")


if __name__ == "__main__":
    if sys.argv[1] == "snapshot":
        snapshot(*sys.argv[2:11])
    else:
        report(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), [argument.split("=", 1) for argument in sys.argv[5:]])
