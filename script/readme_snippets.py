#!/usr/bin/env python3
"""Holds the README's Swift snippets to Tests/LucidKitTests/ReadmeExamples.swift, which the
test build compiles: every ```swift block of README.md must be there line for line (its
lines in order and together, indentation aside), but for its `import` lines, which need
only be among the file's. `--self-test` checks that a changed line is caught.
"""
import pathlib
import re
import sys

FENCE = re.compile(r"^```swift\n(.*?)^```", re.M | re.S)


def missing(readme: str, compiled: str) -> list[str]:
    every = [line.strip() for line in compiled.splitlines()]
    imports = {line for line in every if line.startswith("import ")}
    lines = [line for line in every if not line.startswith("import ")]
    problems = []
    for number, block in enumerate(FENCE.findall(readme), 1):
        wanted = [line.strip() for line in block.splitlines()]
        body = [line for line in wanted if not line.startswith("import ")]
        while body and not body[0]:
            body.pop(0)
        for line in wanted:
            if line.startswith("import ") and line not in imports:
                problems.append(f"snippet {number}: `{line}` is not among the compiled file's imports")
        if not any(lines[start:start + len(body)] == body for start in range(len(lines) - len(body) + 1)):
            problems.append(f"snippet {number} (`{body[0]}` …) is not in the compiled file line for line")
    return problems


def self_test() -> None:
    readme = "text\n```swift\nimport A\nlet a = 1\n    print(a)\n```\n"
    assert not missing(readme, "import A\nfunc f() {\n    let a = 1\n        print(a)\n}\n")
    assert missing(readme, "import A\nfunc f() {\n    let a = 2\n    print(a)\n}\n")
    assert missing(readme, "func f() {\n    let a = 1\n    print(a)\n}\n")
    print("readme snippets: self-test passed")



def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    root = pathlib.Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    problems = missing(readme, (root / "Tests/LucidKitTests/ReadmeExamples.swift").read_text())
    for problem in problems:
        print("readme snippets:", problem, file=sys.stderr)
    if problems:
        return 1
    print(f"readme snippets: all {len(FENCE.findall(readme))} Swift snippets of README.md are compiled with the tests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
