"""Structure rules from DESIGN.md, checked: small modules, one config module, one promotion
function, one broadcasting function, a docstring on every module, no import loops, no
import that reaches a higher layer (LAYERS), and a comment saying why at the gnumpy imports
a function holds (issue 18: imports are at module level unless a reason says otherwise).

The import graph is read from the source (ast), not by importing: an edge A -> B for every
``import``/``from ... import`` in A naming gnumpy module B.  Module-level imports are those
that run when A is imported (outside functions; ``if TYPE_CHECKING:`` blocks skipped); the
function-level graph adds the imports inside functions.  A loop is a strongly connected
component of more than one module.
"""
import ast
import pathlib
import re

PKG = pathlib.Path(__file__).resolve().parent.parent / "gnumpy"
MODULES = sorted(PKG.rglob("*.py"))


def test_modules_are_small():
    big = {str(p.relative_to(PKG)): n for p in MODULES
           if (n := len(p.read_text().splitlines())) > 1000}
    assert not big, f"modules over the 1,000-line hard cap: {big}"


# Modules past the 500-line soft cap, each with its size when it was listed: the list
# may shrink and a listed module may shrink, neither may grow.
OVER_SOFT_CAP: dict = {}


def test_modules_past_the_soft_cap_are_listed_and_do_not_grow():
    sizes = {str(p.relative_to(PKG)): len(p.read_text().splitlines()) for p in MODULES}
    over = {m: n for m, n in sizes.items() if n > 500}
    new = {m: n for m, n in over.items() if m not in OVER_SOFT_CAP}
    assert not new, f"modules past the 500-line soft cap: {new} (split them)"
    grown = {m: (n, OVER_SOFT_CAP[m]) for m, n in over.items() if n > OVER_SOFT_CAP[m]}
    assert not grown, f"listed modules that grew past their listed size: {grown}"
    gone = [m for m in OVER_SOFT_CAP if sizes.get(m, 0) <= 500]
    assert not gone, f"back under the soft cap or gone, remove from OVER_SOFT_CAP: {gone}"


def test_every_module_has_a_docstring():
    missing = [str(p.relative_to(PKG)) for p in MODULES
               if ast.get_docstring(ast.parse(p.read_text())) is None]
    assert not missing, f"modules without a docstring saying their job: {missing}"


def test_only_the_config_module_reads_the_environment():
    offenders = [str(p.relative_to(PKG)) for p in MODULES
                 if p.name != "_config.py" and re.search(r"os\.environ|getenv\(", p.read_text())]
    assert not offenders, offenders


def test_promotion_and_broadcasting_live_in_one_place():
    # (gnumpy/testing/ is exempt: the fuzzer reasons about its NumPy reference with NumPy)
    pat = re.compile(r"np\.(result_type|promote_types|broadcast_shapes)\(")
    offenders = [str(p.relative_to(PKG)) for p in MODULES
                 if p.name not in ("_dtypes.py", "_broadcast.py") and
                 p.relative_to(PKG).parts[0] != "testing" and pat.search(p.read_text())]
    assert not offenders, offenders


# ------------------------------------------------------------------ import loops

def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


NAMES = {_module_name(p): p for p in MODULES}


def _imports(name: str, functions: bool) -> set:
    """The gnumpy modules that module `name` imports (inside functions too if `functions`)."""
    path = NAMES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()

    def target(node):
        if not node.level:
            return node.module
        base = package.split(".")[:len(package.split(".")) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.Lambda))
            if functions or not in_function:
                if isinstance(child, ast.Import):
                    out.update(a.name for a in child.names if a.name in NAMES)
                elif isinstance(child, ast.ImportFrom):
                    t = target(child)
                    for a in child.names:       # `from pkg import module` names a module
                        sub = f"{t}.{a.name}"
                        out.add(sub if sub in NAMES else t)
            visit(child, inner)

    visit(ast.parse(path.read_text()), False)
    return {m for m in out if m in NAMES and m != name}


def import_loops(functions: bool, graph=None) -> list:
    """Strongly connected components (Tarjan, iterative) of more than one module of the
    package's import graph (or of `graph`: {module: [modules it imports]})."""
    if graph is None:
        graph = {m: sorted(_imports(m, functions)) for m in NAMES}
    index, low, on_stack, stack, loops = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(graph[w])))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    loops.append(frozenset(comp))
    return loops


