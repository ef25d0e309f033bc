"""``gnumpy.show_config()`` and ``python -m gnumpy info``: what a bug report needs.

Versions of gnumpy, Python, NumPy and the CUDA packages; the NVRTC version; which of
NVIDIA's libraries (cuBLAS, cuSOLVER, cuFFT, nvJitLink) cuda-pathfinder finds, with their
versions; the driver and every device; the kernel cache directory; the memory pool of a
CUDA backend already started; every config value.

Nothing here raises: a missing package, library, driver or GPU is reported as "not found"
with the reason.  Nothing here starts a CUDA backend either (no context, stream or pool is
created): devices are read through the driver API, pool statistics only from a backend the
program already started.
"""
from __future__ import annotations

import os
import platform
import sys
from . import __version__
from ._config import config, _OPTIONS
from ._device import _backends, _default
from .backends import cuda_probe
from .kernels import cache

# distribution name -> what it brings
PACKAGES = (
    ("numpy", "NumPy"),
    ("cuda-core", "the CUDA backend (cuda.core: devices, streams, NVRTC programs)"),
    ("cuda-bindings", "CUDA driver and NVRTC bindings"),
    ("cuda-pathfinder", "finds NVIDIA's libraries"),
    ("nvidia-cuda-nvrtc", "NVRTC as a wheel"),
    ("nvmath-python", "cuBLAS / cuSOLVER / cuFFT bindings"),
    ("cuda-cccl", "CUB through cuda.compute"),
    ("nvtx", "NVTX ranges (config.nvtx)"),
)

# name shown -> (cuda-pathfinder name, how to read its version)
LIBRARIES = (
    ("cuBLAS", "cublas", "nvmath.bindings.cublas"),
    ("cuSOLVER", "cusolver", "nvmath.bindings.cusolver"),
    ("cuFFT", "cufft", "nvmath.bindings.cufft"),
    ("nvJitLink", "nvJitLink", "cuda.bindings.nvjitlink"),
)


def _why(e: BaseException, most: int = 160) -> str:
    """``Type: first line of the message``, at most `most` characters."""
    lines = str(e).strip().splitlines()
    s = f"{type(e).__name__}: {lines[0] if lines else ''}".rstrip(": ")
    return s if len(s) <= most else s[:most - 3] + "..."


def _package_version(dist: str):
    from importlib import metadata
    try:
        return metadata.version(dist)
    except Exception:               # noqa: BLE001 - PackageNotFoundError and broken metadata
        return None


def _nvrtc() -> dict:
    try:
        from cuda.bindings import nvrtc
        err, major, minor = nvrtc.nvrtcVersion()
        if int(err) != 0:
            return {"found": False, "why": f"nvrtcVersion: {err}"}
        out = {"found": True, "version": f"{int(major)}.{int(minor)}"}
    except Exception as e:          # noqa: BLE001 - no bindings, no libnvrtc, ...
        return {"found": False, "why": _why(e)}
    out["path"] = _library_path("nvrtc")[0]
    return out


def _library_path(name: str):
    """(path, None) where cuda-pathfinder finds library `name`, else (None, why)."""
    try:
        from cuda import pathfinder
    except Exception as e:          # noqa: BLE001
        return None, f"cuda-pathfinder is not installed ({_why(e)})"
    try:
        return pathfinder.load_nvidia_dynamic_lib(name).abs_path, None
    except Exception as e:          # noqa: BLE001 - DynamicLibNotFoundError and friends
        return None, _why(e)


def _library_version(module: str):
    import importlib
    m = importlib.import_module(module)
    if module.endswith("nvjitlink"):
        return ".".join(str(int(v)) for v in m.version())
    return ".".join(str(int(m.get_property(t))) for t in (0, 1, 2))   # major minor patch


def _libraries() -> dict:
    out = {}
    for shown, name, module in LIBRARIES:
        path, why = _library_path(name)
        if path is None:
            out[shown] = {"found": False, "why": why}
            continue
        ent = {"found": True, "path": path}
        try:
            ent["version"] = _library_version(module)
        except Exception as e:      # noqa: BLE001 - binding missing or too old
            ent["version_error"] = _why(e)
        out[shown] = ent
    return out


