"""The code blocks of the README and of the documentation site's pages work as written.

Session blocks (``pycon``: ``>>>`` lines, each with the output it prints below it) run
as doctests and must print what they show. Python blocks run as extracted scripts, in
order, each in a fresh namespace inside a temporary folder holding a copy of
``examples/`` (a block may write files such as a chunk store). The pages are the
Markdown sources under ``docs/`` (not the generated API and results listings). Shell
blocks are checked without running hours
of work: the set-up block is exactly the two make commands, every ``minestats`` line
parses with the command's own parser and runs as written (in a copy of ``examples/``,
with ``-n`` cut to `QUICK_N`: the same code path in a second), and so does every
example of ``minestats --help``; every ``make`` target named exists in the Makefile.
"""

import doctest
import io
import re
import shlex
import shutil
from pathlib import Path

import pytest

from minestats.cli import main
from minestats.cli.parser import EXAMPLES, build_parser

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


GENERATED = ("_build", "api", "_files")
"""Folders under ``docs/`` that the site's build writes, not pages anyone wrote."""
DOCUMENTS = ["README.md"] + sorted(
    path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").rglob("*.md")
    if not set(path.relative_to(ROOT / "docs").parts) & set(GENERATED))


def blocks(language, documents=("README.md",)):
    return [body for document in documents
            for lang, body in BLOCK.findall((ROOT / document).read_text())
            if lang == language]


PYTHON_BLOCKS = [(document, index) for document in DOCUMENTS
                 for index in range(len(blocks("python", [document])))]
SESSION_BLOCKS = [(document, index) for document in DOCUMENTS
                  for index in range(len(blocks("pycon", [document])))]
"""Blocks shown as a Python session (``pycon``): each line's output under it."""


def test_readme_starts_with_the_name_a_line_and_the_two_set_up_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[0] == "# minestats" and lines[1] == "" and lines[2]
    assert blocks("")[0] == "make results\nmake test\n"


def test_the_site_has_pages_with_code():
    assert "docs/getting-started.md" in DOCUMENTS and len(PYTHON_BLOCKS) > len(blocks("python"))


def test_readme_is_the_front_page_about_a_screen_long():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 60
    assert "make docs" in text and "docs/_build/html/index.html" in text


@pytest.mark.parametrize(("document", "index"), PYTHON_BLOCKS)
def test_python_blocks_run_as_written(document, index, tmp_path, monkeypatch):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")  # as from the checkout's root
    monkeypatch.chdir(tmp_path)
    code = blocks("python", [document])[index]
    exec(compile(code, f"{document} python block {index}", "exec"), {"__name__": "readme"})


def test_the_tour_shows_what_each_block_prints():
    assert ("docs/getting-started.md", 3) in SESSION_BLOCKS
    assert blocks("python", ["docs/getting-started.md"]) == []


@pytest.mark.parametrize(("document", "index"), SESSION_BLOCKS)
def test_session_blocks_print_what_they_show(document, index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    session = blocks("pycon", [document])[index]
    test = doctest.DocTestParser().get_doctest(session, {"__name__": "readme"},
                                               f"{document} session {index}", document, 0)
    assert test.examples and any(example.want for example in test.examples)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()


def shell_lines():
    for body in blocks("", DOCUMENTS):
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


QUICK_N = 100
"""The most trials a README or help example runs here (its -n is cut to this)."""
NOT_RUN = {"reproduce": "regenerates results/ (make results)",
           "--scheduler": "needs a Dask cluster"}
"""Lines that parse but are not run here, and why."""


def example_lines():
    readme = [line for line in shell_lines() if line.startswith("minestats")]
    helped = [line.split(">")[0].strip() for line in EXAMPLES.splitlines()
              if line.strip().startswith("minestats ")]
    return list(dict.fromkeys(readme + helped))


def quick(argv):
    """The line's arguments with any -n above `QUICK_N` cut to it."""
    return [str(min(int(value), QUICK_N)) if i and argv[i - 1] in ("-n", "--n") else value
            for i, value in enumerate(argv)]


RUN = [line for line in example_lines() if not any(word in shlex.split(line)
                                                   for word in NOT_RUN)]


def test_every_example_not_run_is_named_with_its_reason():
    skipped = set(example_lines()) - set(RUN)
    assert skipped == {"minestats reproduce --quiet",
                       "minestats simulate --board expert --rule uniform -n 100000000 "
                       "--scheduler tcp://HOST:8786"}


@pytest.mark.parametrize("line", RUN)
def test_readme_and_help_examples_run_as_written(line, tmp_path, monkeypatch, capsys):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    argv = quick(shlex.split(line)[1:])
    if "--replay" in argv:  # the game the example before it saves
        assert main(["play", "--board", "intermediate", "--seed", "6", "--out", "game.json"]) == 0
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out or "--out" in argv, err
    assert "Traceback" not in err
