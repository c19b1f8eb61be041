"""Files: boards as text and MBF (`boards`), result tables and figures (`results`).

Also games: minestats' own as JSON (`games`), and replays of the games people play
(`replays`, through `replay_worker`), analysed one or a folder at a time
(`replay_analysis`).
"""

__all__ = []