# The layers, bottom to top: a module imports (at module level or inside a function) only
# modules of its own layer or below.  A module belongs to the layer of its longest prefix.
LAYERS = (
    ("core", ("gnumpy._config", "gnumpy._dtypes", "gnumpy._ops", "gnumpy._nvtx",
              "gnumpy._memstate", "gnumpy._broadcast", "gnumpy._elide", "gnumpy._dlpack",
              "gnumpy._lazy")),
    ("graph", ("gnumpy._graph", "gnumpy._hostvals", "gnumpy._viewmem")),
    ("kernels", ("gnumpy.kernels",)),
    ("backends", ("gnumpy.backends", "gnumpy._device", "gnumpy._sizes")),
    ("materialization", ("gnumpy._graph.realize", "gnumpy._graph.readers",
                         "gnumpy._graph.bounds", "gnumpy._graph.explain")),
    ("array", ("gnumpy._array", "gnumpy._attributes", "gnumpy._operators", "gnumpy._methods")),
    ("api", ("gnumpy._api", "gnumpy.linalg", "gnumpy.fft", "gnumpy.random",
             "gnumpy._numpy_compat")),
    ("package", ("gnumpy", "gnumpy._info", "gnumpy.profiler", "gnumpy.cuda", "gnumpy.dask",
                 "gnumpy.testing", "gnumpy.__main__")),
)

# Imports that reach up a layer, each with its reason; the list may shrink, not grow.
UPWARD_IMPORTS = {
    # the CPU backend's random draws run the random package's transforms on NumPy arrays
    ("gnumpy.backends.random_ops", "gnumpy.random._host"),
    # the kernel check (config.check_kernels) lists barrier kernels through their registry
    ("gnumpy.kernels.check", "gnumpy.backends.barriers"),
}


def layer_of(module: str) -> int:
    best = (-1, -1)
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best[1]:
                best = (i, len(p))
    return best[0]


def _show(loops) -> str:
    return "\n".join(f"  {len(c)} modules: {sorted(c)}" for c in loops)


def test_no_import_loops():
    # (ndarray's methods that are NumPy functions reach them through the namespace by
    # name, ``_array._ns``, which loads their modules on first use: no import of theirs)
    for functions in (False, True):
        loops = import_loops(functions)
        kind = "imports inside functions counted" if functions else "module level"
        assert not loops, f"import loops ({kind}):\n{_show(loops)}"


def test_ndarray_reaches_the_namespace_by_name_only_for_api_functions():
    # ndarray's one way up (_array.py and its base classes' modules): ``_ns.<name>`` (the
    # package, by name).  Every name it uses is a public function of the namespace or one
    # of _lazy's private module aliases, each loaded from the API layer; nothing else of
    # the package is reached that way.
    from gnumpy import _lazy
    src = "".join((PKG / f).read_text() for f in ("_array.py", "_attributes.py",
                                                   "_operators.py", "_methods.py"))
    used = set(re.findall(r"\b_ns\.(\w+)", src))
    assert {"sum", "reshape", "_elementwise", "_indexing"} <= used
    for name in used:
        if name in _lazy._MODULES:
            mod = "gnumpy." + _lazy._MODULES[name]
        else:
            assert not name.startswith("_"), name
            mod = "gnumpy." + _lazy.LAZY[name][0] if name in _lazy.LAZY else None
            if mod is None:             # bound eagerly by __init__: where it comes from
                import gnumpy
                mod = getattr(getattr(gnumpy, name), "__module__", None) or "gnumpy._api"
        assert LAYERS[layer_of(mod)][0] == "api", (name, mod)


def test_the_package_uses_ndarray_through_its_interface():
    # ndarray's private members outside the modules of its classes (_array.py and its base
    # classes'): only those of _array.INTERFACE (a reach into another, e.g.
    # ``x._basic(key)``, fails here)
    from gnumpy import _array
    cls = _array.ndarray
    own = {k.__module__ for k in cls.__mro__ if k is not object}
    assert own == {"gnumpy._array", "gnumpy._attributes", "gnumpy._operators",
                   "gnumpy._methods"}, own
    private = {n for k in cls.__mro__ for n in list(vars(k)) +
               list(getattr(k, "__slots__", ())) if n.startswith("_") and not n.endswith("__")}
    assert _array.INTERFACE <= private, _array.INTERFACE - private
    reaches = {}
    for name, path in NAMES.items():
        if name in own:
            continue
        for m in re.findall(r"\.(_[a-z]\w*)\b", path.read_text()):
            if m in private and m not in _array.INTERFACE:
                reaches.setdefault(m, set()).add(name)
    assert not reaches, f"private members of ndarray used outside it: {reaches}"
    assert re.findall(r"\.(_[a-z]\w*)\b", "a._basic(k)") == ["_basic"]


