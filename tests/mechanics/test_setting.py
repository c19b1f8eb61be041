"""A setting is read once, at the public boundary: the chunks reuse it, the same boards.

`Setting.layouts` and `Setting.games` must draw exactly what the public samplers draw
from the same seed (every committed table depends on it), and no chunk function of a
driver may read a board, a rule or a click again (read from the drivers' code).
"""

import ast
from pathlib import Path

import numpy as np
import pytest

from minestats.foundations.board import Board
from minestats.foundations.rules import RULES
from minestats.mechanics.sampling import chunk_games, chunk_layouts
from minestats.mechanics.setting import Setting, prepare_run

PACKAGE = Path(__file__).resolve().parents[2] / "minestats"
DRIVERS = sorted((PACKAGE / "drivers").glob("*.py")) + []
READS_A_SETTING = {"resolve_board", "check_click", "check_rule", "resolve", "chunk_layouts",
                   "chunk_games", "sample_mines"}
"""Calls that read a board, a rule or a click from what a user wrote."""


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("click", [(0, 0), (3, 2)])
def test_a_setting_draws_the_boards_of_the_public_samplers(rule, click):
    def seed():  # a fresh one each time: spawning moves a SeedSequence on
        return np.random.SeedSequence(11, spawn_key=(2, 3))

    board = Board(7, 5, 6)
    setting = Setting.resolve(str(board), rule, f"{click[0]},{click[1]}")
    assert (setting.board, setting.rule, setting.click) == (board, rule, click)
    expected = chunk_layouts(board, 40, seed(), rule=rule, click=click)
    assert np.array_equal(setting.layouts(40, seed()), expected)
    layouts, seeds = setting.games(40, seed())
    public_layouts, public_seeds = chunk_games(board, 40, seed(), rule=rule, click=click)
    assert np.array_equal(layouts, public_layouts)
    assert [s.spawn_key for s in seeds] == [s.spawn_key for s in public_seeds]


def test_a_setting_refuses_what_the_checks_refuse():
    with pytest.raises(ValueError, match="must be at most 0 for rule 'safe-opening'"):
        Setting.resolve("3x3/1", "safe-opening", "centre")
    with pytest.raises(ValueError, match="rule 'xp' is not one of"):
        Setting.resolve("3x3/1", "xp", None)
    assert Setting.resolve("3x3/1", None, None) == Setting(Board(3, 3, 1), None, None)


def test_a_run_plan_checks_every_board_of_a_sweep():
    plan = prepare_run(Board(9, 9, 10), Board(30, 16, 99), n=500, seed=3, chunk_size=100)
    assert (plan.n, plan.chunk_size, plan.seed) == (500, 100, 3)
    with pytest.raises(ValueError, match="layouts of board 2000x2000/10 at once"):
        prepare_run(Board(9, 9, 10), Board(2000, 2000, 10), n=500, seed=3, chunk_size=100)
    assert prepare_run(n=5, seed=None, chunk_size=2).n == 5


def chunk_work(path: Path) -> dict[str, set[str]]:
    """Return, for each function a driver runs as chunks, the names its work calls.

    The chunk functions are those handed to ``run_jobs`` or ``map_chunks``; the calls
    of a module function they call are followed, transitively.
    """
    tree = ast.parse(path.read_text())
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}

    def called(node) -> set[str]:
        return {call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id
                for call in ast.walk(node) if isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute | ast.Name)}

    chunks = {call.args[0].id for call in ast.walk(tree) if isinstance(call, ast.Call)
              and isinstance(call.func, ast.Name) and call.func.id in {"run_jobs", "map_chunks"}
              and call.args and isinstance(call.args[0], ast.Name)}
    work = {}
    for chunk in chunks:
        seen, todo, names = set(), [chunk], set()
        while todo:
            name = todo.pop()
            if name in seen or name not in functions:
                continue
            seen.add(name)
            calls = called(functions[name])
            names |= calls
            todo.extend(calls)
        work[chunk] = names
    return work


@pytest.mark.parametrize("path", DRIVERS, ids=lambda path: path.name)
def test_no_chunk_reads_its_setting_again(path):
    """Below the public boundary the drivers pass the checked `Setting` on."""
    for chunk, names in chunk_work(path).items():
        assert not names & READS_A_SETTING, (
            f"{path.name}: {chunk} reads a setting again: {sorted(names & READS_A_SETTING)}")


def test_the_chunk_check_finds_a_setting_read_again(tmp_path):
    module = tmp_path / "driver.py"
    module.write_text("def _draw(config, size, seed):\n"
                      "    return chunk_layouts(config[0], size, seed, rule=config[1],\n"
                      "                         click=config[2])\n\n"
                      "def _chunk(config, size, seed):\n    return _draw(config, size, seed)\n\n"
                      "def public(board):\n    return run_jobs(_chunk, [(board, 1)])\n")
    assert chunk_work(module) == {"_chunk": {"_draw", "chunk_layouts"}}
