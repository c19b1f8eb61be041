import hashlib
import json

import numpy as np
import pytest

from minestats.cli import main
from minestats.drivers.no_guess import generate_no_guess
from minestats.drivers.pass_rates import pass_rate
from minestats.foundations.seeds import (
    as_generator,
    as_seed_sequence,
    child_label,
    resolve_seed,
    seed_from_text,
    seed_label,
)


def test_every_kind_of_seed_resolves():
    assert as_seed_sequence(42).entropy == 42
    assert as_seed_sequence(np.int64(42)).entropy == 42
    digest = hashlib.sha256(b"2026-11-29").hexdigest()
    assert as_seed_sequence("2026-11-29").entropy == int(digest, 16)
    child = np.random.SeedSequence(7, spawn_key=(2,))
    assert as_seed_sequence(child) is child
    # a seeded Generator gives the same sequence twice
    assert (as_seed_sequence(np.random.default_rng(3)).entropy
            == as_seed_sequence(np.random.default_rng(3)).entropy)
    for bad in (-1, "", 2.5, True):
        with pytest.raises(ValueError, match="must be a non-negative integer, a non-empty"):
            as_seed_sequence(bad)


def test_labels_record_what_reruns_the_run():
    assert resolve_seed(7)[1] == 7
    assert resolve_seed("2026-11-29")[1] == "2026-11-29"
    assert resolve_seed(np.random.SeedSequence(7, spawn_key=(2, 1)))[1] == "7/2/1"
    fresh, label = resolve_seed(None)
    assert isinstance(label, int) and label == fresh.entropy
    assert resolve_seed(label)[0].generate_state(4).tolist() == fresh.generate_state(4).tolist()
    assert seed_label(np.random.SeedSequence(5)) == 5
    assert child_label("x", 3) == "x/3"


def test_as_generator_keeps_a_stream_and_matches_default_rng():
    assert as_generator(11).random() == np.random.default_rng(11).random()
    stream = np.random.default_rng(1)
    assert as_generator(stream) is stream


def test_seed_from_text_reads_digits_as_int():
    assert seed_from_text("42") == 42
    assert seed_from_text(" 0042 ") == 42
    assert seed_from_text("2026-11-29") == "2026-11-29"
    for signed in ("-3", "+3"):
        with pytest.raises(ValueError, match="must be a non-negative integer or a string"):
            seed_from_text(signed)
    with pytest.raises(ValueError, match="empty"):
        seed_from_text(" ")


def test_pass_rate_takes_a_string_seed_and_records_it():
    result = pass_rate("beginner", solver="single-point", n=300, seed="2026-11-29", workers=1)
    same = pass_rate("beginner", solver="single-point", n=300,
                     seed=as_seed_sequence("2026-11-29"), workers=1)
    assert result.seed == "2026-11-29"
    assert result.successes == same.successes


def test_unseeded_run_reports_a_seed_that_reruns_it():
    first = pass_rate("beginner", solver="single-point", n=200, workers=1)
    again = pass_rate("beginner", solver="single-point", n=200, seed=first.seed, workers=1)
    assert isinstance(first.seed, int) and again.successes == first.successes


def test_cli_generate_gives_the_api_board_for_an_integer_seed(tmp_path, capsys):
    out = tmp_path / "board.txt"
    assert main(["generate", "--board", "9x9/10", "--seed", "42", "--out", str(out)]) == 0
    api = generate_no_guess("9x9/10", "centre", seed=42)
    rows = out.read_text().split()
    assert np.array_equal(np.array([[c == "*" for c in row] for row in rows]), api.layout)
    assert "seed 42:" in capsys.readouterr().err


def test_cli_pass_rate_gives_the_api_numbers_for_int_and_string_seeds(capsys):
    for seed in ("3", "2026-11-29"):
        assert main(["pass-rate", "--board", "beginner", "--solver", "single-point", "-n",
                     "400", "--seed", seed, "--workers", "1", "--quiet", "--json"]) == 0
        [row] = json.loads(capsys.readouterr().out)
        api = pass_rate("beginner", solver="single-point", n=400, seed=seed_from_text(seed),
                        workers=1)
        assert row["successes"] == api.successes and row["seed"] == api.seed


def test_cli_refuses_a_negative_seed(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["pass-rate", "--board", "beginner", "--solver", "subset", "-n", "10",
              "--seed=-3"])
    assert exit.value.code == 2
    assert "seed (-3) must be a non-negative integer" in capsys.readouterr().err


def test_a_recorded_child_label_repeats_the_child_stream():
    root = np.random.SeedSequence(42)
    child = root.spawn(3)[2]
    grandchild = child.spawn(5)[4]
    for sequence in (child, grandchild):
        label = seed_label(sequence)
        again = as_seed_sequence(label)
        assert resolve_seed(label)[1] == label
        assert np.array_equal(np.random.default_rng(again).integers(2**62, size=4),
                              np.random.default_rng(sequence).integers(2**62, size=4))
    named_child = as_seed_sequence("2026-11-29").spawn(2)[1]
    assert as_seed_sequence("2026-11-29/1").entropy == named_child.entropy
    assert as_seed_sequence(seed_label(named_child)).spawn_key == (1,)


def test_text_that_is_not_a_child_label_is_hashed_whole():
    for text in ("runs/a", "/3", "a/3x", "42/"):
        assert as_seed_sequence(text).spawn_key == ()
        assert as_seed_sequence(text).entropy == as_seed_sequence(text).entropy
    assert as_seed_sequence("runs/a").entropy != as_seed_sequence("runs").entropy


def test_digit_strings_and_generator_seeds_give_labels_that_repeat_them():
    assert as_seed_sequence("42").entropy == 42
    rows = np.random.SeedSequence(42).spawn(2)
    assert as_seed_sequence("42/1").spawn_key == rows[1].spawn_key  # "42" and 42 agree
    sequence, label = resolve_seed(np.random.default_rng(5))
    assert isinstance(label, int) and label > 2**62
    child = sequence.spawn(3)[2]
    again = as_seed_sequence(seed_label(child))
    assert np.array_equal(np.random.default_rng(again).integers(2**62, size=3),
                          np.random.default_rng(child).integers(2**62, size=3))


def test_a_list_entropy_label_is_refused_rather_than_hashed():
    label = seed_label(np.random.SeedSequence([1, 2], spawn_key=(3,)))
    with pytest.raises(ValueError, match="list entropy"):
        as_seed_sequence(label)
