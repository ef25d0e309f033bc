"""Named, versioned kernel cache keys.

A cubin on disk is valid only for the exact source, target architecture, NVRTC version,
compile options and gnumpy kernel schema that produced it; every part is named so a key
explains itself (``describe``).  Bump SCHEMA_VERSION whenever the meaning of generated
code changes without its text changing (for example a header's semantics).
"""
from __future__ import annotations

import hashlib

SCHEMA_VERSION = 1


def parts(source: str, arch: str, nvrtc_version: tuple, options: tuple, codegen: tuple) -> dict:
    return {
        "schema": SCHEMA_VERSION,
        "source_sha256": hashlib.sha256(source.encode()).hexdigest(),
        "arch": arch,
        "nvrtc": ".".join(str(v) for v in nvrtc_version),
        "options": repr(tuple(options)),
        "codegen_config": repr(tuple(codegen)),
    }


def digest(p: dict) -> str:
    text = "\n".join(f"{k}={p[k]}" for k in sorted(p))
    return hashlib.sha256(text.encode()).hexdigest()


def describe(p: dict) -> str:
    return ", ".join(f"{k}={p[k]}" for k in sorted(p))
