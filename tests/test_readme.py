"""The README's code blocks work as written.

Python blocks run as extracted scripts, in order, each in a fresh namespace inside a
temporary folder (a block may write files such as a chunk store). Shell blocks are
checked without running hours of work: the set-up block is exactly the two make
commands, every ``minestats`` line parses with the command's own parser, and every
``make`` target named exists in the Makefile.
"""

import re
import shlex
from pathlib import Path

import pytest

from minestats.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(language):
    text = (ROOT / "README.md").read_text()
    return [body for lang, body in BLOCK.findall(text) if lang == language]


def test_readme_starts_with_the_name_a_line_and_the_two_set_up_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[0] == "# minestats" and lines[1] == "" and lines[2]
    assert blocks("")[0] == "make results\nmake test\n"


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_blocks_run_as_written(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = blocks("python")[index]
    exec(compile(code, f"README.md python block {index}", "exec"), {"__name__": "readme"})


def shell_lines():
    for body in blocks(""):
        for line in body.splitlines():
            command = line.split("#")[0].split(">")[0].strip()
            if command:
                yield command


@pytest.mark.parametrize("line", [line for line in shell_lines() if line.startswith("minestats")])
def test_command_lines_parse(line):
    args = build_parser().parse_args(shlex.split(line)[1:])
    assert args.command == shlex.split(line)[1]


def test_make_targets_exist():
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.MULTILINE))
    named = {line.split()[1] for line in shell_lines() if line.startswith("make ")}
    assert named and named <= targets
