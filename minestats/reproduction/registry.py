"""The experiments of `minestats.experiments`, each once: seed stream, full sizes, summary tables.

Adding an experiment is a module ``minestats/experiments/NAME.py`` and one
`Experiment` in `EXPERIMENTS`: `minestats reproduce` runs them in this order
(``--full`` with their `Experiment.full_arguments`), the modules draw from their
`Experiment.stream` (`minestats.experiments.common`), and the results index checks
their `Experiment.summary_tables`. The module imports nothing,
so the command's parser lists the names without loading the library.
"""

from __future__ import annotations

from dataclasses import dataclass

from minestats.foundations.validation import quoted

__all__ = ["EXPERIMENTS", "PACKAGE", "Experiment", "experiment", "summary_tables"]

PACKAGE = "minestats.experiments"
"""The package of the experiments: experiment ``NAME`` is its module ``NAME``."""


@dataclass(frozen=True)
class Experiment:
    """One experiment, ``python -m minestats.experiments.NAME``, and what the repository keeps.

    Parameters
    ----------
    name : str
        Its module's name in `PACKAGE`, as in ``minestats reproduce --only NAME``.
    stream : int
        The child of the root seed the script draws from (seed ``"ROOT/stream"``), its
        own, so two experiments never draw the same boards.
    full_arguments : tuple of str
        The script's arguments at paper-grade sizes (``minestats reproduce --full``).
        A ``--store`` path is taken as a file name and put in the output folder.
    summary_tables : tuple of str
        The tables it writes that a write-up prints (paths relative to the results
        folder): each is written with its LaTeX and Markdown twins.

    Examples
    --------
    >>> first = experiment("first_click")
    >>> first.stream, first.full_arguments, first.summary_tables
    (1, ('--n', '2000000'), ('first_click.csv',))
    >>> first.module
    'minestats.experiments.first_click'
    """

    name: str
    stream: int
    full_arguments: tuple[str, ...] = ()
    summary_tables: tuple[str, ...] = ()

    @property
    def module(self) -> str:
        """The module that runs it: ``python -m`` this."""
        return f"{PACKAGE}.{self.name}"


