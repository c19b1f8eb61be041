import json
import shutil
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from minestats.io import result_files as store


def _metadata(**overrides):
    fields = {"seed": 42, "n": 1000, "chunk_size": 500, "wall_time_s": 1.5,
              "command": "python experiments/demo.py --seed 42"}
    return store.collect_metadata(**{**fields, **overrides})


def _leftovers(folder):
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


class _BrokenFigure:
    """Writes part of an image, then fails, like a figure whose rendering raises.

    With ``fail_on="pdf"`` the PNG renders and the PDF twin fails.
    """

    def __init__(self, fail_on="png"):
        self.fail_on = fail_on

    def savefig(self, handle, **options):
        if options["format"] != self.fail_on:
            return Figure(figsize=(1, 1)).savefig(handle, **options)
        handle.write(b"half an image")
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


def test_figure_png_and_pdf_twin_each_with_sidecar(tmp_path):
    figure = Figure(figsize=(2, 2))
    figure.add_subplot().plot([0, 1], [1, 0])
    png, pdf = store.write_figure(figure, tmp_path / "map.png", metadata=_metadata(seed="42/3"))
    assert (png, pdf) == (tmp_path / "map.png", tmp_path / "map.pdf")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pdf.read_bytes()[:5] == b"%PDF-"
    sidecar = json.loads(store.sidecar_path(png).read_text())
    assert (sidecar["file"], sidecar["seed"]) == ("map.png", "42/3") and "twin_of" not in sidecar
    twin = json.loads(store.sidecar_path(pdf).read_text())
    assert (twin["file"], twin["twin_of"], twin["seed"]) == ("map.pdf", "map.png", "42/3")
    # reproducible: no creation date, so an unchanged figure gives an unchanged PDF
    first = pdf.read_bytes()
    store.write_figure(figure, png, metadata=_metadata(seed="42/3"))
    assert pdf.read_bytes() == first
    assert _leftovers(tmp_path) == []


def test_summary_table_twins_with_sidecars(tmp_path):
    frame = pd.DataFrame({"rule": ["safe_click", "100% & more"], "win_rate": [0.5, 0.25],
                          "ci_low": [0.45, 0.2], "ci_high": [0.55, 0.3], "n": [1000, 20000]})
    path = store.write_csv(frame, tmp_path / "rates.csv", metadata=_metadata(), summary=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "rates.csv", "rates.csv.json", "rates.md", "rates.md.json", "rates.tex", "rates.tex.json"]
    pd.testing.assert_frame_equal(pd.read_csv(path), frame)
    tex = (tmp_path / "rates.tex").read_text()
    assert r"safe\_click" in tex and r"100\% \& more" in tex and r"20,000" in tex
    assert (tmp_path / "rates.md").read_text().splitlines()[2] == (
        "| safe_click | 0.5000 [0.4500, 0.5500] | 1,000 |")
    for twin in ("rates.tex", "rates.md"):
        meta = json.loads((tmp_path / f"{twin}.json").read_text())
        assert (meta["file"], meta["twin_of"], meta["seed"]) == (twin, "rates.csv", 42)
    # without summary=True only the CSV is written
    store.write_csv(frame, tmp_path / "raw.csv", metadata=_metadata())
    assert not (tmp_path / "raw.tex").exists() and not (tmp_path / "raw.md").exists()


