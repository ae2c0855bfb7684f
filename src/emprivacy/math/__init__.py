"""The mathematics beside the flow: randomness (:mod:`.randomness`), the n-dimensional Laplace draw
(:mod:`.noise`, Thm. 2 of the paper), the Earth Mover's distance (:mod:`.distance`, Def. 3) and
the guarantees (:mod:`.guarantees`, Thm. 1 and 3, App. A).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "RandomState": "randomness",
    "check_random_state": "randomness",
    "document_generator": "randomness",
    "hashed_document_id": "randomness",
    "run_key_from_seed": "randomness",
    "secure_generator": "randomness",
    "FAR_RADII": "noise",
    "far_noisy_points": "noise",
    "far_sphere": "noise",
    "laplace_noise": "noise",
    "uniform_sphere": "noise",
    "cost_matrix": "distance",
    "earth_movers_distance": "distance",
    "histogram_distance": "distance",
    "MAX_BAG_SIZE": "guarantees",
    "MAX_DIM": "guarantees",
    "appendix_utility_bound": "guarantees",
    "ball_probability": "guarantees",
    "laplace_constant": "guarantees",
    "paper_utility_bound": "guarantees",
    "privacy_multiplier": "guarantees",
    "utility_bound": "guarantees",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.math.distance import (
        cost_matrix,
        earth_movers_distance,
        histogram_distance,
    )
    from emprivacy.math.guarantees import (
        MAX_BAG_SIZE,
        MAX_DIM,
        appendix_utility_bound,
        ball_probability,
        laplace_constant,
        paper_utility_bound,
        privacy_multiplier,
        utility_bound,
    )
    from emprivacy.math.noise import (
        FAR_RADII,
        far_noisy_points,
        far_sphere,
        laplace_noise,
        uniform_sphere,
    )
    from emprivacy.math.randomness import (
        RandomState,
        check_random_state,
        document_generator,
        hashed_document_id,
        run_key_from_seed,
        secure_generator,
    )

__all__ = [
    "FAR_RADII",
    "MAX_BAG_SIZE",
    "MAX_DIM",
    "RandomState",
    "appendix_utility_bound",
    "ball_probability",
    "check_random_state",
    "cost_matrix",
    "document_generator",
    "earth_movers_distance",
    "far_noisy_points",
    "far_sphere",
    "hashed_document_id",
    "histogram_distance",
    "laplace_constant",
    "laplace_noise",
    "paper_utility_bound",
    "privacy_multiplier",
    "run_key_from_seed",
    "secure_generator",
    "uniform_sphere",
    "utility_bound",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