EXPERIMENTS = (
    Experiment("first_click", 1, ("--n", "2000000"), ("first_click.csv",)),
    Experiment("opening_maps", 2, ("--n", "10000000", "--n-safe-opening", "200000"),
               ("opening_maps/holm.csv", "opening_ranges.csv")),
    Experiment("solver_pass_rates", 3,
               ("--n", "500000", "--n-single-point", "2000000", "--n-paired", "200000"),
               ("solver_pass_rates.csv", "solver_pass_rates_paired.csv",
                "solver_pass_rates_published.csv")),
    Experiment("pass_rate_by_density", 4, ("--n", "100000", "--n-single-point", "500000")),
    Experiment("pass_rate_fits", 5, (), ("pass_rate_fits.csv",)),  # fits the table above
    Experiment("pass_rate_by_click", 6, ("--n", "20000", "--n-intermediate", "5000"),
               ("pass_rate_by_click_classes.csv",)),
    Experiment("bbbv", 7, ("--n", "5000000"),
               ("bbbv_expert_at_most_130.csv", "bbbv_summary.csv")),
    Experiment("no_guess_generation", 8, ("--n", "5000", "--n-dense-retry", "200"),
               ("no_guess_generation.csv",)),
    Experiment("no_guess_bias", 9,
               ("--n", "20000", "--n-dense-reference", "2000", "--permutations", "9999"),
               ("no_guess_bias.csv", "no_guess_bias_effects.csv")),
    Experiment("win_rates", 10,
               ("--n-small", "100000", "--n-intermediate", "100000", "--n-expert", "100000",
                "--n-paper", "1000000", "--n-paper-opening", "1000000",
                "--chunk-size", "250", "--store", "results/win_rates.sqlite"),
               ("loss_analysis.csv", "win_rates.csv")),
    Experiment("win_rates_published", 17, (), ("win_rates_published.csv",)),  # reads the above
    Experiment("win_rates_replication", 18,
               ("--n", "1000000", "--chunk-size", "250", "--store",
                "results/win_rates_replication.sqlite"),
               ("win_rates_replication.csv", "win_rates_replication_agreement.csv")),
    Experiment("win_rates_paired", 16,
               ("--n-small", "100000", "--n-intermediate", "100000", "--n-expert", "100000",
                "--chunk-size", "250", "--store", "results/win_rates_paired.sqlite"),
               ("win_rates_paired.csv",)),
    Experiment("win_rate_by_click", 11,
               ("--n-orbit", "uniform", "2000", "1500",
                "--n-orbit", "safe-click", "21000", "33000",
                "--n-orbit", "safe-opening", "8000", "20000",
                "--n-rule", "winxp", "5000", "2000", "--n-expert", "8000",
                "--n-winxp-expert", "2000", "--n-paired", "8000", "8000", "3000",
                "--chunk-size", "250", "--store", "results/win_rate_by_click.sqlite"),
               ("win_rate_by_click_classes.csv", "win_rate_by_click_expert.csv",
                "win_rate_by_click_paired.csv")),
    Experiment("win_rate_by_density", 12, ("--n", "20000")),
    Experiment("optimal_play", 13,
               ("--n", "100000", "--boards", "4x4/2", "4x4/4", "4x4/6", "5x3/4", "4x5/5",
                "5x4/6", "--store", "results/optimal_play.sqlite"),
               ("optimal_play.csv",)),
    Experiment("policy_ablation", 14, ("--n", "100000", "--store",
                                       "results/policy_ablation.sqlite"),
               ("policy_ablation.csv",)),
    Experiment("winxp_player", 15, ("--n", "100000", "--store", "results/winxp_player.sqlite"),
               ("winxp_player.csv",)),
    Experiment("winxp_probabilities", 21, ("--n", "500"), ("winxp_probabilities.csv",)),
    Experiment("opening_book", 20, ("--n", "40000", "--chunk-size", "250", "--store",
                                    "results/opening_book.sqlite"), ("opening_book.csv",)),
    Experiment("held_out_challenger", 22, ("--n", "400000", "--chunk-size", "250", "--store",
                                           "results/held_out_challenger.sqlite"),
               ("held_out_challenger.csv",)),
    # Summarises the committed pieces of data/move_labels; the labelling itself is run by
    # hand, in pieces across sessions (``--pieces A:B``), never by ``reproduce``.
    Experiment("move_labels", 19, (), ("move_labels.csv", "move_labels_gate.csv")),
)
"""Every experiment, in the order `minestats reproduce` runs them (a table before the
scripts that read it: ``pass_rate_fits`` after ``pass_rate_by_density``,
``win_rates_published`` after ``win_rates``)."""


def experiment(name: str) -> Experiment:
    """Return the experiment called ``name``.

    Parameters
    ----------
    name : str
        An experiment's name, as in `EXPERIMENTS`.

    Returns
    -------
    Experiment

    Raises
    ------
    ValueError
        If no experiment has that name (the message lists them).

    Examples
    --------
    >>> experiment("bbbv").stream
    7
    >>> try:
    ...     experiment("bbv")
    ... except ValueError as error:
    ...     print(str(error)[:64])
    unknown experiment 'bbv'; choose from first_click, opening_maps,
    """
    for entry in EXPERIMENTS:
        if entry.name == name:
            return entry
    raise ValueError(f"unknown experiment {quoted(name)}; choose from "
                     + ", ".join(entry.name for entry in EXPERIMENTS))


def summary_tables() -> tuple[str, ...]:
    """Return every experiment's summary tables, sorted: the tables a results folder needs.

    Examples
    --------
    >>> "win_rates.csv" in summary_tables()
    True
    """
    return tuple(sorted(table for entry in EXPERIMENTS for table in entry.summary_tables))
