"""Test configuration: the device under test comes from GNUMPY_DEVICE (default: auto).

The whole suite runs against whichever backend is the default device; the GPU script runs
it with GNUMPY_DEVICE=cuda, CI with the CPU backend.
"""
import os

import hypothesis
import pytest

hypothesis.settings.register_profile(
    "ci", max_examples=int(os.environ.get("GNUMPY_TEST_EXAMPLES", "25")), deadline=None,
    suppress_health_check=[hypothesis.HealthCheck.too_slow,
                           hypothesis.HealthCheck.data_too_large])
hypothesis.settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _reset_stats():
    import gnumpy
    gnumpy.stats.reset()
    yield


def pytest_report_header(config):
    import gnumpy
    return f"gnumpy device under test: {gnumpy.asarray(0).device}"
