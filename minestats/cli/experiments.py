"""The experiment scripts `minestats reproduce` runs, light enough for the parser to list."""

__all__ = ["EXPERIMENT_STREAMS", "REPRODUCE"]

REPRODUCE = {
    "first_click": ["--n", "2000000"],
    "opening_maps": ["--n", "10000000", "--n-safe-opening", "200000"],
    "solver_pass_rates": ["--n", "500000", "--n-single-point", "2000000", "--n-paired",
                          "200000"],
    "pass_rate_by_density": ["--n", "100000", "--n-single-point", "500000"],
    "pass_rate_fits": [],  # fits the table above, whatever its size
    "pass_rate_by_click": ["--n", "20000", "--n-intermediate", "5000"],
    "bbbv": ["--n", "5000000"],
    "no_guess_generation": ["--n", "5000", "--n-dense-retry", "200"],
    "no_guess_bias": ["--n", "20000", "--n-dense-reference", "2000", "--permutations", "9999"],
    "win_rates": ["--n-small", "100000", "--n-intermediate", "100000", "--n-expert", "100000",
                  "--n-paper", "1000000", "--n-paper-opening", "1000000",
                  "--n-paired-small", "100000", "--n-paired-intermediate", "100000",
                  "--n-paired-expert", "100000", "--store", "results/win_rates.sqlite"],
    "win_rate_by_click": ["--n-orbit", "uniform", "2000", "1500",
                          "--n-orbit", "safe-click", "16000", "28000",
                          "--n-orbit", "safe-opening", "8000", "16000",
                          "--n-rule", "winxp", "5000", "2000", "--n-expert", "8000",
                          "--n-winxp-expert", "2000", "--n-paired", "8000", "8000", "3000",
                          "--chunk-size", "250", "--store", "results/win_rate_by_click.sqlite"],
    "win_rate_by_density": ["--n", "20000"],
    "optimal_play": ["--n", "200000", "--boards", "4x4/2", "4x4/4", "4x4/6", "5x3/4", "4x5/5",
                     "5x4/6"],
    "policy_ablation": ["--n", "100000", "--store", "results/policy_ablation.sqlite"],
    "winxp_player": ["--n", "100000", "--store", "results/winxp_player.sqlite"],
}
"""Experiment scripts (experiments/NAME.py) in the order `reproduce` runs them, each with
the arguments of its paper-grade sizes (``--full``)."""

EXPERIMENT_STREAMS = {
    "first_click": 1, "opening_maps": 2, "solver_pass_rates": 3, "pass_rate_by_density": 4,
    "pass_rate_fits": 5, "pass_rate_by_click": 6, "bbbv": 7, "no_guess_generation": 8,
    "no_guess_bias": 9, "win_rates": 10, "win_rate_by_click": 11, "win_rate_by_density": 12,
    "optimal_play": 13, "policy_ablation": 14, "winxp_player": 15,
}
"""Each experiment's own stream: run with ``--seed S``, it draws from child ``k`` of ``S``
(seed label ``"S/k"``), so no two experiments share a board. Fixed numbers, never
positions in a list, so adding an experiment changes no other experiment's numbers."""
