"""Decoding noisy vectors back to words: ``Vec⁻¹`` of Alg. 2.

``Vec⁻¹(z) = argmin_w ‖z − Vec(w)‖`` over the whole vocabulary.  Decoding is
post-processing of the noisy vectors, so it never weakens the privacy guarantee
(Lemma 3 of the paper); a decoder only affects utility.

* :class:`Decoder` (:mod:`~emprivacy.decoding.base`): what the mechanism needs from a
  decoder, and the validation of query points; :class:`Top2Decoder`, a decoder that
  also finds the second-nearest word (both decoders below are);
* :class:`ExactDecoder` (:mod:`~emprivacy.decoding.exact`): the exact argmin, bit for
  bit a float64 brute force, at the speed of a float32 matrix product;
* :class:`ApproximateDecoder` (:mod:`~emprivacy.decoding.approximate`): a staged
  search (:mod:`~emprivacy.decoding.staged`) of a faiss inverted file
  (:mod:`~emprivacy.decoding.ivf`), its stop rule calibrated against exact decoding
  (:mod:`~emprivacy.decoding.tuning`) and cached on disk
  (:mod:`~emprivacy.decoding.index_cache`); faiss is imported only when one is built;
* :class:`ArrayAPIDecoder` (:mod:`~emprivacy.decoding.array_api`): the exact decoder's
  decisions with its score tiles on any array-API library — NumPy, or CuPy / PyTorch on
  a GPU (``--device cuda``); ``array-api-compat`` is imported only when one is built;
* :mod:`~emprivacy.decoding.threads`: the core count, row blocks, and the
  one-BLAS-thread-per-worker helper every parallel loop uses.
"""

from __future__ import annotations

from emprivacy.decoding.approximate import ApproximateDecoder
from emprivacy.decoding.array_api import ArrayAPIDecoder, cuda_decoder, cuda_namespace
from emprivacy.decoding.base import Decoder, Top2Decoder
from emprivacy.decoding.exact import DEFAULT_MEMORY_BUDGET, ExactDecoder
from emprivacy.decoding.threads import available_cores

__all__ = [
    "DEFAULT_MEMORY_BUDGET",
    "ApproximateDecoder",
    "ArrayAPIDecoder",
    "Decoder",
    "ExactDecoder",
    "Top2Decoder",
    "available_cores",
    "cuda_decoder",
    "cuda_namespace",
]
