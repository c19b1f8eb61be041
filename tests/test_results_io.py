import json
import shutil
import subprocess
import sys
from datetime import datetime, timedelta

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from minestats.io import results as store


def _metadata(**overrides):
    fields = {"seed": 42, "n": 1000, "chunk_size": 500, "wall_time_s": 1.5,
              "command": "python experiments/demo.py --seed 42"}
    return store.collect_metadata(**{**fields, **overrides})


def _leftovers(folder):
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


class _BrokenFigure:
    """Writes part of a PNG, then fails, like a figure whose rendering raises."""

    def savefig(self, handle, **options):
        handle.write(b"\x89PNG half")
        raise RuntimeError("rendering failed")


def test_csv_round_trip_and_sidecar(tmp_path):
    frame = pd.DataFrame({"board": ["9x9/10"], "mc": [0.2852], "n": [200_000]})
    path = store.write_csv(frame, tmp_path / "sub" / "first_click.csv", metadata=_metadata())
    assert path == tmp_path / "sub" / "first_click.csv"
    pd.testing.assert_frame_equal(pd.read_csv(path), frame)
    sidecar = json.loads((tmp_path / "sub" / "first_click.csv.json").read_text())
    assert sidecar["file"] == "first_click.csv"
    assert (sidecar["seed"], sidecar["n"], sidecar["chunk_size"]) == (42, 1000, 500)
    assert sidecar["wall_time_s"] == 1.5
    assert sidecar["command"] == "python experiments/demo.py --seed 42"
    assert set(sidecar["versions"]) == {"python", *store.PACKAGES}
    assert sidecar["versions"]["numpy"] == np.__version__
    assert sidecar["versions"]["pandas"] == pd.__version__
    stamp = datetime.fromisoformat(sidecar["timestamp_utc"])
    assert stamp.utcoffset() == timedelta(0)
    assert sidecar["git_revision"] == store.git_revision()
    assert _leftovers(tmp_path / "sub") == []


def test_png_and_sidecar(tmp_path):
    figure = Figure(figsize=(2, 2))
    figure.add_subplot().plot([0, 1], [1, 0])
    path = store.write_png(figure, tmp_path / "map.png", metadata=_metadata(seed="42/3"))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    sidecar = json.loads(store.sidecar_path(path).read_text())
    assert (sidecar["file"], sidecar["seed"]) == ("map.png", "42/3")


