"""What gnumpy knows about memory: which buffers code outside gnumpy can see, when each
buffer was last written in place or had a lazy node computed into it, and values computed
from memory, remembered while that memory is unchanged.

A value read or reduced from a buffer (an element a loop reads each iteration, the bounds
of an index array) holds while gnumpy has not written the buffer in place since
(``last_write``: every write into existing memory records itself first, through
``readers.flush_readers``) and the memory is not visible outside gnumpy (``shared``:
another library may write it).  Entries hold their buffer weakly: memory freed and
allocated again is another buffer object.  This module imports nothing of gnumpy.
"""
from __future__ import annotations

import weakref

# Memory seen outside gnumpy (imported from NumPy, DLPack or ``__cuda_array_interface__``
# without a copy, or exported): id(buffer) -> a weak reference to it, dropped when the
# buffer dies (empty in a program that shares nothing: one test of it on the hot path).
# Writes into it run at once, never deferred; a lazy value that reads it is computed when
# made (``readers.tracked``); nothing read from it is remembered: the other side
# reads and writes it without asking gnumpy.
_shared: dict = {}


def share(buf) -> None:
    """Record that memory `buf` is visible outside gnumpy."""
    k = id(buf)
    try:
        ref = weakref.ref(buf, lambda r, k=k: _shared.pop(k) if _shared.get(k) is r else None)
    except TypeError:
        ref = None              # (kept by id: a later buffer at that id is taken as shared)
    _shared[k] = ref


def shared_ids() -> dict:
    """The ids of memory (possibly) visible outside gnumpy, as keys (a freed buffer's id
    may stay listed: then a new buffer at that id counts as shared)."""
    return _shared


def shared(buf) -> bool:
    """Is memory `buf` visible outside gnumpy (or possibly so)?"""
    r = _shared.get(id(buf), False)
    return r is not False and (r is None or r() is buf)


# Bumped by every write into existing memory, before it (``readers.flush_readers``): what
# was computed from memory at one count is still valid while the count is unchanged.
write_epoch = [0]
# Each buffer's last write: id -> (the count then, a weak reference to the buffer); a
# buffer not listed was not written since the floor (the count when the table was last
# emptied).
_written: dict = {}
_written_floor = [0]


def note_write(buf) -> None:
    """Memory `buf` is about to be written in place (the count bumped first)."""
    if len(_written) >= 4096:
        _written.clear()
        _written_floor[0] = write_epoch[0]
    _written[id(buf)] = (write_epoch[0], weakref.ref(buf))


def forget_all() -> None:
    """Memory was written where gnumpy cannot say which (a CUDA graph's replay writes
    what its captured statements wrote): nothing computed before holds any longer."""
    write_epoch[0] += 1
    _written.clear()
    _written_floor[0] = write_epoch[0]


def last_write(buf) -> int:
    """The write count at or before which memory `buf` was last written in place: what was
    computed from `buf` at count ``e >= last_write(buf)`` still holds (unless shared)."""
    e = _written.get(id(buf))
    return _written_floor[0] if e is None or e[1]() is not buf else e[0]


def written(buf) -> bool:
    """Was memory `buf` written in place (since the table was last emptied)?  Memory a
    program only reads is worth keeping values of."""
    e = _written.get(id(buf))
    return e is not None and e[1]() is buf


MISS = object()


class Memo:
    """Values keyed by (buffer, key), valid while the buffer is unchanged; `limit` entries
    at most (then it starts over)."""

    def __init__(self, limit: int) -> None:
        self._d = {}
        self._limit = limit

    def get(self, buf, key):
        """The value put for (`buf`, `key`) if `buf` was not written since, else MISS."""
        e = self._d.get((id(buf), key))
        if e is None or e[0]() is not buf or last_write(buf) > e[1] or shared(buf):
            return MISS
        return e[2]

    @staticmethod
    def epoch() -> int:
        """The write count to pass to `put` for a value about to be computed (taken
        before: a write meanwhile voids it)."""
        return write_epoch[0]

    def put(self, buf, key, value, epoch) -> None:
        if shared(buf):
            return
        if len(self._d) >= self._limit:
            self._d.clear()
        self._d[(id(buf), key)] = (weakref.ref(buf), epoch, value)

    def clear(self) -> None:
        self._d.clear()


# Realizations (a lazy node computed into memory, ``ir.Node.realize``), numbered; the
# number of the last one into each buffer.  A pending array's read set taken before that
# number may lack the buffer (``readers.read_set``).
_realized = [0]
_born: dict = {}    # id(buffer) -> the number of its last realization
_floor = [0]        # a buffer not in _born was last realized into at or before this


def note_realized(buf) -> None:
    """Number a realization into `buf` (None: a node folded to a constant)."""
    n = _realized[0] = _realized[0] + 1
    if buf is not None:
        if not n & 1023 and len(_born) >= 1 << 16:
            _born.clear()           # every forgotten buffer counts as realized now
            _floor[0] = n
        _born[id(buf)] = n


def realizations() -> int:
    """How many realizations there were so far."""
    return _realized[0]


def born(buf_id) -> int:
    """The number of the last realization into buffer `buf_id` (0: memory no lazy node
    was realized into; a bound for one forgotten)."""
    return _born.get(buf_id, _floor[0])
