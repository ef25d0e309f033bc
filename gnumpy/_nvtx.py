"""NVTX bindings: the first of NVIDIA's ``nvtx`` package, CuPy's ``cupy.cuda.nvtx`` or
PyTorch's ``torch.cuda.nvtx`` that imports, and the range names recorded for
``profiler.record_ranges``.  Imports nothing of gnumpy: the config module checks a binding
through it when ``config.nvtx`` is turned on, and ``profiler`` opens its ranges through it.
"""
from __future__ import annotations

_binding = []          # [(push(name), pop())] once resolved
recorders: list = []   # lists that profiler.record_ranges() appends range names to


def _resolve():
    """(push, pop) of the first NVTX binding that imports, or None."""
    try:
        import nvtx
        domain = nvtx.get_domain("gnumpy")
        attrs = {}

        def push(name):
            a = attrs.get(name)
            if a is None:
                a = attrs[name] = domain.get_event_attributes(message=name)
            domain.push_range(a)
        return push, domain.pop_range
    except Exception:       # noqa: BLE001 - not installed (or broken): try the next
        pass
    try:
        from cupy.cuda import nvtx as cnvtx
        return cnvtx.RangePush, cnvtx.RangePop
    except Exception:       # noqa: BLE001
        pass
    try:
        from torch.cuda import nvtx as tnvtx
        return tnvtx.range_push, tnvtx.range_pop
    except Exception:       # noqa: BLE001
        pass
    return None


def _get_binding():
    if not _binding:
        _binding.append(_resolve())
    return _binding[0]


def require_nvtx(on=True) -> None:
    """Raise RuntimeError when `on` and no NVTX binding can be imported (and no
    ``record_ranges`` block is active); ``config.set(nvtx=True)`` calls this."""
    if on and not recorders and _get_binding() is None:
        raise RuntimeError(
            "gnumpy.config.nvtx needs an NVTX binding and none imports here: install "
            "NVIDIA's nvtx package (pip install nvtx), or CuPy or PyTorch with CUDA")


def push(name: str) -> None:
    """Open range `name` (recorded by every active ``record_ranges``)."""
    for rec in recorders:
        rec.append(name)
    b = _get_binding()
    if b is not None:
        b[0](name)
    elif not recorders:
        require_nvtx()


def pop() -> None:
    """Close the innermost range."""
    b = _get_binding()
    if b is not None:
        b[1]()