def test_failed_csv_write_keeps_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = store.write_csv(pd.DataFrame({"a": [1]}), tmp_path / "t.csv", metadata=_metadata())
    old_csv, old_sidecar = path.read_bytes(), store.sidecar_path(path).read_bytes()

    def failing_to_csv(self, *arguments, **options):
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", failing_to_csv)
    with pytest.raises(OSError, match="disk full"):
        store.write_csv(pd.DataFrame({"a": [2]}), path, metadata=_metadata(seed=7))
    assert path.read_bytes() == old_csv
    assert store.sidecar_path(path).read_bytes() == old_sidecar
    assert _leftovers(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv", "t.csv.json"]


@pytest.mark.parametrize("fail_on", ["png", "pdf"])
def test_failed_figure_write_keeps_old_pair_and_leaves_no_temporary(tmp_path, fail_on):
    store.write_figure(Figure(figsize=(1, 1)), tmp_path / "f.png", metadata=_metadata())
    old = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert len(old) == 4
    with pytest.raises(RuntimeError, match="rendering failed"):
        store.write_figure(_BrokenFigure(fail_on), tmp_path / "f.png", metadata=_metadata(seed=7))
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == old


@pytest.mark.parametrize("fail_on", ["png", "pdf"])
def test_failed_first_write_creates_nothing(tmp_path, fail_on):
    with pytest.raises(RuntimeError):
        store.write_figure(_BrokenFigure(fail_on), tmp_path / "new.png", metadata=_metadata())
    assert list(tmp_path.iterdir()) == []


def test_failure_while_staging_a_pair_replaces_nothing(tmp_path, monkeypatch):
    """A disk error on the third of six files leaves the old six and no temporary."""
    frame = pd.DataFrame({"a": [1]})
    store.write_csv(frame, tmp_path / "t.csv", metadata=_metadata(), summary=True)
    old = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    real_fdopen, calls = store.os.fdopen, []

    def failing_fdopen(descriptor, *arguments, **options):
        calls.append(descriptor)
        if len(calls) == 3:
            store.os.close(descriptor)
            raise OSError("disk full")
        return real_fdopen(descriptor, *arguments, **options)

    monkeypatch.setattr(store.os, "fdopen", failing_fdopen)
    with pytest.raises(OSError, match="disk full"):
        store.write_csv(pd.DataFrame({"a": [2]}), tmp_path / "t.csv", metadata=_metadata(),
                        summary=True)
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == old


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
    png, _ = store.write_figure(Figure(figsize=(1, 1)), tmp_path / "f.png", metadata=_metadata())
    files = {path: path.read_bytes() for path in tmp_path.iterdir()}
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        store.write_csv(pd.DataFrame({"a": [2]}), csv, metadata={"bad": object()})
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        store.write_figure(Figure(figsize=(2, 2)), png, metadata={"bad": object()})
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        store.write_csv(pd.DataFrame({"a": [2]}), csv, metadata={"bad": object()}, summary=True)
    assert {path: path.read_bytes() for path in tmp_path.iterdir()} == files


def test_an_encoded_result_and_its_twins_are_written_together_or_not_at_all(tmp_path):
    page = store.write_with_sidecar(tmp_path / "p.html", b"<p>", metadata=_metadata(),
                                    twins={tmp_path / "p.ipynb": b"{}"})
    twin = json.loads((tmp_path / "p.ipynb.json").read_text())
    assert twin["twin_of"] == "p.html" and "twin_of" not in json.loads(
        (tmp_path / "p.html.json").read_text())
    files = {path: path.read_bytes() for path in tmp_path.iterdir()}
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        store.write_with_sidecar(page, b"<q>", metadata={"bad": object()},
                                 twins={tmp_path / "p.ipynb": b"[]"})
    with pytest.raises(ValueError, match="same path"):
        store.write_with_sidecar(page, b"<q>", metadata=_metadata(), twins={page: b"<r>"})
    assert {path: path.read_bytes() for path in tmp_path.iterdir()} == files


@pytest.mark.parametrize(("writer", "name"), [("write_csv", "t.png"), ("write_figure", "t.csv"),
                                                   ("write_figure", "t.pdf")])
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


PINNED = """
import subprocess
real_run = subprocess.run

def git_at(sha):
    def run(arguments, **options):
        if arguments[:1] != ["git"]:
            return real_run(arguments, **options)
        return subprocess.CompletedProcess(arguments, 0, sha if "rev-parse" in arguments
                                           else "", "")
    return run

subprocess.run = git_at("a" * 40)  # the tree when the run starts
from minestats.io.result_files import collect_metadata
subprocess.run = git_at("b" * 40)  # a commit made while the run computes
print(collect_metadata(seed=1, n=1, chunk_size=1, wall_time_s=0.0)["git_revision"])
"""


def test_sidecars_record_the_revision_the_run_started_at_not_the_one_at_writing():
    run = subprocess.run([sys.executable, "-c", PINNED], capture_output=True, text=True,
                         timeout=120, cwd=Path(store.__file__).parents[2], check=True)
    assert run.stdout.strip() == "a" * 40


def test_git_revision_without_git_never_raises(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert store.git_revision.__wrapped__(tmp_path) is None
    assert store.git_revision.__wrapped__(tmp_path / "missing") is None


def test_results_index_lists_every_file_with_a_sidecar_under_its_script(tmp_path):
    from minestats.reproduction.index import write_results_index

    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "rates.py").write_text('"""Win rates of every policy.\n\nMore."""\n')
    out = tmp_path / "results"
    (out / "maps").mkdir(parents=True)
    for name, n in (("rates.csv", {"small": 10, "big": 2000}), ("maps/a.png", 5)):
        (out / name).write_text("x")
        (out / f"{name}.json").write_text(json.dumps(
            {"n": n, "seed": 42, "command": "python scripts/rates.py --seed 42"}))
    (out / "orphan.csv.json").write_text("{}")  # a sidecar without its file is skipped
    (out / "broken.csv").write_text("x")
    (out / "broken.csv.json").write_text("{not json")
    text = write_results_index(out, repository=tmp_path).read_text()
    assert "## Win rates of every policy." in text and "`scripts/rates.py`" in text
    assert ("- [rates.csv](rates.csv): n small: 10; big: 2,000, seed 42; "
            "`python scripts/rates.py --seed 42`") in text
    assert "- [maps/a.png](maps/a.png): n 5, seed 42;" in text
    assert "orphan" not in text and "broken" not in text


def test_results_index_lists_twins_on_their_file_line(tmp_path):
    from minestats.reproduction.index import check_results, write_results_index

    out = tmp_path / "results"
    meta = _metadata(command="python experiments/rates.py --seed 42")
    store.write_csv(pd.DataFrame({"a": [1]}), out / "rates.csv", metadata=meta, summary=True)
    store.write_csv(pd.DataFrame({"a": [1]}), out / "raw.csv", metadata=meta)
    store.write_figure(Figure(figsize=(1, 1)), out / "maps" / "a.png", metadata=meta)
    assert check_results(out, summary_tables=("rates.csv",)) == ["README.md is missing"]
    lines = write_results_index(out, repository=tmp_path).read_text().splitlines()
    listed = [line for line in lines if line.startswith("- ")]
    assert len(listed) == 3  # each result once, its twins on its line
    assert listed[0].startswith("- [maps/a.png](maps/a.png) ([pdf](maps/a.pdf)): n 1,000,")
    revision = meta["git_revision"]  # the commit whose code wrote it, -dirty kept
    short = f"{revision[:7]}-dirty" if revision.endswith("-dirty") else revision[:7]
    assert listed[1].startswith(
        "- [rates.csv](rates.csv) ([md](rates.md), [tex](rates.tex)): n 1,000, seed 42, "
        f"git {short};")
    assert listed[2].startswith("- [raw.csv](raw.csv): n 1,000")
    assert check_results(out, summary_tables=("rates.csv",)) == []
    # the rules: a PNG without its PDF, a summary table without its twins, an unlisted file
    (out / "maps" / "a.pdf").unlink()
    (out / "late.csv").write_text("a\n1\n")
    (out / "late.csv.json").write_text("{}")
    assert check_results(out, summary_tables=("rates.csv", "raw.csv", "gone.csv")) == [
        "gone.csv is missing", "maps/a.png has no a.pdf", "raw.csv has no raw.tex",
        "raw.csv has no raw.md", "README.md does not link late.csv"]


RESULTS = Path(__file__).resolve().parents[2] / "results"


@pytest.mark.skipif(not RESULTS.is_dir(), reason="no results/ folder in this checkout")
def test_committed_results_have_every_twin_and_are_indexed():
    """Every PNG has its PDF, every summary table its .tex and .md, the index lists all,
    and every notebook has its rendered page and its executed twin."""
    from minestats.reproduction.index import check_results
    from minestats.reproduction.registry import summary_tables

    # every experiment's summary tables by default; an absent one fails: "NAME is missing"
    assert len(summary_tables()) > 20
    assert check_results(RESULTS) == check_results(RESULTS, summary_tables=summary_tables())
    assert check_results(RESULTS) == []
    notebooks = sorted(path.stem for path in (RESULTS.parent / "notebooks").glob("*.ipynb"))
    assert sorted(path.stem for path in (RESULTS / "notebooks").glob("*.html")) == notebooks
    assert sorted(path.stem for path in (RESULTS / "notebooks").glob("*.ipynb")) == notebooks


def test_summary_columns_choose_what_the_twins_print(tmp_path):
    frame = pd.DataFrame({"board": ["9x9/10"], "rate": [0.5], "ci_low": [0.4],
                          "ci_high": [0.6], "b3": [1.25]})
    meta = _metadata()
    path = store.write_csv(frame, tmp_path / "t.csv", metadata=meta,
                           summary=["board", "rate", "ci_low", "ci_high"])
    assert "b3" in path.read_text() and "b3" not in path.with_suffix(".tex").read_text()
    assert "0.5000 [0.4000, 0.6000]" in path.with_suffix(".md").read_text()
    with pytest.raises(ValueError, match=r"summary columns \['width'\] are not columns"):
        store.write_csv(frame, tmp_path / "u.csv", metadata=meta, summary=["board", "width"])
    assert sorted(file.name for file in tmp_path.iterdir() if file.name.startswith("u")) == []
