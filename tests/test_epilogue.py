"""A product's ReLU folded into the library call (``_graph/epilogue``, the CUDA backend's
``cuda_epilogue``): ``np.maximum(x @ w + b, 0)`` against NumPy for both float dtypes, bias
forms, operand layouts, NaN/inf/-0, empty and k == 0 products; where it folds (one
barrier group, no elementwise pass) and where it must not (a product or sum that an array
still holds is computed once; ``maximum(0, x)`` keeps NumPy's -0.0).  On CUDA with
``config.lt_epilogue`` (on here) the folded node is one cuBLASLt call."""
import numpy as np
import pytest

import gnumpy as gp
from gnumpy._graph.running import stats
from helpers import check


@pytest.fixture(autouse=True)
def _lt_on():
    """cuBLASLt's epilogue on CUDA (an opt-in: ``config.lt_epilogue``); the fold is the
    same on every backend."""
    with gp.config.override(lt_epilogue=True):
        yield


def _data(dtype, m, k, n, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((m, k)).astype(dtype)
    w = rng.standard_normal((k, n)).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    if m > 3 and k and n > 4:
        x[0, 0] = np.nan            # a NaN row
        x[1] = 0.0                  # zero products: the bias alone, +-0 before the ReLU
        x[2, 0] = np.inf            # infinities of both signs down a row
        b[1] = -0.0
        b[2] = np.nan
        b[3] = 0.0
        w[:, 4] = -np.abs(w[:, 4]) - 0.5    # row 1's products there are all -0.0: with
        b[4] = -0.0                         # b[4] the sum can be -0.0, NumPy's ReLU +0.0
    return x, w, b


def _scale(x, w):
    f = np.isfinite
    return float(np.abs(x[f(x)]).max(initial=1)) * float(np.abs(w[f(w)]).max(initial=1)) * \
        max(x.shape[1], 1)


def relu(t):
    return gp.maximum(t, 0) if isinstance(t, gp.ndarray) else np.maximum(t, 0)


def _groups(f):
    stats.reset()
    r = f()
    gp.evaluate(r)
    return r, dict(stats.by_kind)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,k,n", [(40, 70, 33), (64, 129, 256), (1, 300, 50),
                                   (20, 300, 1), (1, 300, 1), (0, 300, 7), (17, 0, 9)])
def test_relu_of_product_and_bias_matches_numpy(dtype, m, k, n):
    x, w, b = _data(dtype, m, k, n)
    gx, gw, gb = gp.asarray(x), gp.asarray(w), gp.asarray(b)
    sc = _scale(x, w)
    check(relu(gx @ gw + gb), relu(x @ w + b), scale=sc)
    check(relu(gb + gx @ gw), relu(b + x @ w), scale=sc)
    check(relu(gx @ gw), relu(x @ w), scale=sc)
    check(relu(gx @ gw + gb.reshape(1, n)), relu(x @ w + b.reshape(1, n)), scale=sc)
    check(relu(gx @ gw + gb * 2), relu(x @ w + b * 2), scale=sc)       # a lazy bias


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_operand_and_bias_layouts(dtype):
    x, w, b = _data(dtype, 48, 80, 2 * 36 + 1)
    gx, gw, gb = gp.asarray(x), gp.asarray(w), gp.asarray(b)
    sc = _scale(x, w)
    xt, gxt = np.ascontiguousarray(x.T), gp.asarray(np.ascontiguousarray(x.T))
    check(relu(gxt.T @ gw + gb), relu(xt.T @ w + b), scale=sc)             # transposed
    check(relu(gx[:, ::2] @ gw[::2] + gb), relu(x[:, ::2] @ w[::2] + b), scale=sc)
    check(relu(gx @ gw[:, ::2] + gb[::2]), relu(x @ w[:, ::2] + b[::2]), scale=sc)
    check(relu(gx @ gw[:, 1:] + gb[1:]), relu(x @ w[:, 1:] + b[1:]), scale=sc)  # offset
    out = gp.zeros((50, w.shape[1]), dtype)
    out[1:49] = relu(gx @ gw + gb)
    o = np.zeros((50, w.shape[1]), dtype)
    o[1:49] = relu(x @ w + b)
    check(out, o, scale=sc)


