"""Library adapters for the side-by-side benchmark (bench/suite.py): gnumpy and every peer
importable here (CuPy eager, ElementwiseKernel and fuse; PyTorch eager and torch.compile;
JAX jit), each giving the same cases on arrays built from the same host data.

An adapter's ``case(name)`` returns a zero-argument callable that queues the case's work
(asynchronously, result dropped) or None when the library has no version of that case;
``timer`` times such callables with the library's own CUDA events (JAX: wall clock around
``block_until_ready``, it has no event API).
"""
from __future__ import annotations

import statistics
import time

INNER = 5        # calls per timed sample, back to back


def _median(ts):
    return statistics.median(ts)


def softmax_of(xp, keepdim=False):
    """softmax over the last axis written with `xp`'s max/exp/sum (NumPy spelling, or
    torch's with keepdim=True)."""
    kw = {"dim": -1, "keepdim": True} if keepdim else {"axis": -1, "keepdims": True}
    mx = (lambda X: X.amax(**kw)) if keepdim else (lambda X: X.max(**kw))

    def f(X):
        e = xp.exp(X - mx(X))
        return e / e.sum(**kw)
    return f


class Adapter:
    name = "?"

    def __init__(self, xh, yh, Xh, a):
        self.a = a

    def case(self, name):
        f = getattr(self, "c_" + name, None)
        return None if f is None else f()

    def sync(self):
        raise NotImplementedError

    def event_time(self, f, reps):
        raise NotImplementedError

    def time(self, f, reps=15, warm=3):
        """(median seconds per call, first-call seconds including any compile)."""
        t0 = time.perf_counter()
        f()
        self.sync()
        first = time.perf_counter() - t0
        for _ in range(warm - 1):
            f()
        self.sync()
        return self.event_time(f, reps), first

    def wall_per_call(self, f, n=1000, rounds=5):
        for _ in range(100):
            f()
        self.sync()
        ts = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            for _ in range(n):
                f()
            self.sync()
            ts.append((time.perf_counter() - t0) / n)
        return _median(ts)

    def close(self):
        pass


# ------------------------------------------------------------------ gnumpy

