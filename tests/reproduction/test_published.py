"""The published tables read back: the committed CSV as it is, its sidecar in ``attrs``.

In this checkout they are read from ``results/``; ``tests/test_packaging.py`` reads
them from an installed wheel.
"""

import json

import pandas as pd
import pytest

import minestats
from minestats.cli import main
from minestats.reproduction import published
from minestats.reproduction.published import load_results, published_names, published_results
from minestats.reproduction.registry import summary_tables

RESULTS = published.published_folder()


def test_in_a_checkout_the_tables_are_read_from_results():
    assert RESULTS == published._PACKAGE.parent / "results"


def test_every_committed_summary_table_is_published_and_nothing_else():
    committed = {table.removesuffix(".csv") for table in summary_tables()
                 if (RESULTS / table).is_file()}
    assert set(published_names()) == committed
    assert {"win_rates", "first_click", "opening_maps/holm"} <= committed


@pytest.mark.parametrize("name", ["win_rates", "opening_maps/holm"])
def test_a_table_is_the_committed_csv_with_its_sidecar_as_attributes(name):
    table = minestats.load_results(name)
    pd.testing.assert_frame_equal(table, pd.read_csv(RESULTS / f"{name}.csv"))
    sidecar = json.loads((RESULTS / f"{name}.csv.json").read_text())
    assert table.attrs == {"name": name, "n": sidecar["n"], "seed": sidecar["seed"],
                           "chunk_size": sidecar["chunk_size"],
                           "commit": sidecar["git_revision"], "command": sidecar["command"]}


def test_the_listing_has_a_row_per_table_as_load_results_reads_it():
    listing = published_results()
    assert list(listing["name"]) == list(published_names())
    for row in listing.to_dict(orient="records"):
        assert row == {"name": row["name"], **load_results(row["name"]).attrs}


@pytest.mark.parametrize("name", ["win_rate", "win_rates.csv", "", "../results/win_rates",
                                  "bbbv_histogram"])
def test_a_bad_name_gets_one_line_naming_it_and_the_known_ones(name):
    with pytest.raises(ValueError) as caught:
        load_results(name)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"unknown results table {name!r}; choose from ")
    assert message.endswith(", ".join(published_names()))


def one_table(folder, sidecar_text):
    (folder / "first_click.csv").write_text("n,successes\n10,3\n")
    (folder / "first_click.csv.json").write_text(sidecar_text)


@pytest.mark.parametrize(("sidecar", "says"), [
    ("not json", "cannot read the sidecar"),
    ("[1, 2]", "lacks every key"),
    (json.dumps({"file": "first_click.csv", "n": 10}), "lacks seed, command"),
    (json.dumps({"file": "bbbv.csv", "n": 10, "seed": 1, "command": "c"}),
     "describes 'bbbv.csv', not 'first_click.csv'"),
])
def test_a_bad_sidecar_is_refused_in_one_line(tmp_path, monkeypatch, sidecar, says):
    monkeypatch.setattr(published, "published_folder", lambda: tmp_path)
    one_table(tmp_path, sidecar)
    with pytest.raises(ValueError, match=says) as caught:
        load_results("first_click")
    assert "\n" not in str(caught.value)


def test_a_table_without_its_sidecar_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(published, "published_folder", lambda: tmp_path)
    (tmp_path / "first_click.csv").write_text("n\n1\n")
    with pytest.raises(ValueError, match="cannot read the sidecar .*first_click.csv.json"):
        load_results("first_click")


def test_results_list_prints_name_n_seed_and_commit(capsys):
    assert main(["results", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{len(published_names())} published tables")
    assert lines[1].split() == ["name", "n", "seed", "commit"]
    first_click = next(line for line in lines if line.split()[0] == "first_click")
    attrs = load_results("first_click").attrs
    assert first_click.split() == ["first_click", f"{attrs['n']:,}", attrs["seed"],
                                   attrs["commit"][:7]]
    exact = next(line for line in lines if line.split()[0] == "opening_ranges")
    assert "nothing sampled" in exact and "none of its own" in exact


def test_results_list_json_is_the_listing(capsys):
    assert main(["results", "list", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert records == published_results().to_dict(orient="records")