def test_failed_csv_write_keeps_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = store.write_csv(pd.DataFrame({"a": [1]}), tmp_path / "t.csv", metadata=_metadata())
    old_csv, old_sidecar = path.read_bytes(), store.sidecar_path(path).read_bytes()

    def failing_to_csv(self, handle, **options):
        handle.write("a\n2\n")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", failing_to_csv)
    with pytest.raises(OSError, match="disk full"):
        store.write_csv(pd.DataFrame({"a": [2]}), path, metadata=_metadata(seed=7))
    assert path.read_bytes() == old_csv
    assert store.sidecar_path(path).read_bytes() == old_sidecar
    assert _leftovers(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv", "t.csv.json"]


def test_failed_png_write_keeps_old_file_and_leaves_no_temporary(tmp_path):
    path = store.write_png(Figure(figsize=(1, 1)), tmp_path / "f.png", metadata=_metadata())
    old = path.read_bytes()
    with pytest.raises(RuntimeError, match="rendering failed"):
        store.write_png(_BrokenFigure(), path, metadata=_metadata())
    assert path.read_bytes() == old
    assert _leftovers(tmp_path) == []


def test_failed_first_write_creates_nothing(tmp_path):
    with pytest.raises(RuntimeError):
        store.write_png(_BrokenFigure(), tmp_path / "new.png", metadata=_metadata())
    assert list(tmp_path.iterdir()) == []


def test_unserialisable_metadata_leaves_old_sidecar(tmp_path):
    path = store.write_json(tmp_path / "m.json", {"n": np.int64(5), "p": np.float64(0.5),
                                                  "grid": np.arange(3)})
    assert json.loads(path.read_text()) == {"n": 5, "p": 0.5, "grid": [0, 1, 2]}
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        store.write_json(path, {"bad": object()})
    with pytest.raises(ValueError):
        store.write_json(path, {"nan": float("nan")})
    assert json.loads(path.read_text())["n"] == 5
    assert _leftovers(tmp_path) == []


def test_unserialisable_metadata_writes_neither_file(tmp_path):
    csv = store.write_csv(pd.DataFrame({"a": [1]}), tmp_path / "t.csv", metadata=_metadata())
    png = store.write_png(Figure(figsize=(1, 1)), tmp_path / "f.png", metadata=_metadata())
    files = {path: path.read_bytes() for path in tmp_path.iterdir()}
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        store.write_csv(pd.DataFrame({"a": [2]}), csv, metadata={"bad": object()})
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        store.write_png(Figure(figsize=(2, 2)), png, metadata={"bad": object()})
    assert {path: path.read_bytes() for path in tmp_path.iterdir()} == files


@pytest.mark.parametrize(("writer", "name"), [("write_csv", "t.png"), ("write_png", "t.csv")])
def test_wrong_suffix_is_rejected(tmp_path, writer, name):
    with pytest.raises(ValueError, match=name):
        getattr(store, writer)(pd.DataFrame(), tmp_path / name, metadata=_metadata())
    assert list(tmp_path.iterdir()) == []


def test_metadata_validation():
    with pytest.raises(ValueError, match="wall_time_s"):
        _metadata(wall_time_s=-1)
    with pytest.raises(ValueError, match="wall_time_s"):
        _metadata(wall_time_s="soon")
    with pytest.raises(ValueError, match="seed"):
        _metadata(extra={"seed": 1})
    assert _metadata(extra={"confidence_level": 0.95})["confidence_level"] == 0.95


def test_default_command_is_argv(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["first_click.py", "--out", "my results"])
    monkeypatch.setattr(sys, "executable", "/opt/venv/bin/python3")
    assert _metadata(command=None)["command"] == "python3 first_click.py --out 'my results'"


def _git(folder, *arguments):
    subprocess.run(["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t",
                    *arguments], check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_revision_clean_dirty_and_outside(tmp_path):
    revision = store.git_revision.__wrapped__  # uncached: the tree changes below
    outside = tmp_path / "outside"
    outside.mkdir()
    assert revision(outside) is None
    repository = tmp_path / "repository"
    repository.mkdir()
    _git(repository, "init", "-q")
    assert revision(repository) is None  # no commit yet
    (repository / "a.txt").write_text("1")
    (repository / "results").mkdir()
    (repository / "results" / "table.csv").write_text("x\n1\n")
    _git(repository, "add", "a.txt", "results/table.csv")
    _git(repository, "commit", "-q", "-m", "first")
    sha = subprocess.run(["git", "-C", str(repository), "rev-parse", "HEAD"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert revision(repository) == sha
    (repository / "untracked.txt").write_text("ignored, as by git describe --dirty")
    assert revision(repository) == sha
    (repository / "results" / "table.csv").write_text("x\n2\n")  # an output, not an input
    assert revision(repository / "results") == sha
    (repository / "a.txt").write_text("2")
    assert revision(repository) == f"{sha}-dirty"


def test_git_revision_without_git_never_raises(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert store.git_revision.__wrapped__(tmp_path) is None
    assert store.git_revision.__wrapped__(tmp_path / "missing") is None


def test_results_index_lists_every_file_with_a_sidecar_under_its_script(tmp_path):
    from minestats.io.index import write_results_index

    scripts = tmp_path / "experiments"
    scripts.mkdir()
    (scripts / "rates.py").write_text('"""Win rates of every policy.\n\nMore."""\n')
    out = tmp_path / "results"
    (out / "maps").mkdir(parents=True)
    for name, n in (("rates.csv", {"small": 10, "big": 2000}), ("maps/a.png", 5)):
        (out / name).write_text("x")
        (out / f"{name}.json").write_text(json.dumps(
            {"n": n, "seed": 42, "command": "python experiments/rates.py --seed 42"}))
    (out / "orphan.csv.json").write_text("{}")  # a sidecar without its file is skipped
    (out / "broken.csv").write_text("x")
    (out / "broken.csv.json").write_text("{not json")
    text = write_results_index(out, repository=tmp_path).read_text()
    assert "## Win rates of every policy." in text and "`experiments/rates.py`" in text
    assert ("- [rates.csv](rates.csv): n small: 10; big: 2,000, seed 42; "
            "`python experiments/rates.py --seed 42`") in text
    assert "- [maps/a.png](maps/a.png): n 5, seed 42;" in text
    assert "orphan" not in text and "broken" not in text
