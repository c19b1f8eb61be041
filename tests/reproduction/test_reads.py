"""How often each seed stream was read, from the git history of a results folder."""

import json
import shutil
import subprocess

import pytest

from minestats.reproduction.index import results_index
from minestats.reproduction.reads import reads_section, stream_reads

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repository, *arguments):
    subprocess.run(["git", "-C", str(repository), "-c", "user.name=test", "-c",
                    "user.email=test@example.org", *arguments], check=True,
                   capture_output=True)


def sidecar(path, **fields):
    path.write_text(json.dumps({"command": "python -m minestats.experiments.rates",
                                **fields}))


@pytest.fixture
def repository(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "results").mkdir()
    return tmp_path


def commit(repository, message):
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", message)


def test_each_commit_whose_code_wrote_a_stream_counts_once(repository):
    results = repository / "results"
    sidecar(results / "rates.csv.json", seed="42/3", git_revision="aaaaaaa111",
            timestamp_utc="2026-01-01")
    sidecar(results / "exact.csv.json", seed=None, git_revision="aaaaaaa111")
    commit(repository, "first run")
    # the same run committed again (a new time stamp, the same code) is not a new read
    sidecar(results / "rates.csv.json", seed="42/3", git_revision="aaaaaaa111",
            timestamp_utc="2026-01-02")
    commit(repository, "the same run again")
    # a second table of the stream, by other code, from a dirty tree
    (results / "maps").mkdir()
    sidecar(results / "maps" / "holm.csv.json", seed="42/3", git_revision="bbbbbbb222-dirty",
            timestamp_utc="2026-01-03")
    sidecar(results / "rates.csv.json", seed="42/4", git_revision="bbbbbbb222",
            timestamp_utc="2026-01-03")
    commit(repository, "second code")
    # a run not yet committed counts too; a sidecar that is not JSON is passed over
    sidecar(results / "rates.csv.json", seed="42/4", git_revision="ccccccc333",
            timestamp_utc="2026-01-04")
    (results / "broken.csv.json").write_text("{not json")
    reads = {read["stream"]: read for read in stream_reads(results)}
    assert set(reads) == {"42/3", "42/4"}
    assert reads["42/3"]["reads"] == 2
    assert reads["42/3"]["revisions"] == ["aaaaaaa", "bbbbbbb"]
    assert reads["42/3"]["tables"] == ["maps/holm.csv", "rates.csv"]
    assert reads["42/4"]["revisions"] == ["bbbbbbb", "ccccccc"]
    section = reads_section(results)
    # no table beside its sidecar: no result to count
    assert "| 42/3 | 2 | - | aaaaaaa, bbbbbbb | maps/holm.csv, rates.csv |" in section
    assert section in results_index(results) and results_index(results).endswith(section)


def test_outside_a_checkout_the_index_has_no_reads(tmp_path):
    sidecar(tmp_path / "rates.csv.json", seed="42/3", git_revision="aaaaaaa111")
    assert reads_section(tmp_path) == ""
    assert "seed stream was read" not in results_index(tmp_path)
    # the sidecars here still count when asked directly
    assert stream_reads(tmp_path)[0]["reads"] == 1


def test_a_folder_outside_the_repository_asked_about_reads_only_its_own_files(repository,
                                                                              tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    sidecar(repository / "results" / "rates.csv.json", seed="42/3", git_revision="aaaaaaa111")
    commit(repository, "a run")
    sidecar(elsewhere / "other.csv.json", seed="42/9", git_revision="ddddddd444")
    reads = stream_reads(elsewhere, repository=repository)
    assert [read["stream"] for read in reads] == ["42/9"]


def test_a_read_that_reproduced_every_number_is_no_new_result(repository):
    results = repository / "results"

    def run(revision, successes, seconds, stamp):
        (results / "rates.csv").write_text(
            "n,successes,win_rate,seconds_per_game,games_per_second\n"
            f"100,{successes},{successes / 100},{seconds},{1 / seconds}\n")
        sidecar(results / "rates.csv.json", seed="42/3", git_revision=revision,
                timestamp_utc=stamp)

    run("aaaaaaa111", 41, 0.25, "2026-01-01")
    commit(repository, "first run")
    # other code, the same games: only the timing columns differ
    run("bbbbbbb222", 41, 0.5, "2026-01-02")
    commit(repository, "the same games by faster code")
    assert [(read["reads"], read["results"]) for read in stream_reads(results)] == [(2, 1)]
    # a float that differs only past 9 significant digits is the same number
    (results / "rates.csv").write_text("n,successes,win_rate,seconds_per_game\n"
                                       "100,41,0.4100000000001,0.75\n")
    assert stream_reads(results)[0]["results"] == 1
    # a read that saw other numbers, committed or not yet, is a new result
    run("ccccccc333", 42, 0.5, "2026-01-03")
    assert [(read["reads"], read["results"]) for read in stream_reads(results)] == [(3, 2)]
    commit(repository, "other games")
    assert "| 42/3 | 3 | 2 | aaaaaaa, bbbbbbb, ccccccc | rates.csv |" in reads_section(results)