class Gnumpy(Adapter):
    name = "gnumpy"

    def __init__(self, xh, yh, Xh, a):
        import gnumpy as gp
        self.gp = gp
        self.a = a
        self.x, self.y = gp.asarray(xh), gp.asarray(yh)
        self.X = gp.asarray(Xh)
        self.sx, self.sy = gp.asarray(xh[:1000]), gp.asarray(yh[:1000])

    def sync(self):
        self.gp.cuda.synchronize()

    def _run(self, expr):
        gp = self.gp
        return lambda: gp.evaluate(*_tuple(expr()))

    def event_time(self, f, reps):
        gp = self.gp
        ts = []
        for _ in range(reps):
            e0 = gp.cuda.Event().record()
            for _ in range(INNER):
                f()
            e1 = gp.cuda.Event().record()
            e1.synchronize()
            ts.append(e0.elapsed_time(e1) / 1e3 / INNER)
        return _median(ts)

    def c_saxpy(self):
        a, x, y = self.a, self.x, self.y
        return self._run(lambda: a * x + y)

    def c_expr7(self):
        gp, x, y = self.gp, self.x, self.y
        return self._run(lambda: gp.sin(x) * gp.cos(y) + x * x - 3 * y + gp.exp(-x))

    def c_sum(self):
        return self._run(lambda: self.gp.sum(self.x))

    def c_sumsq_diff(self):
        return self._run(lambda: self.gp.sum((self.x - self.y) ** 2))

    def c_row_sum(self):
        return self._run(lambda: self.X.sum(axis=1))

    def c_col_sum(self):
        return self._run(lambda: self.X.sum(axis=0))

    def c_mean(self):
        return self._run(lambda: self.x.mean())

    def c_var(self):
        return self._run(lambda: self.x.var())

    def c_std(self):
        return self._run(lambda: self.x.std())

    def c_softmax(self):
        gp, X = self.gp, self.X

        def f():
            e = gp.exp(X - X.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        return self._run(f)

    def c_standardize(self):
        X = self.X
        return self._run(lambda: (X - X.mean(axis=0)) / X.std(axis=0))

    def c_tiny(self):
        a, x, y = self.a, self.sx, self.sy
        return self._run(lambda: a * x + y)

    def c_loop100(self):
        gp, x0 = self.gp, self.sx

        def f():
            x = x0
            for _ in range(100):
                x = x * 0.99 + 1
            gp.evaluate(x)
        return f

    def sized(self, op, n):
        gp = self.gp
        x, y = self.x[:n], self.y[:n]
        gp.evaluate(x, y)
        a = self.a
        return self._run(lambda: a * x + y) if op == "saxpy" else self._run(lambda: gp.sum(x))

    def graph_loop(self):
        """(seconds per 100-kernel loop without capture, with CUDA graph replay)."""
        gp, x0 = self.gp, self.sx

        def body():
            x = x0
            for _ in range(100):
                x = x * 0.99 + 1
                gp.evaluate(x)
            return x
        plain = self.wall_per_call(body, n=20)
        g = gp.cuda.Graph()
        with g:
            body()
        replay = self.wall_per_call(g.replay, n=200)
        return plain, replay


def _tuple(r):
    return r if isinstance(r, tuple) else (r,)


# ------------------------------------------------------------------ CuPy

class Cupy(Adapter):
    name = "cupy"

    def __init__(self, xh, yh, Xh, a):
        import cupy as cp
        self.cp = cp
        self.a = a
        self.x, self.y, self.X = cp.asarray(xh), cp.asarray(yh), cp.asarray(Xh)
        self.sx, self.sy = cp.asarray(xh[:1000]), cp.asarray(yh[:1000])

    def sync(self):
        self.cp.cuda.Device().synchronize()

    def event_time(self, f, reps):
        cp = self.cp
        ts = []
        for _ in range(reps):
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            for _ in range(INNER):
                f()
            e1.record()
            e1.synchronize()
            ts.append(cp.cuda.get_elapsed_time(e0, e1) / 1e3 / INNER)
        return _median(ts)

    def c_saxpy(self):
        a, x, y = self.a, self.x, self.y
        return lambda: a * x + y

    def c_expr7(self):
        cp, x, y = self.cp, self.x, self.y
        return lambda: cp.sin(x) * cp.cos(y) + x * x - 3 * y + cp.exp(-x)

    def c_sum(self):
        return lambda: self.cp.sum(self.x)

    def c_sumsq_diff(self):
        return lambda: self.cp.sum((self.x - self.y) ** 2)

    def c_row_sum(self):
        return lambda: self.X.sum(axis=1)

    def c_col_sum(self):
        return lambda: self.X.sum(axis=0)

    def c_mean(self):
        return lambda: self.x.mean()

    def c_var(self):
        return lambda: self.x.var()

    def c_std(self):
        return lambda: self.x.std()

    def c_softmax(self):
        cp, X = self.cp, self.X

        def f():
            e = cp.exp(X - X.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        return f

    def c_standardize(self):
        X = self.X
        return lambda: (X - X.mean(axis=0)) / X.std(axis=0)

    def c_tiny(self):
        a, x, y = self.a, self.sx, self.sy
        return lambda: a * x + y

    def c_loop100(self):
        x0 = self.sx

        def f():
            x = x0
            for _ in range(100):
                x = x * 0.99 + 1
            return x
        return f

    def sized(self, op, n):
        x, y, a, cp = self.x[:n], self.y[:n], self.a, self.cp
        return (lambda: a * x + y) if op == "saxpy" else (lambda: cp.sum(x))


class CupyFused(Cupy):
    """CuPy's explicit fusion: ElementwiseKernel for SAXPY, ``cupy.fuse`` elsewhere."""
    name = "cupy fuse/EK"

    def __init__(self, *args):
        super().__init__(*args)
        cp = self.cp
        self.ek = cp.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 z",
                                       "z = a * x + y", "gn_bench_saxpy")
        self.f7 = cp.fuse(kernel_name="gn_bench_expr7")(
            lambda x, y: cp.sin(x) * cp.cos(y) + x * x - 3 * y + cp.exp(-x))
        self.fsq = cp.fuse(kernel_name="gn_bench_sumsq")(lambda x, y: cp.sum((x - y) ** 2))
        self.fsax = cp.fuse(kernel_name="gn_bench_fsaxpy")(lambda a, x, y: a * x + y)

    def c_saxpy(self):
        a, x, y, k = self.a, self.x, self.y, self.ek
        return lambda: k(a, x, y)

    def c_expr7(self):
        return lambda: self.f7(self.x, self.y)

    def c_sumsq_diff(self):
        return lambda: self.fsq(self.x, self.y)

    def c_tiny(self):
        a, x, y, f = self.a, self.sx, self.sy, self.fsax
        return lambda: f(a, x, y)

    c_sum = c_row_sum = c_col_sum = c_mean = c_var = c_std = None
    c_softmax = c_standardize = c_loop100 = None

    def case(self, name):
        f = getattr(self, "c_" + name, None)
        return None if f is None else f()

    def sized(self, op, n):
        if op != "saxpy":
            return None
        x, y, a, k = self.x[:n], self.y[:n], self.a, self.ek
        return lambda: k(a, x, y)


# ------------------------------------------------------------------ PyTorch

class Torch(Adapter):
    name = "torch"
    compiled = False

    def __init__(self, xh, yh, Xh, a):
        import torch
        self.torch = torch
        self.a = float(a)
        self.x = torch.as_tensor(xh, device="cuda")
        self.y = torch.as_tensor(yh, device="cuda")
        self.X = torch.as_tensor(Xh, device="cuda")
        self.sx, self.sy = self.x[:1000].clone(), self.y[:1000].clone()

    def sync(self):
        self.torch.cuda.synchronize()

    def event_time(self, f, reps):
        torch = self.torch
        ts = []
        for _ in range(reps):
            e0 = torch.cuda.Event(enable_timing=True)
            e1 = torch.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(INNER):
                f()
            e1.record()
            e1.synchronize()
            ts.append(e0.elapsed_time(e1) / 1e3 / INNER)
        return _median(ts)

    def _fn(self, f):
        return self.torch.compile(f) if self.compiled else f

    def c_saxpy(self):
        a, x, y, torch = self.a, self.x, self.y, self.torch
        if self.compiled:
            f = self._fn(lambda x, y: a * x + y)
            return lambda: f(x, y)
        return lambda: torch.add(y, x, alpha=a)       # one kernel: eager's best

    def c_expr7(self):
        torch = self.torch
        f = self._fn(lambda x, y: torch.sin(x) * torch.cos(y) + x * x - 3 * y + torch.exp(-x))
        return lambda: f(self.x, self.y)

    def c_sum(self):
        f = self._fn(lambda x: x.sum())
        return lambda: f(self.x)

    def c_sumsq_diff(self):
        f = self._fn(lambda x, y: ((x - y) ** 2).sum())
        return lambda: f(self.x, self.y)

    def c_row_sum(self):
        f = self._fn(lambda X: X.sum(dim=1))
        return lambda: f(self.X)

    def c_col_sum(self):
        f = self._fn(lambda X: X.sum(dim=0))
        return lambda: f(self.X)

    def c_mean(self):
        f = self._fn(lambda x: x.mean())
        return lambda: f(self.x)

    def c_var(self):
        f = self._fn(lambda x: x.var(correction=0))
        return lambda: f(self.x)

    def c_std(self):
        f = self._fn(lambda x: x.std(correction=0))
        return lambda: f(self.x)

    def c_softmax(self):
        torch = self.torch
        if not self.compiled:
            return lambda: torch.softmax(self.X, dim=1)     # eager's fused kernel

        def sm(X):
            e = torch.exp(X - X.amax(dim=1, keepdim=True))
            return e / e.sum(dim=1, keepdim=True)
        f = self._fn(sm)
        return lambda: f(self.X)

    def c_standardize(self):
        f = self._fn(lambda X: (X - X.mean(dim=0)) / X.std(dim=0, correction=0))
        return lambda: f(self.X)

    def c_tiny(self):
        a = self.a
        f = self._fn(lambda x, y: a * x + y)
        return lambda: f(self.sx, self.sy)

    def c_loop100(self):
        def loop(x):
            for _ in range(100):
                x = x * 0.99 + 1
            return x
        f = self._fn(loop)
        return lambda: f(self.sx)

    def sized(self, op, n):
        if self.compiled:
            return None
        x, y, a, torch = self.x[:n], self.y[:n], self.a, self.torch
        return (lambda: torch.add(y, x, alpha=a)) if op == "saxpy" else (lambda: x.sum())


class TorchCompile(Torch):
    name = "torch.compile"
    compiled = True


# ------------------------------------------------------------------ JAX

class Jax(Adapter):
    name = "jax jit"

    def __init__(self, xh, yh, Xh, a):
        import jax
        import jax.numpy as jnp
        self.jax, self.jnp = jax, jnp
        self.a = a
        self.x, self.y, self.X = jnp.asarray(xh), jnp.asarray(yh), jnp.asarray(Xh)
        self.sx, self.sy = jnp.asarray(xh[:1000]), jnp.asarray(yh[:1000])
        self.last = None

    def sync(self):
        if self.last is not None:
            self.jax.block_until_ready(self.last)
            self.last = None

    def event_time(self, f, reps):
        # Note: JAX has no CUDA-event API; wall clock around INNER calls + block.
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(INNER):
                f()
            self.sync()
            ts.append((time.perf_counter() - t0) / INNER)
        return _median(ts)

    def _wrap(self, fn, *args):
        jf = self.jax.jit(fn)

        def call():
            self.last = jf(*args)
        return call

    def c_saxpy(self):
        a = self.a
        return self._wrap(lambda x, y: a * x + y, self.x, self.y)

    def c_expr7(self):
        jnp = self.jnp
        return self._wrap(lambda x, y: jnp.sin(x) * jnp.cos(y) + x * x - 3 * y + jnp.exp(-x),
                          self.x, self.y)

    def c_sum(self):
        return self._wrap(lambda x: x.sum(), self.x)

    def c_sumsq_diff(self):
        return self._wrap(lambda x, y: ((x - y) ** 2).sum(), self.x, self.y)

    def c_row_sum(self):
        return self._wrap(lambda X: X.sum(axis=1), self.X)

    def c_col_sum(self):
        return self._wrap(lambda X: X.sum(axis=0), self.X)

    def c_mean(self):
        return self._wrap(lambda x: x.mean(), self.x)

    def c_var(self):
        return self._wrap(lambda x: x.var(), self.x)

    def c_std(self):
        return self._wrap(lambda x: x.std(), self.x)

    def c_softmax(self):
        return self._wrap(lambda X: self.jax.nn.softmax(X, axis=1), self.X)

    def c_standardize(self):
        return self._wrap(lambda X: (X - X.mean(axis=0)) / X.std(axis=0), self.X)

    def c_tiny(self):
        a = self.a
        return self._wrap(lambda x, y: a * x + y, self.sx, self.sy)

    def c_loop100(self):
        def loop(x):
            for _ in range(100):
                x = x * 0.99 + 1
            return x
        return self._wrap(loop, self.sx)

    def sized(self, op, n):
        x, y, a = self.x[:n], self.y[:n], self.a
        if op == "saxpy":
            return self._wrap(lambda x, y: a * x + y, x, y)
        return self._wrap(lambda x: x.sum(), x)


ADAPTERS = (Gnumpy, Cupy, CupyFused, Torch, TorchCompile, Jax)
