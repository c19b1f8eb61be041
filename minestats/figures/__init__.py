"""Figures: matplotlib Figures drawn from results and tables (`plots`)."""

__all__ = []
