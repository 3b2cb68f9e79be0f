#!/usr/bin/env python3
"""Checks that LucidKit, which is for iPhones first, stands on a floor an iPhone has.

Reads the module graph from `swift package describe --type json` and fails when
- the dependency closure of LucidKit and LucidKitTesting holds a module of the server
  (either store, the store contract, threads, HTTP, the API, metrics, crypto) or its C,
- a Swift file of the closure imports a module or calls a function Darwin lacks outside
  a branch that only Linux compiles (`#if os(Linux)`, `#if canImport(Glibc)`, the `#else`
  of `#if canImport(Darwin)`, and the like), or
- it uses what Apple's platforms have only after LucidKit's (iOS 17, macOS 14): the
  Synchronization module's `Mutex` and `Atomic`.

`--self-test` runs the file check on samples that must pass and samples that must fail.
"""
import json
import pathlib
import re
import subprocess
import sys

SERVER_MODULES = {
    "LucidStore", "LucidSQLite", "LucidPostgres", "LucidThreads", "LucidHTTP", "LucidAPI",
    "LucidMetrics", "LucidCrypto", "CMicroHTTPD", "CPostgres", "CSodium", "CZlib",
}

# Modules only Linux has.
LINUX_MODULES = {"Glibc", "Musl", "FoundationNetworking", "FoundationXML"}

# Calls and constants glibc declares and Darwin does not.
LINUX_CALLS = {
    "fdatasync", "syncfs", "sync_file_range", "fallocate", "posix_fadvise",
    "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait",
    "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
    "eventfd", "signalfd", "timerfd_create", "timerfd_settime", "memfd_create",
    "accept4", "pipe2", "dup3", "sendfile", "splice", "tee", "prctl", "gettid",
    "sched_getcpu", "getrandom", "malloc_usable_size", "mallinfo", "mallinfo2",
    "SOCK_CLOEXEC", "SOCK_NONBLOCK", "MSG_NOSIGNAL", "O_DIRECT", "O_TMPFILE",
}

LINUX_CONDITION = re.compile(r"os\(Linux\)|canImport\((Glibc|Musl|FoundationNetworking)\)")
DARWIN_CONDITION = re.compile(r"canImport\(Darwin\)|os\((macOS|iOS|tvOS|watchOS|visionOS)\)")
# What iOS 17 and macOS 14 lack, by the name a file uses.
NEWER_THAN_FLOOR = {"Synchronization", "Mutex", "Atomic"}

CALL = re.compile(r"\b(" + "|".join(sorted(LINUX_CALLS)) + r")\b")
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public |package |internal |private |fileprivate )?import\s+(\w+)")


def only_linux(condition: str) -> bool:
    """Whether a branch taken when `condition` holds is compiled on Linux alone."""
    return bool(LINUX_CONDITION.search(condition)) and "!" not in condition


def faults(text: str, label: str) -> list[str]:
    """What `text`, a Swift file, uses that Darwin lacks outside Linux-only branches."""
    found = []
    # One entry per open #if: whether the branch being read is Linux-only, and whether an
    # earlier branch of the chain was Darwin's (so the rest of the chain is not Darwin).
    stack: list[list[bool]] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#if "):
            condition = stripped[4:]
            stack.append([only_linux(condition), bool(DARWIN_CONDITION.search(condition)) and "!" not in condition])
            continue
        if stripped.startswith("#elseif "):
            condition = stripped[8:]
            stack[-1][0] = only_linux(condition) or stack[-1][1]
            stack[-1][1] = stack[-1][1] or (bool(DARWIN_CONDITION.search(condition)) and "!" not in condition)
            continue
        if stripped == "#else":
            stack[-1][0] = stack[-1][1]
            continue
        if stripped == "#endif":
            stack.pop()
            continue
        if any(linux for linux, _ in stack):
            continue
        code = stripped.split("//", 1)[0]
        imported = IMPORT.match(code)
        for newer in re.findall(r"\b(" + "|".join(sorted(NEWER_THAN_FLOOR)) + r")\b", code):
            found.append(f"{label}:{number}: uses {newer}, which iOS 17 and macOS 14 lack")
        if imported and imported.group(1) in LINUX_MODULES:
            found.append(f"{label}:{number}: imports {imported.group(1)}, which Darwin lacks, outside #if os(Linux)")
        elif not imported:
            for call in CALL.findall(code):
                found.append(f"{label}:{number}: uses {call}, which Darwin lacks, outside #if os(Linux)")
    return found


def self_test() -> None:
    passing = {
        "guarded import": "#if canImport(Glibc)\nimport Glibc\n#endif\n",
        "else of Darwin": "#if canImport(Darwin)\nimport Darwin\n#else\nimport Glibc\n#endif\n",
        "elseif after Darwin": "#if canImport(Darwin)\nimport Darwin\n#elseif canImport(Glibc)\nimport Glibc\n#endif\n",
        "platform sync": "#if os(Linux)\nfdatasync(fd)\n#else\nfcntl(fd, F_FULLFSYNC)\n#endif\n",
        "comment": "// fdatasync is Linux's\n/// no epoll_wait here\n",
    }
    failing = {
        "bare import": "import Glibc\n",
        "bare call": "let ok = fdatasync(descriptor) == 0\n",
        "else of Linux": "#if os(Linux)\nimport Glibc\n#else\nlet e = epoll_create1(0)\n#endif\n",
        "negated": "#if !os(Linux)\nfdatasync(fd)\n#endif\n",
        "networking": "public import FoundationNetworking\n",
        "mutex": "import Synchronization\nlet lock = Mutex(0)\n",
    }
    for label, text in passing.items():
        assert not faults(text, label), f"self-test: {label} should pass: {faults(text, label)}"
    for label, text in failing.items():
        assert faults(text, label), f"self-test: {label} should fail"
    print(f"client floor: self-test passed ({len(passing)} samples pass, {len(failing)} fail)")


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    root = pathlib.Path(__file__).resolve().parent.parent
    described = subprocess.run(
        ["swift", "package", "describe", "--type", "json"], cwd=root, check=True, capture_output=True, text=True)
    targets = {target["name"]: target for target in json.loads(described.stdout)["targets"]}
    closure, pending = set(), ["LucidKit", "LucidKitTesting"]
    while pending:
        name = pending.pop()
        if name in closure:
            continue
        closure.add(name)
        pending += targets[name].get("target_dependencies", [])
    problems = [f"LucidKit or LucidKitTesting depends on the server's {name}" for name in sorted(closure & SERVER_MODULES)]
    files = 0
    for name in sorted(closure):
        target = targets[name]
        if target.get("type") == "system-target" or "sources" not in target:
            continue
        for source in target["sources"]:
            path = root / target["path"] / source
            if path.suffix == ".swift":
                files += 1
                problems += faults(path.read_text(), str(path.relative_to(root)))
    for problem in problems:
        print("client floor:", problem, file=sys.stderr)
    if problems:
        return 1
    print(f"client floor: LucidKit's closure ({', '.join(sorted(closure))}) has no server module; "
          f"its {files} Swift files use nothing Darwin, iOS 17 or macOS 14 lacks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
