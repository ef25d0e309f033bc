"""CUDA graphs: capture a repeated sequence of materializations once, replay it with one
launch.

    g = gnumpy.cuda.Graph()
    with g:                      # capture: kernels are recorded, not run
        y = step(x)              # arrays computed in the block are materialized into it
    g.replay()                   # runs every recorded kernel; y holds the result
    x[...] = new_values          # inputs may change in place between replays
    g.replay()                   # y now holds step(new_values)

Capture uses cuda.core's ``GraphBuilder`` on gnumpy's current stream (relaxed mode).  The
buffers allocated during capture (temporaries and results) belong to the graph: they are
taken from the pool outside the capture and kept until the graph is dropped, so a replay
writes the same result arrays.  Inputs read by the graph must stay alive (keep references to
them) and keep their buffers: rebinding ``x = ...`` makes a new array the graph does not
read; ``x[...] = ...`` writes in place and the next replay sees it.

Inside the block nothing may synchronize with the host (``.get()``, printing, ``item()``,
uploads from host memory): CUDA refuses those during capture, and gnumpy raises
``RuntimeError`` naming the cause.  Run the body once before capturing when it compiles new
kernels, so that NVRTC time stays out of the capture.
"""
from __future__ import annotations

from .._device import Device, backend, cuda_available
from .._graph import realize as R
from .._graph import readers as RD


class Graph:
    """A captured sequence of gnumpy materializations on one device (CUDA only).

    Examples
    --------
    >>> import gnumpy as gp
    >>> x = gp.ones(1000, dtype=gp.float32)
    >>> g = gp.cuda.Graph()
    >>> with g:
    ...     y = 2 * x + 1
    >>> g.replay()
    >>> float(y[0])
    3.0
    """

    def __init__(self, device_id: int = 0) -> None:
        be = backend(Device("cuda", device_id)) if _cuda_ok() else None
        if be is None or not hasattr(be, "pool") or not hasattr(be.pool, "capture"):
            raise NotImplementedError("CUDA graphs need the CUDA backend (no usable GPU "
                                      "here); run the code without capture on the CPU")
        self._be = be
        self._builder = None
        self._exec = None
        self._keep = []
        self._before = None

    # ------------------------------------------------------------------ capture
    def __enter__(self):
        be = self._be
        if be.pool.capture is not None:
            raise RuntimeError("a CUDA graph capture is already in progress on this device")
        if self._exec is not None:
            raise RuntimeError("this Graph has been captured already; make a new one")
        # what is pending now, by tracking entry: a dead array's id can be reused by an
        # array made in the block, which then has a new entry under the same key
        R.settle()                  # a statement's write before the block is not in it
        self._before = dict(RD._pending)
        gb = be.stream.create_graph_builder()
        gb.begin_building("relaxed")
        self._builder = gb
        be.pool.capture = self._keep
        R.capturing[0] += 1         # writes in the block run at once, into the graph
        return self

    def __exit__(self, exc_type, exc, tb):
        be, gb = self._be, self._builder
        err = None
        if exc_type is None:
            try:                    # arrays computed in the block go into the graph
                before = self._before
                new = [r() for k, r in list(RD._pending.items()) if before.get(k) is not r]
                new = [a for a in new if a is not None]
                R.materialize([a._node for a in new])
                for a in new:
                    if a._base is not None:
                        a._leaf()
            except Exception as e:  # noqa: BLE001 - raised below, with the capture closed
                err = e
        R.capturing[0] -= 1
        be.pool.capture = None
        self._before = None
        try:
            gb.end_building()
            if exc_type is None and err is None:
                self._exec = gb.complete()
        except Exception as e:      # noqa: BLE001
            err = err or e
        finally:
            try:
                gb.close()
            except Exception as e:  # noqa: BLE001 - an invalidated capture ends here
                err = err or e
            self._builder = None
        if err is None and exc_type is not None and "CAPTURE" in str(exc).upper():
            err = exc
        if err is not None:
            raise _capture_error(err) from err
        return False

    # ------------------------------------------------------------------ replay
    def replay(self) -> None:
        """Launch the captured work on the current stream (asynchronously)."""
        if self._exec is None:
            raise RuntimeError("nothing captured: use `with graph:` first")
        R.settle()                  # a statement's write the graph's kernels read
        bufs = {id(b): b for b in self._keep}
        RD.flush_readers_of(bufs)      # pending readers of the results see the old values
        self._exec.launch(self._be.stream)

    @property
    def num_buffers(self) -> int:
        """How many device buffers the graph owns (its temporaries and results)."""
        return len(self._keep)

    def close(self) -> None:
        """Release the graph and the buffers it owns."""
        if self._exec is not None:
            self._exec.close()
            self._exec = None
        self._keep.clear()


def _cuda_ok() -> bool:
    return cuda_available()


def _capture_error(e) -> RuntimeError:
    return RuntimeError(f"gnumpy: an operation that is not allowed during CUDA graph capture "
                        f"was attempted (host transfers, synchronization and printing must "
                        f"happen outside `with graph:`): {e}")
