"""Sphinx configuration of gnumpy's documentation site: the Markdown pages of docs/ (MyST)
and an API reference generated from the code.

Build it with ``python3 -m sphinx -W -b html docs build/docs`` (tests/test_docs_site.py
does, with warnings as errors: a broken link, a page outside the table of contents, a
docstring that does not parse or a public name without a docstring fails the build).

Sphinx rather than MkDocs: autodoc imports the package and documents what it finds, so each
reference page lists exactly what a module exports (its ``__all__``), with NumPy-style
docstrings parsed by napoleon; ``-W`` turns every warning, including the missing-docstring
check below, into an error; and it is the tool NumPy, SciPy, CuPy and JAX document
themselves with.

The reference pages use one directive defined here, ``gnumpy-api MODULE``: a summary table
of the module's public names, then each one's full docstring, all on one page per module
(a page per function would multiply the build time by ten).
"""
from __future__ import annotations

import importlib
import inspect
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)

project = "gnumpy"
author = "the gnumpy developers"
copyright = "the gnumpy developers"          # noqa: A001 - Sphinx's name
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.autosummary",
              "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "bench"]
html_theme = "alabaster"
html_title = "gnumpy"
html_theme_options = {"page_width": "1180px", "sidebar_width": "230px"}
myst_heading_anchors = 3
smartquotes = False                        # keep --flags and quotes as typed
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_typehints = "none"                 # signatures as written; types in the docstrings
autosummary_generate = False
nitpicky = False


def _public(modname: str) -> list:
    """The public names of module `modname`: its ``__all__`` (gnumpy's own namespace lists
    its lazily loaded names too), or the non-underscore names it defines."""
    mod = importlib.import_module(modname)
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n, v in vars(mod).items() if not n.startswith("_")
                 and getattr(v, "__module__", modname).startswith(modname)
                 and not inspect.ismodule(v)]
    return sorted(set(names))


def _kind(obj) -> str:
    if inspect.ismodule(obj):
        return "module" if obj.__name__.startswith("gnumpy.") else "foreign"
    if inspect.isclass(obj):
        return "class" if obj.__module__.startswith("gnumpy") else "foreign"
    if callable(obj):
        mod = getattr(obj, "__module__", None) or type(obj).__module__
        return "function" if mod.startswith("gnumpy") else "foreign"
    return "object" if type(obj).__module__.startswith("gnumpy") else "data"


def api_lines(modname: str) -> list:
    """reStructuredText for module `modname`'s reference: summary table, then entries."""
    mod = importlib.import_module(modname)
    groups = {"function": [], "class": [], "module": [], "object": [], "foreign": [],
              "data": []}
    for n in _public(modname):
        groups[_kind(getattr(mod, n))].append(n)
    out = [f".. currentmodule:: {modname}", ""]
    documented = groups["function"] + groups["class"]
    if documented:
        out += [".. autosummary::", ""] + [f"   {n}" for n in documented] + [""]
    if groups["module"]:
        out += ["Submodules: " + ", ".join(f":doc:`{modname}.{n} <{modname}.{n}>`"
                                           for n in groups["module"]), ""]
    if groups["object"]:
        out += ["Objects: " + ", ".join(
            ":doc:`config <config>`" if n == "config" else
            f"``{n}`` (a ``{type(getattr(mod, n)).__name__}``)" for n in groups["object"])
            + ".", ""]
    if groups["foreign"] or groups["data"]:
        out += ["Also in the namespace (NumPy's own types and constants, as in NumPy): "
                + ", ".join(f"``{n}``" for n in groups["foreign"] + groups["data"]) + ".",
                ""]
    for n in groups["class"]:
        out += [f".. autoclass:: {n}", "   :members:", ""]
    for n in groups["function"]:
        out += [f".. autofunction:: {n}", ""]
    return out


def config_lines() -> list:
    """reStructuredText definition list of every ``gnumpy.config`` option."""
    from gnumpy._config import _OPTIONS
    out = []
    for o in _OPTIONS:
        default = "<user cache dir>/gnumpy" if o.name == "cache_dir" else repr(o.default)
        doc = o.doc.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`")
        out += [f"``{o.name}`` (``{o.env}``, default ``{default}``)",
                f"    {doc}" + (" *Changes generated code.*" if o.codegen else ""), ""]
    return out


_warned: set = set()


def _process_docstring(app, what, name, obj, options, lines) -> None:
    """Drop a signature line opening a docstring (the ufuncs' ``add(*args, ...)``: the
    signature is shown anyway); warn (an error under -W) about a public name without a
    docstring."""
    if lines and re.fullmatch(r"[A-Za-z_]\w*\(.*\)\s*", lines[0]):
        del lines[:2 if len(lines) > 1 and not lines[1].strip() else 1]
    if what in ("function", "class", "method") and not any(s.strip() for s in lines) \
            and name not in _warned:
        _warned.add(name)
        from sphinx.util import logging
        logging.getLogger("gnumpy.docs").warning(f"{name} has no docstring")


def setup(app):
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    class Generated(SphinxDirective):
        """Parse reStructuredText made by ``make(*arguments)`` in place of the directive."""
        make = None

        def run(self):
            lines = type(self).make(*self.arguments)
            box = nodes.container()
            self.state.nested_parse(StringList(lines, source=f"<{self.name}>"),
                                    self.content_offset, box)
            return box.children

    class GnumpyApi(Generated):
        required_arguments = 1
        make = staticmethod(api_lines)

    class GnumpyConfig(Generated):
        make = staticmethod(config_lines)

    app.add_directive("gnumpy-api", GnumpyApi)
    app.add_directive("gnumpy-config", GnumpyConfig)
    app.connect("autodoc-process-docstring", _process_docstring)
    return {"parallel_read_safe": True}
