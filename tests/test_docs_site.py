"""The documentation site builds (Sphinx, docs/conf.py) with warnings as errors: a broken
link, a page outside the table of contents, a docstring that does not parse or a public
name without a docstring fails here.  Skipped only where Sphinx or myst-parser is not
installed (both come with the ``test`` extra)."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_docs_site_builds_without_warnings(tmp_path):
    pytest.importorskip("sphinx", reason="Sphinx is not installed (pip install '.[test]')")
    pytest.importorskip("myst_parser",
                        reason="myst-parser is not installed (pip install '.[test]')")
    out = tmp_path / "html"
    env = dict(os.environ, GNUMPY_DEVICE="cpu")
    r = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q",
                        "-b", "html", "docs", str(out)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"the site does not build:\n{r.stderr[-6000:]}"
    api = (out / "api" / "gnumpy.html").read_text()
    assert 'id="gnumpy.sum"' in api and 'id="gnumpy.add"' in api
    import gnumpy
    for mod in ("linalg", "fft", "random"):
        page = (out / "api" / f"gnumpy.{mod}.html").read_text()
        for name in getattr(gnumpy, mod).__all__:      # whatever the package exports
            obj = getattr(getattr(gnumpy, mod), name)
            if callable(obj) and (getattr(obj, "__module__", None) or "").startswith("gnumpy"):
                assert f'id="gnumpy.{mod}.{name}"' in page, (mod, name)
    assert "GNUMPY_NVTX" in (out / "api" / "config.html").read_text()
    assert (out / "guide.html").exists()
