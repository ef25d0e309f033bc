"""Sorting, searching and sets: ``sort``, ``argsort``, ``partition``, ``searchsorted`` and
the sorting primitives other groups build on (``sorting``), and ``unique``, ``isin`` and the
set operations (``sets``).
"""
