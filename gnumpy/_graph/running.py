"""What runs: the one execution lock and the counters of the work that ran.

Below the backends (which take the lock around their own host-side work) and
materialization (``realize``, which re-exports both), so neither reaches up for them.
"""
from __future__ import annotations

import threading


class Stats:
    """Counters of materialization work (reset with ``reset()``)."""

    __slots__ = ("groups", "materializations", "by_kind")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.groups = 0
        self.materializations = 0
        self.by_kind = {"elementwise": 0, "reduce": 0, "rows": 0, "barrier": 0, "copy": 0,
                        "sequence": 0}

    def __repr__(self) -> str:
        return f"Stats(groups={self.groups}, materializations={self.materializations}, " \
               f"by_kind={self.by_kind})"


stats = Stats()

# One lock over execution: materializing, writing and the pending registry's scans.  Graph
# building (operators, views) needs none; whatever reads or realizes nodes, or scans
# `_pending`, holds it, so threads run statements in some serial order (NumPy's
# guarantee); on CUDA the backend orders the threads' streams in that order (``bind_thread``).
lock = threading.RLock()