def _cuda() -> dict:
    n, why = cuda_probe.device_count()
    out = {"usable": n > 0, "why": why, "devices": []}
    if n == 0:
        return out
    try:
        from cuda.bindings import driver as d
        err, v = d.cuDriverGetVersion()
        if int(err) == 0:
            out["driver"] = f"{v // 1000}.{v % 1000 // 10}"
        A = d.CUdevice_attribute
        for i in range(n):
            _, dev = d.cuDeviceGet(i)
            _, name = d.cuDeviceGetName(256, dev)
            _, major = d.cuDeviceGetAttribute(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
            _, minor = d.cuDeviceGetAttribute(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
            _, sms = d.cuDeviceGetAttribute(A.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev)
            _, mem = d.cuDeviceTotalMem(dev)
            out["devices"].append({
                "id": i, "name": bytes(name).split(b"\0")[0].decode(errors="replace"),
                "compute_capability": f"{int(major)}.{int(minor)}",
                "multiprocessors": int(sms), "memory_bytes": int(mem)})
    except Exception as e:          # noqa: BLE001
        out["devices_error"] = _why(e)
    return out


def _kernel_cache() -> dict:
    d = os.path.join(config.cache_dir, "kernels")
    out = {"directory": d, "enabled": bool(config.disk_cache),
           "limit_bytes": int(config.disk_cache_max_bytes),
           "this_process": cache.counters.as_dict()}
    if not os.path.isdir(d):
        out.update(exists=False, entries=0, bytes=0)
        return out
    n = size = 0
    try:
        for e in os.scandir(d):
            if e.name.endswith(".cubin") and not e.name.startswith(".tmp-"):
                n += 1
                size += e.stat(follow_symlinks=False).st_size
    except OSError as e:
        out["error"] = _why(e)
    out.update(exists=True, entries=n, bytes=size)
    return out


def _pools() -> dict:
    """memory_info() of each CUDA backend this process already started."""
    out = {}
    for dev, be in list(_backends.items()):
        if dev.kind == "cuda":
            try:
                out[str(dev)] = dict(be.pool.info())
            except Exception as e:  # noqa: BLE001
                out[str(dev)] = {"error": _why(e)}
    return out


def _config() -> dict:
    return {o.name: {"value": getattr(config, o.name), "env": o.env,
                     "default": o.default} for o in _OPTIONS}


def _default_device():
    return {"setting": config.device,
            "chosen": None if _default is None else str(_default)}


def collect() -> dict:
    """Everything ``show_config`` prints, as nested dicts (each part collected on its own:
    one failing part is reported, never raised)."""
    info = {"gnumpy": __version__,
            "python": f"{platform.python_version()} ({platform.python_implementation()}, "
                      f"{platform.platform()})",
            "executable": sys.executable,
            "packages": {dist: _package_version(dist) for dist, _ in PACKAGES}}
    for key, fn in (("nvrtc", _nvrtc), ("libraries", _libraries), ("cuda", _cuda),
                    ("default_device", _default_device), ("kernel_cache", _kernel_cache),
                    ("memory_pools", _pools), ("config", _config)):
        try:
            info[key] = fn()
        except Exception as e:      # noqa: BLE001 - a report must come out whatever fails
            info[key] = {"error": _why(e)}
    return info


def _size(n) -> str:
    if not isinstance(n, (int, float)):
        return str(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def _found(ent: dict) -> str:
    if "error" in ent:
        return f"error ({ent['error']})"
    if not ent.get("found"):
        return f"not found ({ent.get('why')})"
    s = ent.get("version") or f"version unknown ({ent.get('version_error')})"
    return s + (f"  {ent['path']}" if ent.get("path") else "")


def render(info: dict) -> str:
    """The text of ``show_config()`` for `info` (``collect()``'s dict)."""
    out = [f"gnumpy {info['gnumpy']}", f"Python {info['python']}",
           f"  executable: {info['executable']}", "", "Packages:"]
    for dist, what in PACKAGES:
        v = info["packages"].get(dist)
        out.append(f"  {dist:<18} {v or 'not installed':<14} {what}")
    out += ["", "NVRTC and NVIDIA libraries (found by cuda-pathfinder):",
            f"  {'NVRTC':<10} {_found(info['nvrtc'])}"]
    libs = info["libraries"]
    if "error" in libs:
        out.append(f"  error ({libs['error']})")
    else:
        out += [f"  {name:<10} {_found(ent)}" for name, ent in libs.items()]
    cu = info["cuda"]
    out += ["", "CUDA:"]
    if "error" in cu:
        out.append(f"  error ({cu['error']})")
    elif not cu["usable"]:
        out.append(f"  not usable: {cu['why']}")
    else:
        out.append(f"  driver {cu.get('driver', 'version unknown')}, "
                   f"{len(cu['devices'])} device(s)")
        for dv in cu["devices"]:
            out.append(f"  cuda:{dv['id']}  {dv['name']}, compute capability "
                       f"{dv['compute_capability']}, {dv['multiprocessors']} SMs, "
                       f"{_size(dv['memory_bytes'])}")
        if "devices_error" in cu:
            out.append(f"  devices: error ({cu['devices_error']})")
    dd = info["default_device"]
    if "error" not in dd:
        chosen = dd["chosen"] or "not chosen yet (no array made)"
        out.append(f"  default device: {chosen} (config.device = {dd['setting']!r})")
    kc = info["kernel_cache"]
    out += ["", "Kernel cache:"]
    if "error" in kc and "directory" not in kc:
        out.append(f"  error ({kc['error']})")
    else:
        state = "" if kc["enabled"] else "  (disabled: config.disk_cache is off)"
        out.append(f"  directory: {kc['directory']}{state}")
        if kc["exists"]:
            out.append(f"  {kc['entries']} entries, {_size(kc['bytes'])} "
                       f"(limit {_size(kc['limit_bytes'])})")
        else:
            out.append("  (does not exist yet: nothing compiled)")
        if kc.get("error"):
            out.append(f"  error reading it ({kc['error']})")
        c = kc["this_process"]
        out.append(f"  this process: {c['memory_hits']} memory hits, {c['disk_hits']} disk "
                   f"hits, {c['misses']} compiles ({c['compile_seconds']:.2f} s)")
    pools = info["memory_pools"]
    out += ["", "Memory pool:"]
    if "error" in pools:
        out.append(f"  error ({pools['error']})")
        pools = {}
    elif not pools:
        out.append("  no CUDA backend started in this process")
    for dev, p in pools.items():
        if "error" in p:
            out.append(f"  {dev}: error ({p['error']})")
        else:
            out.append(f"  {dev}: " + ", ".join(
                f"{k} {_size(v) if k != 'limit' or v else 'none'}" for k, v in p.items()))
    out += ["", "Config (gnumpy.config; * differs from the default):"]
    cfg = info["config"]
    if "error" in cfg:
        out.append(f"  error ({cfg['error']})")
    else:
        for name, c in cfg.items():
            mark = "*" if c["value"] != c["default"] and name != "cache_dir" else " "
            out.append(f" {mark}{name} = {c['value']!r}  ({c['env']})")
    return "\n".join(out)


def show_config(mode: str = "stdout"):
    """Print the environment gnumpy runs in: what a bug report needs.

    Versions of gnumpy, Python, NumPy and the CUDA packages (cuda-core, cuda-bindings,
    cuda-pathfinder, nvmath-python, cuda-cccl); NVRTC's version; which of cuBLAS,
    cuSOLVER, cuFFT and nvJitLink are found, with their versions; the driver and each
    device (name, compute capability, memory), or why CUDA is not usable; the kernel cache
    directory, its size and entry count; pool statistics of the CUDA backends this process
    started; and every ``gnumpy.config`` value.  ``python -m gnumpy info`` prints the same.

    Parameters
    ----------
    mode : {"stdout", "dicts"}, optional
        ``"stdout"`` prints the report; ``"dicts"`` returns it as nested dicts instead (as
        ``numpy.show_config`` does).

    Returns
    -------
    dict or None
        The report with ``mode="dicts"``, else None.

    Notes
    -----
    Nothing is raised for a missing package, library, driver or GPU: each is reported as
    not found, with the reason.  No CUDA context is created.

    Examples
    --------
    >>> import gnumpy as gp
    >>> info = gp.show_config(mode="dicts")
    >>> sorted(info)[:3]
    ['config', 'cuda', 'default_device']
    """
    if mode not in ("stdout", "dicts"):
        raise ValueError(f"mode must be 'stdout' or 'dicts', not {mode!r}")
    info = collect()
    if mode == "dicts":
        return info
    print(render(info))
    return None