def test_the_import_graph_reader_finds_loops():
    # the reader itself: known edges, and a chain that must not be a loop (linalg: _common
    # <- _factor, _eig <- _svd <- _products)
    assert "gnumpy._api.elementwise.ewspecial" not in _imports("gnumpy._api.elementwise.elementwise", functions=False)
    assert "gnumpy._api.elementwise.elementwise" in _imports("gnumpy._api.elementwise.ewspecial", functions=False)
    assert "gnumpy.backends.cpu" in _imports("gnumpy._device", functions=True)
    assert "gnumpy.backends.cpu" not in _imports("gnumpy._device", functions=False)
    assert not {"gnumpy._graph.realize"} & _imports("gnumpy._graph.ir", functions=True)
    assert {"gnumpy.linalg._svd", "gnumpy.linalg._factor"} <= _imports(
        "gnumpy.linalg._products", functions=False)
    assert not any(m.startswith("gnumpy.linalg") for c in import_loops(True) for m in c)
    # the loop finder on a small graph: a loop of three, a self-contained pair, a chain
    g = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["f"], "f": ["e"], "g": ["a"]}
    assert sorted(map(sorted, import_loops(True, g))) == [["a", "b", "c"], ["e", "f"]]
    assert "gnumpy._api.creation.interop" in _imports("gnumpy._api._common", functions=False)


def test_every_module_has_a_layer():
    assert [m for m in NAMES if layer_of(m) < 0] == []


def test_no_module_imports_a_layer_above_its_own():
    up = {(m, x) for m in NAMES for x in _imports(m, functions=True)
          if layer_of(x) > layer_of(m)}
    new = sorted(up - UPWARD_IMPORTS)
    assert not new, "imports that reach a higher layer:\n" + "\n".join(
        f"  {m} ({LAYERS[layer_of(m)][0]}) -> {x} ({LAYERS[layer_of(x)][0]})" for m, x in new)
    gone = sorted(UPWARD_IMPORTS - up)
    assert not gone, f"gone, remove from UPWARD_IMPORTS: {gone}"


def test_the_layer_check_sees_an_upward_import():
    assert layer_of("gnumpy._graph.realize") > layer_of("gnumpy._graph.fuse")
    assert layer_of("gnumpy.backends.cuda") < layer_of("gnumpy._graph.realize")
    assert "gnumpy._graph.realize" in _imports("gnumpy._api.libcall", functions=False)
    assert layer_of("gnumpy._api.libcall") > layer_of("gnumpy._graph.realize")


# ------------------------------------------------------------------ function-level imports

# Functions whose gnumpy imports have no comment: none, and none may come.
UNEXPLAINED_IMPORTS = set()


def _function_imports(name: str) -> dict:
    """{function name: [(line, has a comment)]} of the gnumpy imports inside `name`'s
    functions: a comment on the import's line or on one of the three lines above it."""
    path = NAMES[name]
    lines = path.read_text().splitlines()
    out = {}

    def gnumpy_import(node):
        if isinstance(node, ast.ImportFrom):
            return node.level > 0 or (node.module or "").split(".")[0] == "gnumpy"
        return isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == "gnumpy" for a in node.names)

    def visit(node, fn):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if fn is not None and gnumpy_import(child):
                near = lines[max(0, child.lineno - 4):child.end_lineno]
                out.setdefault(fn, []).append((child.lineno, any("#" in s for s in near)))
            visit(child, fn)

    visit(ast.parse(path.read_text()), None)
    return out


def test_imports_inside_functions_say_why():
    # Issue 18: gnumpy's imports are at module level unless a reason keeps one inside a
    # function (import gnumpy does not load the module, a measured load time, a loop);
    # each function holding such imports says why in a comment at one of them.
    silent = {(m, fn) for m in NAMES for fn, imps in _function_imports(m).items()
              if not any(commented for _, commented in imps)}
    new = sorted(silent - UNEXPLAINED_IMPORTS)
    assert not new, ("imports inside functions without a comment saying why (move them to "
                     f"module level, or say why they stay): {new}")
    gone = sorted(UNEXPLAINED_IMPORTS - silent)
    assert not gone, f"explained or gone, remove from UNEXPLAINED_IMPORTS: {gone}"
