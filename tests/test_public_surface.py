"""The public surface is discoverable: every public module lists its names in ``__all__``,
``dir()`` shows those names and no imported modules or private helpers, every listed name
resolves, and ``help(gnumpy)`` lists the functions."""
import importlib
import importlib.util
import pydoc
import types

import pytest

import gnumpy

SUBMODULES = ("gnumpy.linalg", "gnumpy.fft", "gnumpy.random", "gnumpy.cuda",
              "gnumpy.profiler", "gnumpy.testing")
# and gnumpy.dask, which the namespace does not load (importing it registers with Dask)
PUBLIC_MODULES = SUBMODULES + (pytest.param("gnumpy.dask", marks=pytest.mark.skipif(
    importlib.util.find_spec("dask") is None, reason="dask is not installed")),)


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


@pytest.mark.parametrize("modname", PUBLIC_MODULES)
def test_submodule_dir_shows_only_public_names(modname):
    mod = importlib.import_module(modname)
    names = dir(mod)
    private = [n for n in names if n.startswith("_") and not _dunder(n)]
    assert not private, f"dir({modname}) shows private names: {private}"
    modules = [n for n in names if isinstance(getattr(mod, n), types.ModuleType)]
    assert not modules, f"dir({modname}) shows modules: {modules}"
    assert sorted(set(mod.__all__)) == sorted(mod.__all__), f"{modname}.__all__ repeats"
    assert set(mod.__all__) <= set(names)


@pytest.mark.parametrize("modname", PUBLIC_MODULES)
def test_submodule_all_resolves(modname):
    mod = importlib.import_module(modname)
    missing = [n for n in mod.__all__ if not hasattr(mod, n)]
    assert not missing, f"{modname}.__all__ names what it lacks: {missing}"


def test_namespace_all_resolves():
    names = gnumpy.__all__
    assert isinstance(names, list) and len(names) == len(set(names))
    assert {"ndarray", "asarray", "sum", "add", "linalg", "fft", "random", "config",
            "evaluate"} <= set(names)
    missing = [n for n in names if not hasattr(gnumpy, n)]
    assert not missing, f"gnumpy.__all__ names what gnumpy lacks: {missing}"
    assert not [n for n in names if n.startswith("_") and not _dunder(n)]


def test_namespace_dir_hides_private_helpers():
    names = dir(gnumpy)
    private = [n for n in names if n.startswith("_") and not _dunder(n)]
    assert not private, f"dir(gnumpy) shows private names: {private}"
    public_modules = {m.rpartition(".")[2] for m in SUBMODULES} | {"exceptions"}  # NumPy's
    modules = {n for n in gnumpy.__all__ if isinstance(getattr(gnumpy, n), types.ModuleType)}
    assert modules == public_modules, modules ^ public_modules


def test_help_lists_the_functions():
    text = pydoc.render_doc(gnumpy, renderer=pydoc.plaintext)
    functions = text[text.index("\nFUNCTIONS\n"):text.index("\nDATA\n")]
    for name in ("asarray", "zeros", "sum", "concatenate", "matmul", "where", "evaluate"):
        assert f"\n    {name}(" in functions, name
    assert "add = <ufunc 'add'>" in text        # the ufuncs are objects, listed under DATA
