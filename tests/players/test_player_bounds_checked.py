"""The compiled game stays inside its arrays: the player and the solvers recompiled
with numba's bounds checks play the very same games, without an IndexError.

numba does not check indices by default, so a kernel that writes one entry past an
array corrupts memory silently; this recompiles every kernel a game uses (several
minutes of CPU on an empty cache), hence it runs only with ``--runslow``.
"""

import hashlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

GAMES = textwrap.dedent("""
    import hashlib
    import numpy as np
    from minestats.mechanics.sampling import sample_mines
    from minestats.players.player import play_games
    from minestats.solvers import solve_batch

    digest = hashlib.sha256()
    for board, rule, click, n in (
            ("9x9/10", "safe-click", (0, 0), 200), ("16x16/40", "safe-opening", (8, 8), 100),
            ("30x16/99", "safe-click", (0, 0), 40), ("8x8/10", "winxp", (0, 0), 150),
            ("5x4/6", "uniform", (0, 0), 200), ("4x4/0", "safe-click", (0, 0), 10),
            ("3x3/8", "safe-click", (0, 0), 10), ("1x6/2", "safe-click", (0, 0), 40)):
        layouts = sample_mines(board, n, rule=rule, click=click,
                               seed=np.random.SeedSequence([5, n]))
        width = layouts.shape[2]
        for solver in ("single-point", "subset", "logic"):
            result = solve_batch(layouts, click, solver=solver)
            digest.update(result.solved.tobytes() + result.lost.tobytes())
        for policy in ("best", "safest"):
            games = play_games(layouts, [click[0] + click[1] * width] * n, policy=policy,
                               seeds=np.random.SeedSequence(9).spawn(n), rule=rule)
            for column in (games.won, games.guesses, games.moves, games.opened):
                digest.update(np.ascontiguousarray(column).tobytes())
    print(digest.hexdigest())
""")


@pytest.mark.slow
def test_games_with_bounds_checks_are_the_same_games(tmp_path):
    root = Path(__file__).resolve().parents[2]
    answers = []
    for checked in (True, False):
        environment = {key: value for key, value in os.environ.items()
                       if key != "NUMBA_BOUNDSCHECK"}
        if checked:  # an empty cache of its own: the usual one holds unchecked kernels
            environment.update(NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path))
        answer = subprocess.run([sys.executable, "-c", GAMES], capture_output=True,
                                text=True, env=environment, cwd=root, timeout=3600)
        assert answer.returncode == 0, answer.stderr[-500:]
        answers.append(answer.stdout.strip())
    assert answers[0] == answers[1]
    assert len(answers[0]) == len(hashlib.sha256().hexdigest())
