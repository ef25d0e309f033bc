"""Structure rules from DESIGN.md, checked: small modules, one config module, one promotion
function, one broadcasting function, a docstring on every module."""
import ast
import pathlib
import re

PKG = pathlib.Path(__file__).resolve().parent.parent / "gnumpy"
MODULES = sorted(PKG.rglob("*.py"))


def test_modules_are_small():
    big = {str(p.relative_to(PKG)): n for p in MODULES
           if (n := len(p.read_text().splitlines())) > 1000}
    assert not big, f"modules over the 1,000-line hard cap: {big}"


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
