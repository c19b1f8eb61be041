"""Players, policies, win rates and exact optimal play."""

__all__ = []