def test_folds_into_one_library_call():
    x, w, b = _data(np.float32, 64, 300, 200)
    gx, gw, gb = gp.asarray(x), gp.asarray(w), gp.asarray(b)
    r, kinds = _groups(lambda: relu(gx @ gw + gb))
    assert kinds["barrier"] == 1 and kinds["elementwise"] == 0, kinds
    check(r, relu(x @ w + b), scale=_scale(x, w))
    with gp.config.override(lt_epilogue=False):         # the opt-in off: as before it
        r, kinds = _groups(lambda: relu(gx @ gw + gb))
    assert kinds["barrier"] == 1 and kinds["elementwise"] == 1, kinds
    check(r, relu(x @ w + b), scale=_scale(x, w))
    w2 = np.random.default_rng(3).standard_normal((200, 150)).astype(np.float32)
    gw2 = gp.asarray(w2)
    r, kinds = _groups(lambda: relu(relu(gx @ gw + gb) @ gw2))        # a chain of layers
    assert kinds["barrier"] == 2 and kinds["elementwise"] == 0, kinds
    h = relu(x @ w + b)
    check(r, relu(h @ w2), scale=_scale(x, w) * _scale(h[np.isfinite(h).all(1)], w2))


def test_a_node_folded_while_on_runs_as_numpy_after_it_is_off():
    x, w, b = _data(np.float32, 40, 300, 33)
    r = relu(gp.asarray(x) @ gp.asarray(w) + gp.asarray(b))
    gp.explain(r)                       # (schedules it: the fold, nothing run)
    with gp.config.override(lt_epilogue=False):
        check(r, relu(x @ w + b), scale=_scale(x, w))


def test_held_product_or_sum_is_not_recomputed():
    x, w, b = _data(np.float64, 40, 90, 60)
    gx, gw, gb = gp.asarray(x), gp.asarray(w), gp.asarray(b)
    sc = _scale(x, w)
    z = gx @ gw + gb                    # the sum is an array: computed once, then the ReLU
    r, kinds = _groups(lambda: relu(z))
    assert kinds["barrier"] == 1 and kinds["elementwise"] == 1, kinds
    check(r, relu(x @ w + b), scale=sc)
    check(z, x @ w + b, scale=sc)
    t = gx @ gw                         # the product is an array
    r, kinds = _groups(lambda: relu(t + gb))
    assert kinds["barrier"] == 1 and kinds["elementwise"] == 1, kinds
    check(r, relu(x @ w + b), scale=sc)
    check(t, x @ w, scale=sc)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_zero_first_and_other_forms_do_not_fold():
    x, w, b = _data(np.float32, 40, 90, 60)
    gx, gw, gb = gp.asarray(x), gp.asarray(w), gp.asarray(b)
    sc = _scale(x, w)
    for f, e in [(lambda: gp.maximum(0, gx @ gw + gb), np.maximum(0, x @ w + b)),
                 (lambda: gp.maximum(gx @ gw + gb, -0.0), np.maximum(x @ w + b, -0.0)),
                 (lambda: gp.maximum(gx @ gw + gb, 1.0), np.maximum(x @ w + b, 1.0)),
                 (lambda: gp.maximum(gx @ gw + gx[:, :60], 0), np.maximum(x @ w + x[:, :60], 0))]:
        r, kinds = _groups(f)
        assert kinds["elementwise"] == 1, kinds
        check(r, e, scale=sc)


def test_mixed_dtypes_and_integers_keep_numpy_results():
    x, w, b = _data(np.float32, 30, 40, 20)
    gx, gw = gp.asarray(x), gp.asarray(w)
    b64 = b.astype(np.float64)
    check(relu(gx @ gw + gp.asarray(b64)), relu(x @ w + b64), rtol=1e-5,   # a float32
          atol=1e-5 * _scale(x, w))                                       # product
    xi = np.arange(600, dtype=np.int64).reshape(30, 20) % 7 - 3
    wi = np.arange(400, dtype=np.int64).reshape(20, 20) % 5 - 2
    check(relu(gp.asarray(xi) @ gp.asarray(wi) + 1), relu(xi @ wi + 1))
