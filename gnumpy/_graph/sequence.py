"""Ordered writes: a loop's element and short vector statements waiting together, to run
in program order as one launch (``Backend.sequences``).

``realize.write`` defers a statement's write (the deferred write).  When the next
statement writes an element or a vector of at most ``VECTOR_MAX`` elements and neither an
element chain (``chains.extend``) nor a fold takes it, the deferred write joins the
sequence here (``join``) instead of running, and the new write becomes the deferred write
after it: ``C[i, j] = (C[i, j] - dot(C[i, :j], C[j, :j])) / C[j, j]`` for j in a row, or
a sweep's rows, each reading what the writes before it stored, is one launch per
``Sequences.words_max`` words, not one per statement.  ``realize.settle`` runs the
sequence, the deferred write last, in order (``realize.run_sequence``).

Each write is encoded when it joins (``Sequences.encode``: its type and the words its code
reads, addresses taken then), so a sequence holds what each statement meant when it ran:
no write but the sequence's own runs before the sequence does (every other write, read or
launch settles the deferred write first, and with it the sequence).  The entries keep
their nodes, so no buffer they read or write is freed while they wait.
"""
from __future__ import annotations

from .ir import EW, REDUCE

VECTOR_MAX = 1024       # the longest vector destination any backend's sequence writes

entries = []            # [(dest, value, (type number, words))], in write order; the
                        # deferred write comes after them
used = [0]              # the words the entries take (each: its words and its type's)


def join(p, dest, value, seq, first) -> bool:
    """Move deferred write `p` into the sequence so that the write of lazy `value` into
    LEAF `dest` waits after it (the caller makes it the deferred write): True when p is a
    write the sequence runs (``seq``, the backend's ``Sequences``, encodes it); None when
    it is but one launch has no room left for it; False for anything else, and where the
    new write is an element whose value holds no sum near its root (an element chain's
    statement: after a row, seidel's elements would leave the row alone in a launch).
    None and False leave everything as it was.  `value` is encoded when it joins in turn,
    or when the sequence runs: a fold may change it until then.

    A library call in p's value (covariance's ``cov[i:, i] = cov[i, i:] = x @ Y / c``)
    runs first, ahead of the entries, where ``first(p's value, entries)`` finds its
    operands apart from what they write (it would run when p does, reading the same)."""
    d = p[0]
    if dest.device is not d.device or not dest.shape and not entries and \
            value.kind == EW and not _sums(value, 3):
        return False
    pe = seq.encode(d, p[1])
    if pe is None and (not first(p[1], entries) or (pe := seq.encode(d, p[1])) is None):
        return False
    n = used[0] + 1 + len(pe[1])
    if n > seq.words_max:
        return None if entries else False
    entries.append((d, p[1], pe))
    used[0] = n
    return True


def _sums(n, depth) -> bool:
    """Is there a reduction in `n`'s graph within `depth` levels of it?"""
    if n.kind == REDUCE:
        return True
    if depth and n.kind == EW:
        for s in n.srcs:
            if _sums(s, depth - 1):
                return True
    return False


def take(p, seq):
    """([(type number, words)] of the entries, deferred write `p`'s encoding or None, the
    entries themselves), the sequence left empty.  p's encoding is None without `seq` or
    when p does not run in the sequence (a value it does not take, or no room left): it
    then runs on its own after them."""
    pe = seq.encode(p[0], p[1]) if seq is not None else None
    if pe is not None and used[0] + 1 + len(pe[1]) > seq.words_max:
        pe = None
    out = [e[2] for e in entries]
    kept = list(entries)
    entries.clear()
    used[0] = 0
    return out, pe, kept


def restore(kept) -> None:
    """Put entries taken by ``take`` back (their launch failed before it ran)."""
    entries[:0] = kept
    used[0] = sum(1 + len(e[2][1]) for e in entries)
