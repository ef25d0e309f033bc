"""The CUDA memory pool's free lists, on the host: a stub memory resource stands for
cuda.core's, so the size classes, reuse and the cache's bounds are checked without a GPU."""
import gc

import pytest

from gnumpy.backends import cuda_memory as M


class _Buf:
    def __init__(self, ptr):
        self.handle = ptr


class _Resource:
    def __init__(self):
        self.next = 1 << 20
        self.allocs = []

    def allocate(self, nbytes, stream=None):
        self.allocs.append(nbytes)
        b = _Buf(self.next)
        self.next += nbytes
        return b


class _Backend:
    cur_stream = 0
    stream = None


def _pool():
    p = M.MemoryPool.__new__(M.MemoryPool)
    p.backend = _Backend()
    p.mr = _Resource()
    p._empty = M.DeviceBuffer(None, 0)
    p._free = {}
    p.large_cached = 0
    p.capture = None
    p._side = None
    return p


@pytest.mark.parametrize("n", [1, 255, 257, M._SMALL, M._SMALL + 1, 10**6, 3 * 2**20 + 5,
                               2**30 + 1])
def test_size_classes_cover_the_request_with_little_waste(n):
    p = _pool()
    b = p.alloc(n)
    assert b.size >= n and p.mr.allocs == [b.size]
    assert b.size - n < max(256, n // 8 + 1)


def test_freed_blocks_come_back_for_the_same_class_and_stream():
    p = _pool()
    for n in (1000, 5 * 2**20):
        b = p.alloc(n)
        ptr = b.ptr
        made = len(p.mr.allocs)
        del b
        gc.collect()
        again = p.alloc(n - 7)          # the same class
        assert again.ptr == ptr and len(p.mr.allocs) == made
        p.backend.cur_stream = 1        # another stream never takes it
        other = p.alloc(n)
        assert other.ptr != ptr
        p.backend.cur_stream = 0
        del again, other
        gc.collect()


def test_large_cache_is_bounded_per_class_and_in_bytes(monkeypatch):
    p = _pool()
    n = 3 * 2**20
    bufs = [p.alloc(n) for _ in range(M._LARGE_MAX + 3)]
    size = bufs[0].size
    del bufs
    gc.collect()
    assert p.large_cached == M._LARGE_MAX * size
    assert len(p._free[(0, size)]) == M._LARGE_MAX
    monkeypatch.setattr(M, "_LARGE_BYTES", M._LARGE_MAX * size + 1)
    other = [p.alloc(2 * n) for _ in range(2)]      # another class, past the byte bound
    del other
    gc.collect()
    assert p.large_cached <= M._LARGE_BYTES
    taken = [p.alloc(n) for _ in range(M._LARGE_MAX)]
    assert p.large_cached == 0 and len(set(b.ptr for b in taken)) == M._LARGE_MAX


def test_the_pool_limit_raises_memory_error_and_the_pool_keeps_working(monkeypatch):
    import gnumpy as gp
    p = _pool()
    used = [0]
    monkeypatch.setattr(M.MemoryPool, "_attr", lambda self, name: used[0])
    monkeypatch.setattr(M.MemoryPool, "trim", lambda self: None)
    monkeypatch.setattr(_Backend, "device", "cuda:0", raising=False)
    with gp.config.override(pool_limit=10 * 2**20):
        b = p.alloc(4 * 2**20)              # under the limit: taken from the pool
        used[0] = b.size
        with pytest.raises(MemoryError, match="pool limit"):
            p.alloc(8 * 2**20)              # past it, even after a collection and trim
        made = len(p.mr.allocs)
        c = p.alloc(2 * 2**20)              # what still fits is served
        assert len(p.mr.allocs) == made + 1 and c.size >= 2 * 2**20
    used[0] = 0
    with gp.config.override(pool_limit=0):  # 0: no limit
        assert p.alloc(64 * 2**20).size >= 64 * 2**20
