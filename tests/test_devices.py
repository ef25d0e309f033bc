"""Device objects: one object per device, whatever spelling made it.  The hot paths compare
devices by identity and read the backend a device caches, so a second object of one device
(``device="cpu"``, ``gnumpy.cuda.Device()`` touched before the first array) must not
exist: it sent every later statement down the slow paths."""
import copy
import pickle

import numpy as np
import pytest

import gnumpy as gp
from gnumpy import _device


@pytest.mark.parametrize("spellings", [
    [("cpu",), ("cpu", 0), ("cpu", None)],
    [("cuda",), ("cuda", 0), ("cuda:0",)],
    [("cuda", 3), ("cuda:3",)],
])
def test_every_spelling_of_a_device_is_one_object(spellings):
    devs = [_device.Device(*s) for s in spellings]
    assert all(d is devs[0] for d in devs)
    assert _device.Device(devs[0]) is devs[0]
    assert pickle.loads(pickle.dumps(devs[0])) is devs[0]
    assert copy.deepcopy(devs[0]) is devs[0] and copy.copy(devs[0]) is devs[0]


def test_different_devices_stay_apart():
    a, b, c = _device.Device("cuda", 0), _device.Device("cuda", 1), _device.Device("cpu")
    assert a is not b and a != b and a != c
    assert len({a, b, c, _device.Device("cuda:1")}) == 3
    assert a == "cuda:0" and c == "cpu" and a != "tpu"
    with pytest.raises(ValueError, match="unknown device"):
        _device.Device("tpu")


def test_arrays_made_on_a_named_device_share_the_default_object():
    d = gp.asarray(1.0).device
    x = gp.asarray(np.arange(4.0), device=str(d))
    y = gp.zeros(3, device=d.kind if d.id == 0 else str(d))
    assert x.device is d and y.device is d and (x * 2 + 1).device is d
    assert d._be is not None            # the backend cached on the one object
    # a statement on such arrays is written back as on default-device arrays
    x[1:3] = x[0:2] * 10 + 1
    np.testing.assert_array_equal(x.get(), [0.0, 1.0, 11.0, 3.0])
