"""Files: boards as text and MBF (`boards`), result tables and figures (`result_files`).

Also games: minestats' own as JSON (`games`), and replays of the games people play
(`replays`, through `replay_worker`), analysed one or a folder at a time
(`replay_analysis`).
"""

from minestats.foundations.deprecation import renamed_module

__all__ = []

renamed_module("minestats.io.results", "minestats.io.result_files", removed_in="0.4")
