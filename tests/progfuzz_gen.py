"""The random loop programs of tests/test_programs_fuzz.py (a differential fuzz of program
replays, ``gnumpy/backends/cuda_program.py``): ``generate(seed)`` gives the program's
source (``prog(xp, ev, host, *persistent)``, run on NumPy and on gnumpy), its inputs and
its dtype.  One seed gives one program on every machine (``random.Random``); seeds below
10000 draw from the first statement kinds only, 10000, 20000, 30000, 50000, 60000, 70000
and 80000 each add kinds or shapes, 80000 and up use them all.
"""
from __future__ import annotations

import random

import numpy as np


NAMES = ("A", "At", "W", "Wt", "W2", "v", "b", "c", "Y", "Z", "S")
NPERSIST = len(NAMES)


class Gen:
    def __init__(self, seed):
        R = self.R = random.Random(seed)
        self.seed = seed
        self.dt = R.choices(["float64", "float32", "complex128"], [6, 3, 1])[0]
        self.real = self.dt != "complex128"
        mode = self.mode = R.choices(["big", "deep", "small"], [5, 2, 3])[0]
        if mode == "big":
            n, k, m = R.randint(30, 40), R.randint(30, 42), R.randint(30, 40)
        elif mode == "deep":
            n, k, m = R.randint(3, 12), R.randint(257, 272), R.randint(3, 12)
        else:
            n, k, m = R.randint(2, 10), R.randint(1, 12), R.randint(2, 10)
        if seed >= 80000 and R.random() < 0.5:     # thin shapes: one row, column or term
            t = R.choice(["m1", "k1", "n1", "deepm1"])
            if t == "m1":
                m = 1
            elif t == "k1":
                k = 1
            elif t == "n1":
                n = 1
            else:
                n, k, m = R.randint(20, 40), R.randint(257, 270), 1
        self.n, self.k, self.m = n, k, m
        self.N = 2 * n + 6
        self.span = self.N - 2 * n + 1          # offsets o in [0, span): o + 2n <= N
        self.L = 40
        self.iters = R.randint(20, 32)
        self.lines = []
        self.tmp = 0
        self.multi_h = R.random() < 0.3          # row counts that change per iteration

    # ------------------------------------------------------------------ pieces
    def off(self, span=None):
        span = self.span if span is None else span
        R = self.R
        if span <= 1:
            return "0"
        return R.choice([f"(i * {R.randint(1, 5)} + {R.randint(0, 4)}) % {span}",
                         f"i % {span}", f"{R.randint(0, span - 1)}",
                         f"({span - 1} - i % {span})"])

    def scal(self):
        R = self.R
        s = R.choice(["0.5 * i", "float(i % 3)", "(1.0 + 0.1 * i)", "(i - 10) * 0.25", "2.0",
                      "i", "float(i % 2)", "(0.3 - 0.01 * i)", "1.5", "float(i % 4 == 0)",
                      "0.0"])
        if not self.real and R.random() < 0.2:
            s = f"({s}) * (1 - 0.5j)"
        return s

    def h(self):
        if self.multi_h and self.R.random() < 0.5 and self.n > 2:
            return f"({self.n} - i % 3)"
        if self.R.random() < 0.04:
            return "0"                  # zero-size
        if self.seed >= 80000 and self.R.random() < 0.1:
            return "1"
        return str(self.n)

    def rows(self, h, o):
        """An (h, K) operand at rows o.."""
        R = self.R
        c = R.choice(["A[{o}:{o}+{h}]", "At[:, {o}:{o}+{h}].T", "A[{o}:{o}+2*{h}:2]",
                      "(A[{o}:{o}+{h}] * {s})", "(A[{o}:{o}+{h}] + {s})",
                      "A[{o}:{o}+{h}]"]).format(o=o, h=h, s=self.scal())
        if self.real and R.random() < 0.1:
            c = f"xp.maximum({c}, 0)"
        return c

    def matW(self):
        R = self.R
        return R.choice(["W", "W", "Wt.T", "(W * {s})", "W[:, ::-1]", "(W - {s})",
                         "(Wt * {s}).T"]).format(s=self.scal())

    def vecK(self):
        R = self.R
        o = self.off()
        return R.choice(["v[{o}:{o}+{k}]", "(v[{o}:{o}+{k}] * {s})", "A[{o}]", "At[:, {o}]",
                         "v[{o}:{o}+{k}]"]).format(o=o, k=self.k, s=self.scal())

    def vecM(self):
        R = self.R
        return R.choice(["b", "(b * {s})", "Z[{o}:{o}+{m}]", "Y[{o}]", "W2[{o2}]"]).format(
            s=self.scal(), o=self.off(), m=self.m, o2=R.randint(0, self.m - 1))

    def mm(self, h, o):
        """An (h, M) product."""
        R = self.R
        a, w = self.rows(h, o), self.matW()
        f = R.choice(["{a} @ {w}", "xp.matmul({a}, {w})", "xp.dot({a}, {w})", "{a} @ {w}"])
        p = f.format(a=a, w=w)
        r = R.random()
        if r < 0.15:           # a chain: relu(x @ w + b) @ W2
            p = (f"xp.maximum({p} + b * {self.scal()}, 0) @ W2" if self.real else
                 f"({p} + b * {self.scal()}) @ W2")
        elif r < 0.25:          # reads Y under the product
            p = f"(Y[{o}:{o}+{h}] @ W2)"
        return p

    def mv(self, h, o):
        """An (h,) product."""
        R = self.R
        a, x = self.rows(h, o), self.vecK()
        return R.choice(["({a} @ {x})", "xp.matvec({a}, {x})", "xp.dot({a}, {x})",
                         "({a} @ {x})"]).format(a=a, x=x)

    def vm(self):
        """An (M,) product."""
        R = self.R
        x, w = self.vecK(), self.matW()
        r = R.random()
        if r < 0.2:
            return f"({self.vecM()} @ W2)"
        return R.choice(["({x} @ {w})", "xp.vecmat({x}, {w})", "xp.dot({x}, {w})",
                         "({x} @ {w})"]).format(x=x, w=w)

    def vk(self):
        """A (K,) product."""
        R = self.R
        return R.choice(["(W @ {y})", "(Wt.T @ {y})", "({y} @ Wt)"]).format(y=self.vecM())

    def wrap(self, p, kind, h=None, o=None):
        """An elementwise expression around product p (kind mm/mv/vm/vk)."""
        R = self.R
        s, s2 = self.scal(), self.scal()
        opts = ["{p}", "{p} * {s}", "{p} * {s} + {s}", "{p} * {s} + {s2}", "{p} + {p} * {s}",
                "xp.exp({p} * 0.01)", "{p} * 2.0 + 2.0", "({p} - {q}) * 0.5", "{p} + {bias}"]
        if self.real:
            opts += ["xp.maximum({p}, 0)", "xp.tanh({p})", "xp.maximum({p} * {s}, {s2})"]
        f = R.choice(opts)
        q = bias = None
        if "{q}" in f:
            q = {"mm": lambda: self.mm(h, self.off()), "mv": lambda: self.mv(h, self.off()),
                 "vm": self.vm, "vk": self.vk}[kind]()
        if "{bias}" in f:
            bias = {"mm": lambda: R.choice(["b", "Y[{o}:{o}+{h}]".format(o=self.off(), h=h)]),
                    "mv": lambda: "c[{o}:{o}+{h}]".format(o=self.off(), h=h),
                    "vm": lambda: R.choice(["b", "Z[{o}:{o}+{m}]".format(o=self.off(), m=self.m)]),
                    "vk": lambda: "v[{o}:{o}+{k}]".format(o=self.off(), k=self.k)}[kind]()
        return f.format(p=p, s=s, s2=s2, q=q, bias=bias)

    def value(self, kind, h=None, o=None):
        p = {"mm": lambda: self.mm(h, o), "mv": lambda: self.mv(h, o), "vm": self.vm,
             "vk": self.vk}[kind]()
        if self.R.random() < 0.25:       # the product named, used twice
            t = self.new()
            self.emit(f"{t} = {p}")
            p = t
        return self.wrap(p, kind, h, o)

    def new(self):
        self.tmp += 1
        return f"t{self.tmp}"

    def emit(self, s):
        self.lines.append(s)

    def maybe_ev(self, *names):
        r = self.R.random()
        if r < 0.55:
            self.emit(f"ev({', '.join(names)})")
        elif r < 0.7:
            self.emit(f"host({names[0]})")

    def after(self, f, t, ev="ev(Y)"):
        """After statement template `f`: its result `t` evaluated at times and kept, or,
        where it wrote in place, `ev` (the evaluation of what it wrote) at times."""
        if "{t}" in f:
            self.maybe_ev(t)
            self.collect(t)
        elif self.R.random() < 0.6:
            self.emit(ev)

    def collect(self, t):
        R = self.R
        r = R.random()
        if r < 0.35:
            self.emit(f"if i % {R.randint(3, 7)} == {R.randint(0, 2)}: out.append(host({t}))")
        elif r < 0.6:
            self.emit(f"if i % {R.randint(3, 7)} == {R.randint(0, 2)}: out.append({t})")

    # ------------------------------------------------------------------ statements
    def stmt(self):
        R = self.R
        kinds = ["temp", "multi", "write_mm", "write_vec", "inplace", "selfread", "writev"]
        if self.real:
            kinds += ["sortcum", "sortcum"]
        if self.seed >= 10000:
            kinds += ["out", "linalg", "tprod", "batched", "chain2", "reduceprod", "mixed_ev",
                      "hostscalar"]
        if self.seed >= 20000:
            kinds += ["keepmid", "keepmid", "zerok", "flip", "flip", "alpha"]
        if self.seed >= 70000:
            kinds += ["accum", "accum", "reuse", "reuse", "reuse"]
        if self.seed >= 60000:
            kinds += ["multinobar"] * 4
        if self.seed >= 50000:
            kinds += ["reducewrite", "reducewrite", "rows", "rows", "multishape"]
        if self.seed >= 30000:
            kinds += ["viewval", "viewval", "mixed", "mixed", "intprod"]
            if not self.real:
                kinds += ["conj", "conj"]
        k = R.choice(kinds)
        getattr(self, "st_" + k)()

    def st_temp(self):
        R = self.R
        kind = R.choice(["mm", "mv", "vm", "vk"])
        h, o = self.h(), self.off()
        t = self.new()
        self.emit(f"{t} = {self.value(kind, h, o)}")
        self.maybe_ev(t)
        self.collect(t)

    def st_multi(self):
        R = self.R
        ts = []
        for _ in range(R.randint(2, 3)):
            kind = R.choice(["mm", "mv", "vm", "vk"])
            h, o = self.h(), self.off()
            t = self.new()
            if ts and R.random() < 0.4:
                self.emit(f"{t} = {ts[-1]} * {self.scal()} + 1.0")
            else:
                self.emit(f"{t} = {self.value(kind, h, o)}")
            ts.append(t)
        self.emit(f"ev({', '.join(ts)})")
        for t in ts:
            self.collect(t)

    def dest_rows(self, h, o):
        R = self.R
        return R.choice(["Y[{o}:{o}+{h}]", "Y[{o}:{o}+2*{h}:2]", "Y[{o}:{o}+{h}, :]",
                         "Y[{o}:{o}+{h}]"]).format(o=o, h=h)

    def st_write_mm(self):
        R = self.R
        h, o = self.h(), self.off()
        if R.random() < 0.15:
            h, o = str(self.N), "0"
            d = R.choice(["Y[:]", "Y[...]", "Y[0:]"])
        else:
            d = self.dest_rows(h, o)
        val = self.value("mm", h, R.choice([o, self.off()]))
        if R.random() < 0.25:           # reads the destination element for element
            val = f"{d} * {self.scal()} + {val}"
        if h == str(self.N):
            val = val.replace(f"{self.N}", f"{self.N}")
            # full-Y writes use the whole A only when shapes allow: fall back to Y @ W2
            val = R.choice([f"Y @ W2 * {self.scal()} + Y * 0.5", f"(Y @ W2) + b",
                            f"xp.maximum(Y @ W2, 0) + b" if self.real else "Y @ W2 * 0.5"])
        self.emit(f"{d} = {val}")
        if R.random() < 0.6:
            self.emit("ev(Y)")

    def st_write_vec(self):
        R = self.R
        r = R.random()
        if r < 0.4:
            o = R.randint(0, self.N - 1)
            d = R.choice([f"Y[{o}]", f"Y[i % {self.N}]", f"Y[-1 - i % {self.N}]"])
            val = self.value("vm")
        elif r < 0.7:
            h, o = self.h(), self.off()
            q = R.choice([str(R.randint(0, self.m - 1)), f"i % {self.m}"])
            d = f"Y[{o}:{o}+{h}, {q}]"
            val = self.value("mv", h, o)
        else:
            o = self.off(7)
            d = f"Z[{o}:{o}+{self.m}]"
            val = self.value("vm")
        if R.random() < 0.2:
            val = f"{d} * 0.5 + {val}"
        self.emit(f"{d} = {val}")
        if R.random() < 0.6:
            self.emit(f"ev({d.split('[')[0]})")

    def st_inplace(self):
        R = self.R
        op = R.choice(["+=", "-=", "+=", "*="])
        r = R.random()
        if r < 0.45:
            h, o = self.h(), self.off()
            d = R.choice([self.dest_rows(h, o), "Y"]) if self.R.random() < 0.8 else self.dest_rows(h, o)
            if d == "Y":
                val = "Y @ W2"
            else:
                val = self.value("mm", h, R.choice([o, self.off()]))
        elif r < 0.75:
            o = self.off(7)
            d = f"Z[{o}:{o}+{self.m}]"
            val = self.value("vm")
        else:
            o = self.off(7)
            d = f"v[{o}:{o}+{self.k}]"
            val = self.value("vk")
        if op == "*=":
            val = f"xp.exp(xp.tanh({val}) * 0.01)" if self.real else \
                f"(1.0 + 0.01 * ({val}) / (1.0 + xp.abs({val})))"
        else:
            val = f"({val}) * 0.1"
        self.emit(f"{d} {op} {val}")
        if R.random() < 0.6:
            self.emit(f"ev({d.split('[')[0]})")

    def st_selfread(self):
        R = self.R
        n, N, m = self.n, self.N, self.m
        o = self.off(N - n)
        f = R.choice([
            "Y[1:] = Y[:-1] @ W2 * {s}",
            "Y[{o}+1:{o}+1+{n}] = Y[{o}:{o}+{n}] @ W2 * {s}",
            "Y[{o}:{o}+{n}] = Y[{o}:{o}+{n}] @ W2 + b",
            "Y[{o}:{o}+{n}] = (Y[{o}:{o}+{n}] @ W2) * {s} + Y[{o}:{o}+{n}] * 0.5",
            "Y[{o}+1:{o}+1+{n}] = Y[{o}:{o}+{n}] * 0.5 + (Y[{o}+1:{o}+1+{n}] @ W2)",
            "Y[:] = Y @ W2 * 0.5 + Y * {s} * 0.1",
            "Y[:-1] = Y[1:] * 0.5 + (A[:-1] @ W) * 0.1",
            "Z[1:{m}+1] = Z[0:{m}] @ W2",
            "Z[{p}:{p}+{m}] = Z[{p}:{p}+{m}] * 0.5 + Y[{o}] @ W2",
            "Z[{p}:{p}+{m}] = Z[{p2}:{p2}+{m}] @ W2 * {s} + 1.0",
            "Y[{o}] = Y[{o}] @ W2 + Z[{p}:{p}+{m}]",
            "Y[{o}:{o}+{n}] = Y[{o}+1:{o}+1+{n}] @ W2 - Y[{o}:{o}+{n}]",
        ])
        if "A[:-1] @ W" in f and self.k != self.k:
            pass
        self.emit(f.format(s=self.scal(), o=o, n=n, m=m, p=self.off(7), p2=self.off(7)))
        if R.random() < 0.6:
            self.emit("ev(Y, Z)" if R.random() < 0.3 else "ev(Y)")

    def st_writev(self):
        # writes into an operand of later products (v, A's rows)
        R = self.R
        o = self.off(7)
        val = self.value("vk")
        if R.random() < 0.3:
            val = f"v[{o}:{o}+{self.k}] * 0.5 + {val} * 0.1"
        if self.real:
            val = f"xp.tanh({val})"
        else:
            val = f"({val}) * 0.1"
        d = R.choice([f"v[{o}:{o}+{self.k}]", f"A[{self.off(self.N)}]"])
        self.emit(f"{d} = {val}")
        if R.random() < 0.5:
            self.emit(f"ev({d.split('[')[0]})")

    def st_sortcum(self):
        R = self.R
        L2 = R.randint(3, 20)
        o, o2 = self.off(self.L - 2 * L2), self.off(self.L - 2 * L2)
        s = self.scal()
        h = self.n
        f = R.choice([
            "S[:{L2}] = xp.sort(S[{L2}:2*{L2}] * {s}) * 2",
            "S[{o}:{o}+{L2}] = xp.cumsum(S[{o2}:{o2}+{L2}] * 0.1) * {s}",
            "{t} = xp.sort({mv}) + c[{o}:{o}+{h}]",
            "{t} = xp.cumsum({mv} * {s}) + {mv2}",
            "Z[{o}:{o}+{m}] = xp.cumsum({vm}) * 0.1",
            "Z[{o}:{o}+{m}] = xp.sort(Z[{o}:{o}+{m}] + {vm}) * 0.5",
            "S[{o}:{o}+{L2}] = xp.sort(S[{o}:{o}+{L2}]) * 0.5 + xp.cumsum(S[{o2}:{o2}+{L2}]) * 0.01",
            "{t} = xp.sort(S * {s}) + xp.sort(S * {s})",
            "{t} = xp.cumsum({mm}, axis={ax}) * {s}",
        ])
        t = self.new()
        if "Z[" in f:
            o = self.off(7)
        if "c[" in f:
            o = self.off()
        self.emit(f.format(L2=L2, o=o, o2=o2, s=s, h=h, m=self.m, t=t,
                           mv=self.mv(h, self.off()), mv2=self.mv(h, self.off()),
                           vm=self.vm(), mm=self.mm(h, self.off()), ax=R.randint(0, 1)))
        self.after(f, t, f"ev({f.split('[')[0]})")

    # ------------------------------------------------------------------ v2 (seed >= 10000)
    def st_out(self):
        R = self.R
        h, o = self.h(), self.off()
        d = R.choice(["Y[{o}:{o}+{h}]", "Y[{o}:{o}+2*{h}:2]"]).format(o=o, h=h)
        f = R.choice(["xp.matmul({a}, {w}, out={d})", "xp.add({p}, b * {s}, out={d})",
                      "xp.multiply({p}, {s}, out={d})", "xp.subtract({d}, {p}, out={d})"])
        self.emit(f.format(a=self.rows(h, R.choice([o, self.off()])), w=self.matW(), d=d,
                           p=self.mm(h, self.off()), s=self.scal()))
        if R.random() < 0.6:
            self.emit("ev(Y)")

    def st_linalg(self):
        R = self.R
        m = self.m
        M = f"(W2 + ({self.scal()} + 2.0) * xp.eye({m}))"
        o = R.randint(0, self.N - 1)
        f = R.choice(["{t} = xp.linalg.solve({M}, b * {s}) + b",
                      "{t} = xp.linalg.inv({M}) @ Z[{p}:{p}+{m}] * {s}",
                      "Y[{o}] = xp.linalg.solve({M}, Y[{o}]) * 0.5 + {s}",
                      "Z[{p}:{p}+{m}] = xp.linalg.solve({M}, Z[{p}:{p}+{m}] + {vm})"])
        t = self.new()
        self.emit(f.format(t=t, M=M, s=self.scal(), p=self.off(7), m=m, o=o, vm=self.vm()))
        self.after(f, t, f"ev({f.split('[')[0]})")

    def st_tprod(self):
        R = self.R
        h, o, o2 = self.h(), self.off(), self.off()
        t = self.new()
        f = R.choice(["{t} = A[{o}:{o}+{h}].T @ Y[{o2}:{o2}+{h}] * {s}",
                      "{t} = xp.maximum(At[:, {o}:{o}+{h}] @ Y[{o2}:{o2}+{h}], 0) + {s}",
                      "Y[{o}:{o}+{h}] = (Y[{o}:{o}+{h}] @ Y[{o2}:{o2}+{h}].T) @ Y[{o2}:{o2}+{h}] * 0.001",
                      "Y[{o}:{o}+{h}] = (A[{o}:{o}+{h}] @ A[{o2}:{o2}+{h}].T) @ Y[{o2}:{o2}+{h}] * 0.01 + Y[{o}:{o}+{h}] * 0.5"])
        if not self.real:
            f = f.replace("xp.maximum(", "(").replace(", 0)", ")")
        self.emit(f.format(t=t, o=o, o2=o2, h=h, s=self.scal()))
        self.after(f, t)

    def st_batched(self):
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        f = R.choice(["{t} = (A[{o}:{o}+2*{h}].reshape(2, {h}, {k}) @ {w}) * {s}",
                      "{t} = xp.einsum('ij,jk->ik', {a}, {w}) + {s}",
                      "{t} = xp.tensordot({a}, {w}, axes=1) * {s} + b",
                      "{t} = xp.stack([{a}, {a2}]) @ xp.stack([{w}, W]) + 1.0",
                      "Y[{o}:{o}+2*{h}] = (A[{o}:{o}+2*{h}].reshape(2, {h}, {k}) @ {w}).reshape(2*{h}, {m}) * {s}"])
        self.emit(f.format(t=t, o=o, h=h, k=self.k, m=self.m, w=self.matW(), s=self.scal(),
                           a=self.rows(h, o), a2=self.rows(h, self.off())))
        self.after(f, t)

    def st_chain2(self):
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        f = R.choice(["{t} = ({a} @ {w}) @ W2",
                      "{t} = ({a} @ {w}).T @ c[{o}:{o}+{h}] * {s}",
                      "{t} = W2 @ ({a} @ {w}).T",
                      "{t} = (({a} @ {w}) @ W2) @ W2.T + {s}"])
        self.emit(f.format(t=t, o=o, h=h, a=self.rows(h, o), w=self.matW(), s=self.scal()))
        self.maybe_ev(t)
        self.collect(t)

    def st_reduceprod(self):
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        p = self.mm(h, o)
        f = R.choice(["{t} = {p} * xp.dot(v[{o}:{o}+{k}], A[{o2}])",
                      "{t} = {p} / (1.0 + xp.sum(xp.abs({p})))",
                      "{t} = {p} - xp.mean({p}, axis=0)",
                      "Y[{o}:{o}+{h}] = {p} - xp.max(xp.real({p}), axis=1, keepdims=True)"])
        self.emit(f.format(t=t, p=p, o=o, o2=self.off(), k=self.k, h=h))
        self.after(f, t)

    def st_mixed_ev(self):
        R = self.R
        h, o = self.h(), self.off()
        t, u = self.new(), self.new()
        self.emit(f"{t} = {self.mm(h, o)}")
        f = R.choice(["ev({t}, {t})", "{u} = {t} * 2.0\nev({t}, {u})",
                      "{u} = {t} * {s}\nev({u}, {t})", "{u} = {t} + Y[{o}:{o}+{h}]\nev(Y, {u})",
                      "{u} = {t} @ W2\nev({u}, {t})", "{u} = xp.sort(xp.real({t}), axis=1)\nev({t}, {u})"])
        for ln in f.format(t=t, u=u, s=self.scal(), o=o, h=h).split("\n"):
            self.emit(ln)
        self.collect(t)
        if "{u}" in f:
            self.collect(u)

    def st_hostscalar(self):
        R = self.R
        p = R.choice([self.mm(self.h(), self.off()), self.vm(), self.vk()])
        f = R.choice(["out.append(float(xp.sum(xp.real({p}))))",
                      "out.append(host({p}))",
                      "out.append(host(xp.real({p}) * {s}))"])
        self.emit(f.format(p=p, s=self.scal()))

    # ------------------------------------------------------------------ v3 (seed >= 20000)
    def st_keepmid(self):
        # an intermediate kept by the caller (realized into its slot by the program), its
        # sources then overwritten, the intermediate read afterwards
        R = self.R
        h, o = self.h(), self.off()
        t, u = self.new(), self.new()
        act = "xp.maximum({x}, 0)" if self.real else "({x}) * 0.5"
        self.emit(f"{t} = " + act.format(x=f"{self.rows(h, o)} @ {self.matW()} + b * {self.scal()}"))
        self.emit(f"{u} = {t} @ W2 + {self.scal()}")
        self.emit(R.choice([f"ev({u})", f"host({u})", f"ev({u}, Y)"]))
        w = R.choice(["A[{o}:{o}+{h}] = A[{o}:{o}+{h}] * 0.5 + 0.25",
                      "b[:] = b * 0.9 + 0.01",
                      "A[{o}] = A[{o}] * -1.0",
                      "W[...] = W * 0.99"]).format(o=o, h=h)
        if R.random() < 0.8:
            self.emit(w)
        self.emit(R.choice([f"Y[{o}:{o}+{h}] = {t} * 0.5 + Y[{o}:{o}+{h}] * 0.5",
                            f"out.append(host({t}))", f"out.append({t} + 0.0)"]))
        self.collect(u)

    def st_zerok(self):
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        f = R.choice(["{t} = A[{o}:{o}+{h}, :0] @ W[:0] + {s}",
                      "{t} = A[{o}:{o}+{h}, :0] @ v[:0] + c[{o}:{o}+{h}]",
                      "{t} = v[:0] @ W[:0] * {s} + b",
                      "{t} = xp.sort(c[:0] * {s})",
                      "{t} = xp.cumsum(c[{o}:{o}] * {s}) + 1.0",
                      "{t} = A[{o}:{o}, :] @ W + 1.0",
                      "Y[{o}:{o}] = A[{o}:{o}] @ W * {s}",
                      "Y[{o}:{o}+{h}] = A[{o}:{o}+{h}, :0] @ W[:0] + Y[{o}:{o}+{h}] * {s}"])
        if not self.real and "sort" in f:
            f = "{t} = A[{o}:{o}, :] @ W + 1.0"
        self.emit(f.format(t=t, o=o, h=h, s=self.scal()))
        self.after(f, t)

    def st_flip(self):
        # call arguments that change between iterations on one signature (square operands:
        # a transposed or not, an axis)
        R = self.R
        m = self.m
        t = self.new()
        q = R.randint(2, 4)
        f = R.choice(["{t} = (W2.T if i % {q} == 0 else W2) @ Y[{o}:{o}+{n}].T * {s}",
                      "{t} = Y[{o}:{o}+{m}] @ (W2.T if i % {q} == 1 else W2) + {s}",
                      "{t} = (W2 * {s}).T @ b if i % {q} else (W2 * {s}) @ b",
                      "{t} = xp.cumsum(W2 * {s}, axis=i % 2) + W2",
                      "{t} = xp.sort(Y[{o}:{o}+{m}] * {s}, axis=i % 2) - 1.0",
                      "{t} = xp.cumsum(Y[{o}:{o}+{m}].T if i % {q} else Y[{o}:{o}+{m}], axis=0) * 0.5",
                      "Y[{o}:{o}+{m}] = (Y[{o}:{o}+{m}].T if i % {q} else Y[{o}:{o}+{m}]) @ W2 * 0.5",
                      "Y[{o}:{o}+{m}] = xp.sort(Y[{o}:{o}+{m}], axis=i % 2) * 0.5 + (W2 @ W2.T if i % {q} else W2.T @ W2)"])
        if not self.real:
            f = f.replace("xp.sort(", "xp.exp(").replace(", axis=i % 2)", " * 0.01)")
        o = self.off(self.N - m + 1) if self.N >= m else None
        if o is None:
            return
        self.emit(f.format(t=t, o=o, q=q, s=self.scal(), n=self.n, m=m))
        self.after(f, t)

    def st_alpha(self):
        # a scaled operand (the call's alpha) whose scale is sometimes 0 or 1
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        s = R.choice(["float(i % 3)", "float(i % 2)", "(1.0 if i % 2 else -1.0)", "float(i % 4 == 0)"])
        f = R.choice(["{t} = ({s} * A[{o}:{o}+{h}]) @ W + b",
                      "{t} = (A[{o}:{o}+{h}] * {s}) @ (W * {s}) + {s}",
                      "{t} = ({s} * W2) @ Z[{p}:{p}+{m}] + Z[{p}:{p}+{m}]",
                      "Y[{o}:{o}+{h}] = ({s} * A[{o}:{o}+{h}]) @ W + Y[{o}:{o}+{h}] * {s}",
                      "Y[{o}:{o}+{h}] += (A[{o}:{o}+{h}] * {s}) @ W"])
        self.emit(f.format(t=t, s=s, o=o, h=h, p=self.off(7), m=self.m))
        self.after(f, t)

    # ------------------------------------------------------------------ v4 (seed >= 30000)
    def st_viewval(self):
        # views of a product's result: the value of a write, an operand of the next
        R = self.R
        h, o = self.h(), self.off()
        n, m, N = self.n, self.m, self.N
        t = self.new()
        p = self.mm(n, o)
        q = R.randint(0, m - 1)
        f = R.choice(["{t} = ({p})[::-1] * {s} + 1.0",
                      "{t} = ({p}).T * {s}",
                      "{t} = ({p})[1:] - ({p})[:-1]",
                      "{t} = ({p})[:, {q}] * {s} + c[{o}:{o}+{n}]",
                      "{t} = ({p})[::2] @ W2 + {s}",
                      "{t} = xp.maximum(({p}).reshape(-1), 0)[::3] * {s}" if self.real else "{t} = ({p}).reshape(-1)[::3] * {s}",
                      "Y[{o}:{o}+{n}] = ({p})[::-1]",
                      "Y[{o}:{o}+{n}, {q}] = ({p})[:, {q2}] * {s}",
                      "Y[{o}:{o}+{n}] = ({p2})[:, ::-1] + Y[{o}:{o}+{n}] * 0.5",
                      "Z[{pp}:{pp}+{m}] = ({p})[{r}] + {s}",
                      "Y[{o}:{o}+{n}][::-1] = ({p}) * {s}"])
        self.emit(f.format(t=t, p=p, p2=self.mm(n, o), s=self.scal(), q=q, q2=R.randint(0, m - 1),
                           o=o, n=n, pp=self.off(7), m=m, r=R.randint(0, n - 1)))
        self.after(f, t, "ev(Y, Z)" if "Z[" in f else "ev(Y)")

    def st_mixed(self):
        # operands of other dtypes: casts before the call
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        other = "xp.float32" if self.dt != "float32" else "xp.float64"
        f = R.choice(["{t} = A[{o}:{o}+{h}].astype({od}) @ W.astype({od}) + {s}",
                      "{t} = A[{o}:{o}+{h}] @ W.astype({od}) * {s}",
                      "{t} = (A[{o}:{o}+{h}].astype({od}) @ v[{p}:{p}+{k}]) + c[{o}:{o}+{h}]",
                      "Y[{o}:{o}+{h}] = (A[{o}:{o}+{h}].astype({od}) @ W.astype({od})) * {s}",
                      "Y[{o}:{o}+{h}] += A[{o}:{o}+{h}].astype({od}) @ (W * 0.1).astype({od})"])
        if self.real:
            f = f.replace("{od}", other)
        else:
            f = f.replace("{od}", "xp.complex64")
        self.emit(f.format(t=t, o=o, h=h, p=self.off(), k=self.k, s=self.scal()))
        self.after(f, t)

    def st_intprod(self):
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        f = R.choice(["{t} = ((A[{o}:{o}+{h}].real * 4).astype(xp.int64) @ (W.real * 4).astype(xp.int64)) * 2 + i",
                      "{t} = ((A[{o}:{o}+{h}].real * 4).astype(xp.int32) @ (v[{p}:{p}+{k}].real * 4).astype(xp.int32)) + i",
                      "{t} = xp.cumsum((A[{o}:{o}+{h}].real * 4).astype(xp.int64), axis=1) @ (W.real * 4).astype(xp.int64)"])
        self.emit(f.format(t=t, o=o, h=h, p=self.off(), k=self.k))
        self.maybe_ev(t)
        self.collect(t)

    def st_conj(self):
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        q = R.randint(2, 3)
        f = R.choice(["{t} = (A[{o}:{o}+{h}].conj() if i % {q} else A[{o}:{o}+{h}]) @ W + {s}",
                      "{t} = (W2.conj().T if i % {q} else W2.T) @ Z[{p}:{p}+{m}] * {s}",
                      "{t} = (W2.conj().T if i % {q} == 0 else W2) @ Y[{o}:{o}+{m}].T",
                      "{t} = xp.vdot(v[{p}:{p}+{k}], A[{o}]) * A[{o}:{o}+{h}] @ W",
                      "{t} = At[:, {o}:{o}+{h}].conj().T @ W * {s} + b",
                      "Y[{o}:{o}+{h}] = A[{o}:{o}+{h}].conj() @ W.conj() - Y[{o}:{o}+{h}] * {s}"])
        if "{m}" in f and "Y[" in f and self.N - self.m + 1 <= 0:
            return
        oo = self.off(min(self.span, self.N - self.m + 1)) if "Y[{o}:{o}+{m}]" in f else o
        self.emit(f.format(t=t, o=oo, h=h, q=q, s=self.scal(), p=self.off(7), m=self.m, k=self.k))
        self.after(f, t)

    # ------------------------------------------------------------------ v5 (seed >= 50000)
    def st_reducewrite(self):
        R = self.R
        h, o = self.h(), self.off()
        p = self.mm(h, o)
        fn = R.choice(["sum", "max", "mean"]) if self.real else R.choice(["sum", "mean"])
        m, n = self.m, self.n
        f = R.choice(["Z[{pp}:{pp}+{m}] = xp.{fn}({p}, axis=0) * {s}",
                      "Z[{pp}:{pp}+{m}] += xp.{fn}({p}, axis=0) * 0.1",
                      "Y[{o}:{o}+{hh}, {q}] = xp.{fn}({p2}, axis=1) + {s}",
                      "Y[{r}, {q}] = xp.{fn}({p}) * {s}",
                      "Y[{r}] = xp.{fn}({p}, axis=0) + Y[{r}] * 0.5",
                      "Z[i % {m}] = xp.sum(({vm}) * b) + {s}",
                      "Z[{pp}:{pp}+{m}] = xp.{fn}({p}, axis=0, keepdims=True)[0] - Z[{pp}:{pp}+{m}]"])
        self.emit(f.format(pp=self.off(7), m=m, fn=fn, p=p, p2=self.mm(n, o), s=self.scal(),
                           o=o, hh=n, q=R.randint(0, m - 1), r=R.choice([str(R.randint(0, self.N - 1)), f"i % {self.N}"]),
                           vm=self.vm()))
        if R.random() < 0.6:
            self.emit(R.choice(["ev(Y)", "ev(Z)", "ev(Y, Z)"]))

    def st_rows(self):
        R = self.R
        h, o = self.h(), self.off()
        p = self.mm(h, o)
        t = self.new()
        self.emit(f"{t}p = {p}")
        pp = f"{t}p"
        if self.real:
            opts = ["xp.exp({pp} - xp.max({pp}, axis=1, keepdims=True)) / xp.sum(xp.exp({pp} - xp.max({pp}, axis=1, keepdims=True)), axis=1, keepdims=True)",
                    "({pp} - xp.mean({pp}, axis=-1, keepdims=True)) / xp.sqrt(xp.var({pp}, axis=-1, keepdims=True) + 1e-5)",
                    "{pp} / xp.sqrt(xp.sum({pp} * {pp}, axis=1, keepdims=True) + 1.0) * {s}"]
        else:
            opts = ["{pp} / xp.sqrt(xp.sum(xp.abs({pp}) ** 2, axis=1, keepdims=True) + 1.0) * {s}",
                    "{pp} - xp.mean({pp}, axis=0) * {s}"]
        val = R.choice(opts).format(pp=pp, s=self.scal())
        if R.random() < 0.5:
            d = R.choice(["Y[{o}:{o}+{h}]", "Y[{o}:{o}+2*{h}:2]"]).format(o=o, h=h)
            self.emit(f"{d} = {val}")
            if R.random() < 0.6:
                self.emit("ev(Y)")
        else:
            self.emit(f"{t} = {val}")
            self.maybe_ev(t)
            self.collect(t)

    def st_multishape(self):
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        self.emit(f"{t} = {self.mm(h, o)}")
        ts = [f"{t}a", f"{t}b", f"{t}c"]
        self.emit(f"{ts[0]} = xp.sum({t}, axis=0) * {self.scal()}")
        self.emit(f"{ts[1]} = xp.{R.choice(['max', 'sum', 'mean']) if self.real else 'sum'}({t}, axis=1) + {self.scal()}")
        self.emit(f"{ts[2]} = {t} * {self.scal()} + 1.0")
        k = R.randint(2, 3)
        self.emit(f"ev({', '.join(R.sample(ts, k))})")
        for x in ts:
            self.collect(x)

    # ------------------------------------------------------------------ v6 (seed >= 60000)
    def st_multinobar(self):
        # several roots, no library call: reductions of several shapes, elementwise
        # roots, a rows chain (programs replay these too)
        R = self.R
        h, o = self.h(), self.off()
        t = self.new()
        base = R.choice(["A[{o}:{o}+{h}] * {s} + At[:, {o}:{o}+{h}].T",
                         "Y[{o}:{o}+{h}] * {s}", "xp.exp(Y[{o}:{o}+{h}] * 0.01) + {s}",
                         "A[{o}:{o}+2*{h}:2] - A[{o}:{o}+{h}] * {s}"]).format(o=o, h=h, s=self.scal())
        self.emit(f"{t} = {base}")
        red = ["sum", "mean"] + (["max", "min"] if self.real else [])
        cands = [f"xp.{R.choice(red)}({t}, axis=0)", f"xp.{R.choice(red)}({t}, axis=1)",
                 f"xp.{R.choice(red)}({t}, axis=1, keepdims=True) * {t}",
                 f"{t} * {self.scal()} + 1.0", f"xp.sum({t})", f"{t}.T * 2.0",
                 f"{t} - xp.mean({t}, axis=0)", f"xp.{R.choice(red)}({t}, axis=0) + b[0]"]
        roots = R.sample(cands, R.randint(2, 4))
        names = []
        for r in roots:
            u = self.new()
            self.emit(f"{u} = {r}")
            names.append(u)
        if R.random() < 0.3:
            names.append(t)
        self.emit(f"ev({', '.join(names)})")
        for u in names:
            self.collect(u)
        if R.random() < 0.3:
            self.emit(f"Y[{o}:{o}+{h}] = {names[0]} * 0.5 + Y[{o}:{o}+{h}] * 0.5" if "axis" not in roots[0] or "keepdims" in roots[0] else f"Y[{o}:{o}+{h}] = Y[{o}:{o}+{h}] * 0.5")

    # ------------------------------------------------------------------ v7 (seed >= 70000)
    def fixed(self, kind, name):
        if not hasattr(self, "fixed_temps"):
            self.fixed_temps = {"vm": [], "vk": [], "mmn": []}
        self.fixed_temps[kind].append(name)

    def st_accum(self):
        # a lazy accumulator across iterations, evaluated now and then
        R = self.R
        if not hasattr(self, "pre"):
            self.pre = []
        a = f"acc{self.new()}"
        kind = R.choice(["mmn", "vm", "vk"])
        n, m, k = self.n, self.m, self.k
        shape = {"mmn": f"({n}, {m})", "vm": f"({m},)", "vk": f"({k},)"}[kind]
        self.pre.append(f"{a} = xp.zeros({shape}, dtype=Y.dtype)")
        p = {"mmn": lambda: self.mm(str(n), self.off()), "vm": self.vm, "vk": self.vk}[kind]()
        self.emit(f"{a} = {a} * {R.choice(['0.5', '0.9', '1.0'])} + {p} * {self.scal()}")
        e = R.randint(2, 5)
        self.emit(f"if i % {e} == {R.randint(0, e - 1)}: " +
                  R.choice([f"ev({a})", f"out.append(host({a}))", f"ev({a}, Y)"]))
        self.fixed(kind, a)
        if R.random() < 0.5:
            d = {"mmn": "Y[{o}:{o}+{n}]", "vm": "Z[{p}:{p}+{m}]", "vk": "v[{p}:{p}+{k}]"}[kind]
            d = d.format(o=self.off(), n=n, p=self.off(7), m=m, k=k)
            self.emit(f"if i % 4 == 3: {d} = {a} * 0.1 + {d} * 0.5")

    def st_reuse(self):
        # a temporary (or accumulator) of an earlier statement read again, lazily
        R = self.R
        ft = getattr(self, "fixed_temps", None)
        kinds = [k for k in ("vm", "vk", "mmn") if ft and ft[k]]
        n, m, k = self.n, self.m, self.k
        if not kinds or R.random() < 0.3:    # make one
            kind = R.choice(["vm", "vk", "mmn"])
            t = self.new()
            p = {"mmn": lambda: self.mm(str(n), self.off()), "vm": self.vm, "vk": self.vk}[kind]()
            self.emit(f"{t} = {self.wrap(p, 'mm' if kind == 'mmn' else kind, str(n))}")
            if R.random() < 0.3:
                self.emit(f"ev({t})")
            self.fixed(kind, t)
            return
        kind = R.choice(kinds)
        t = R.choice(ft[kind])
        u = self.new()
        f = {"vm": ["{u} = {t} @ W2 * {s} + {t}", "Z[{p}:{p}+{m}] = {t} * {s} + Z[{p}:{p}+{m}] * 0.5",
                    "{u} = xp.sort(xp.real({t})) + {s}", "Y[{o}] = {t} + {t} @ W2"],
             "vk": ["{u} = A[{o}:{o}+{n}] @ {t} * {s}", "v[{p}:{p}+{k}] = {t} * 0.1 + v[{p}:{p}+{k}] * 0.9",
                    "{u} = {t} @ W + b * {s}"],
             "mmn": ["{u} = {t} @ W2 + {t} * {s}", "Y[{o}:{o}+{n}] = {t} * 0.5 + Y[{o}:{o}+{n}] @ W2 * 0.5",
                     "{u} = ({t} @ W2).T @ A[{o}:{o}+{n}] * {s}", "Y[{o}:{o}+{n}] += {t}.T[::-1].T * 0.1"]}[kind]
        f = R.choice(f)
        if not self.real:
            f = f.replace("xp.sort(xp.real({t}))", "xp.exp({t} * 0.01)")
        self.emit(f.format(u=u, t=t, s=self.scal(), p=self.off(7), m=m, k=k, n=n, o=self.off()))
        if "{u}" in f:
            self.maybe_ev(u)
            self.collect(u)
            if "@ W2 * {s} + {t}" in f:
                self.fixed("vm", u)
        elif R.random() < 0.5:
            self.emit(R.choice(["ev(Y)", "ev(Y, Z)", "ev(Z, v)"]))

    # ------------------------------------------------------------------ program
    def source(self):
        R = self.R
        for _ in range(R.randint(2, 6) if self.seed < 70000 else R.randint(4, 9)):
            self.stmt()
        body = "\n".join("        " + ln for ln in self.lines)
        pre = "".join(f"    {ln}\n" for ln in getattr(self, "pre", []))
        return (f"def prog(xp, ev, host, {', '.join(NAMES)}):\n"
                f"    out = []\n{pre}"
                f"    for i in range({self.iters}):\n{body}\n"
                f"    return [{', '.join(NAMES)}] + out\n")

    def inputs(self):
        g = np.random.default_rng(self.seed)
        dt = np.dtype(self.dt)
        n, k, m, N, L = self.n, self.k, self.m, self.N, self.L

        def mk(*shape, scale=1.0):
            a = g.standard_normal(shape)
            if dt.kind == "c":
                a = a + 1j * g.standard_normal(shape)
            return (a * scale).astype(dt)
        sk = 1.0 / np.sqrt(max(k, 1))
        return {"A": mk(N, k), "At": mk(k, N), "W": mk(k, m, scale=sk),
                "Wt": mk(m, k, scale=sk), "W2": mk(m, m, scale=0.4 / np.sqrt(m)),
                "v": mk(k + 6), "b": mk(m), "c": mk(N + 6), "Y": mk(N, m), "Z": mk(m + 6),
                "S": g.standard_normal(L).astype(dt if dt.kind == "f" else np.float64)}


def generate(seed):
    g = Gen(seed)
    return g.source(), g.inputs(), g.dt
