"""``calibrate_recovery`` at the extremes (issue 30, item 3): a start far below any ε that
matters, a relative tolerance below float64's, and a target above what the mechanism ever
gives are each one true statement — never "the target does not constrain epsilon" after
searching a range where nothing happens, nor "within 1e-300 relative"."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.protection import Secrets, calibrate_recovery, find_epsilon

BETA = 0.001


@pytest.fixture(scope="module")
def cloud() -> tuple[Embeddings, Secrets]:
    gen = np.random.default_rng(0)
    emb = Embeddings([f"w{i}" for i in range(300)],
                     (gen.normal(size=(300, 5)) * 0.5).astype(np.float32), name="cloud")
    return emb, Secrets.from_words(emb, [f"w{i}" for i in range(40)])


def test_a_start_below_every_useful_epsilon_is_not_a_conclusion(cloud):
    """From 1e-140 the grid reaches 6.6e-136, where TEM recovers nothing: it used to say
    "the target does not constrain epsilon"; its limit (0.999 at 1e150) says otherwise."""
    emb, secrets = cloud
    with pytest.raises(ValueError) as info:
        calibrate_recovery(emb, target_recovery=0.5, mechanism="tem", secrets=secrets,
                           start=1e-140)
    message = str(info.value)
    assert "does not constrain" not in message
    assert re.search(r"from 1e-140 up to 6\.554e-136 \(0\.025 there\), but is 0\.99\d* at "
                     r"epsilon 1e\+150: the target lies beyond the epsilon searched", message)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"start": 1e-300}, "start must be a number in [1e-150, 1e+150]; got 1e-300"),
    ({"bracket": (1e-300, 1.0)}, "bracket must be a number in [1e-150, 1e+150]; got 1e-300"),
    ({"rtol": 1e-300}, "rtol must be a finite number >= 1e-09; got 1e-300"),
])
def test_options_beyond_float64_are_refused_before_any_measurement(cloud, kwargs, message):
    emb, secrets = cloud
    with pytest.raises(ValueError) as info:
        calibrate_recovery(emb, target_recovery=0.5, mechanism="santext", secrets=secrets,
                           **kwargs)
    assert str(info.value) == message


def test_the_smallest_rtol_is_met(cloud):
    emb, secrets = cloud
    r = calibrate_recovery(emb, target_recovery=0.5, mechanism="santext", secrets=secrets,
                           rtol=1e-9)
    assert r.above.epsilon / r.epsilon - 1 <= 1e-9
    assert r.audit.posterior_vulnerability.upper <= 0.5 < r.above.posterior_vulnerability.upper


def test_a_target_above_tems_limit_does_not_constrain_epsilon(cloud):
    """TEM's recovery levels off at its limit (about 1 − β) and wobbles there by rounding:
    that used to read "not monotone … 0.9991 at 12.95 but 0.9991 at 51.81"."""
    emb, secrets = cloud
    with pytest.raises(ValueError) as info:
        calibrate_recovery(emb, target_recovery=0.9999999, mechanism="tem", secrets=secrets,
                           params={"beta": BETA})
    message = str(info.value)
    assert "stays at or below 0.9999999 at every epsilon tried" in message
    assert message.endswith("the target does not constrain epsilon")
    limit = float(message.rsplit("its limit (", 1)[1].split(")")[0])
    assert limit == pytest.approx(1 - BETA, abs=2e-3)


def test_a_dip_is_reported_with_the_digits_that_show_it():
    dip = lambda e: 0.5 + 1e-9 * (e < 10)  # noqa: E731  falls by 1e-9 at ε = 10
    with pytest.raises(ValueError, match=r"0\.500000001 at epsilon 4 but 0\.5 at 16"):
        find_epsilon(dip, 0.9, start=1.0)


def test_a_tiny_epsilon_start_still_finds_the_target_from_a_useful_one(cloud):
    """The search's range: every ε it measures lies in [1e-150, 1e150] and is finite."""
    emb, secrets = cloud
    seen = []
    r = calibrate_recovery(emb, target_recovery=0.5, mechanism="santext", secrets=secrets,
                           bracket=(1e-150, 1e150),
                           progress=lambda n, e, *_: seen.append(e))
    assert all(1e-150 <= e <= 1e150 and math.isfinite(e) for e in seen)
    assert r.audit.posterior_vulnerability.upper <= 0.5 < r.above.posterior_vulnerability.upper
