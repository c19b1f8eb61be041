"""The drivers' shared parameters are documented once, and every driver shows them alike."""

import inspect

import pytest

import minestats
from minestats.drivers.comparisons import compare_clicks
from minestats.foundations.docstrings import SHARED_PARAMETERS, shared_parameters

DRIVERS = [getattr(minestats, name) for name in (
    "simulate_opening", "pass_rate", "bbbv_histogram", "win_rate", "compare",
    "generate_no_guess_batch")] + [compare_clicks]


@pytest.mark.parametrize("driver", DRIVERS, ids=lambda driver: driver.__name__)
def test_every_driver_documents_workers_store_and_progress_in_the_shared_words(driver):
    doc = inspect.getdoc(driver)
    assert "%(" not in doc
    for parameter in ("workers", "store", "progress"):
        assert SHARED_PARAMETERS[parameter] in doc, parameter


@pytest.mark.parametrize("name", ["simulate_opening", "pass_rate", "bbbv_histogram",
                                  "win_rate", "generate_no_guess_batch"])
def test_the_chunk_size_paragraph_shows_the_drivers_own_default(name):
    driver = getattr(minestats, name)
    default = inspect.signature(driver).parameters["chunk_size"].default
    doc = inspect.getdoc(driver)
    assert f"per chunk, the unit of resumption and of parallel work (default {default:,})" \
        in doc
    assert SHARED_PARAMETERS["seed"] in doc


def test_a_placeholder_that_names_no_shared_parameter_fails_at_once():
    def run():
        """Run.

        %(seed)s
        %(sed)s
        """

    with pytest.raises(KeyError, match="sed"):
        shared_parameters(trials="Boards")(run)
