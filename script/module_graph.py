#!/usr/bin/env python3
"""Holds the module list in Package.swift's opening comment to the package's graph.

Each line `///     Module ← A, B, (package)` must name exactly the targets the package
says Module depends on (build plugins left out), and every library target and `lucid` must
have its line. `--self-test` checks that a missing or an extra arrow is caught.
"""
import json
import pathlib
import re
import subprocess
import sys

LINE = re.compile(r"^///     (\w[\w-]*)\s*(?:←\s*(.*))?$")


def documented(text: str) -> dict[str, set[str]]:
    modules = {}
    for line in text.splitlines():
        match = LINE.match(line.rstrip())
        if match:
            names = [name.strip() for name in (match.group(2) or "").split(",")]
            modules[match.group(1)] = {name for name in names if name and not name.startswith("(")}
    return modules


def differences(comment: dict[str, set[str]], graph: dict[str, set[str]]) -> list[str]:
    problems = []
    for module, imports in sorted(graph.items()):
        if module not in comment:
            problems.append(f"{module} has no line")
            continue
        for missing in sorted(imports - comment[module]):
            problems.append(f"{module} imports {missing}, which its line does not say")
        for extra in sorted(comment[module] - imports):
            problems.append(f"{module}'s line says {extra}, which it does not import")
    for module in sorted(set(comment) - set(graph)):
        problems.append(f"{module} has a line but is not a module")
    return problems


def self_test() -> None:
    graph = {"A": set(), "B": {"A"}}
    assert not differences({"A": set(), "B": {"A"}}, graph)
    assert differences({"A": set(), "B": set()}, graph)
    assert differences({"A": {"B"}, "B": {"A"}}, graph)
    assert differences({"B": {"A"}}, graph)
    print("module graph: self-test passed")


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    root = pathlib.Path(__file__).resolve().parent.parent
    described = subprocess.run(
        ["swift", "package", "describe", "--type", "json"], cwd=root, check=True, capture_output=True, text=True)
    targets = json.loads(described.stdout)["targets"]
    plugins = {target["name"] for target in targets if target["type"] == "plugin"}
    graph = {
        target["name"]: set(target.get("target_dependencies", [])) - plugins
        for target in targets
        if (target["type"] == "library" and target["path"].startswith("Sources/") and not target["name"].startswith("C"))
        or target["name"] == "lucid"
    }
    problems = differences(documented((root / "Package.swift").read_text()), graph)
    for problem in problems:
        print("module graph:", problem, file=sys.stderr)
    if problems:
        return 1
    print(f"module graph: Package.swift's list names every arrow of its {len(graph)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
