"""Files: boards as text and MBF (`boards`), result tables and figures (`results`)."""

__all__ = []
