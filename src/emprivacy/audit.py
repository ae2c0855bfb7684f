"""``emprivacy.audit``: how much a release protects, as the Python face of ``emprivacy audit``.

Everything here lives in :mod:`emprivacy.protection`; this module re-exports its public
API, so that ``from emprivacy.audit import audit_mechanism, secret_words`` mirrors the
command line.

>>> from emprivacy import Embeddings, make_mechanism
>>> from emprivacy.audit import audit_mechanism, secret_words
>>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
>>> secrets = secret_words(emb, prior="uniform")
>>> audit = audit_mechanism(make_mechanism("santext", emb, epsilon=1e3), secrets)
>>> audit.summary()["posterior_vulnerability"]
{'estimate': 1.0, 'lower': 1.0, 'upper': 1.0, 'kind': 'exact'}
>>> tem = audit_mechanism(make_mechanism("tem", emb, epsilon=1e3, beta=0.01), secrets)
>>> round(tem.posterior_vulnerability.estimate, 6)  # TEM keeps a word w.p. 1 − β at most
0.99
"""

from __future__ import annotations

from .protection import *  # noqa: F403  (the public API of emprivacy.protection, as it is)
from .protection import __all__ as __all__
