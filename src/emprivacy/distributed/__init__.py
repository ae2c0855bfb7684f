"""Obfuscating corpora larger than one machine: Alg. 2 partition by partition, on Dask.

The corpus is cut into *partitions* (runs of ``partition_documents`` documents
of one input file each: by count, never by size, so the output's layout says
nothing about words that are not released), and every partition is obfuscated by
one task — on the workers of a :class:`distributed.Client`, or one after the other in
this process when no client is given.  The mechanism itself is unchanged: each
document goes through :class:`emprivacy.obfuscation.obfuscator.Obfuscator` (Alg. 2 with the
n-dimensional Laplace noise of Thm. 2), and draws its noise from its own ChaCha20
stream keyed by the run's secret key and the document's identifier
(:func:`emprivacy.math.randomness.document_generator`).  The output therefore does not
depend on how the corpus is partitioned, nor on which worker obfuscates which
partition: with a fixed ``seed`` a distributed run writes exactly the records of
a single-process run, in the same order.  The run's secret key (or seed) is passed
to each task as an argument and is never part of data Dask stores on a worker, so
Dask never spills it to disk.  Identifiers are read when the partitions are
planned: one that appears twice fails the run before anything is written.

Exactly once
------------
A task writes its partition to a file with a fixed name (``part-00012.jsonl`` or
``part-00012.parquet``) through a temporary file and an atomic rename, then a
small status file recording what it wrote (document count, skipped identifiers,
SHA-256 of the data file).  A task that is run twice — Dask re-runs the tasks of
a worker that died — rewrites the same file, so a partition can never appear
twice.  At the end every partition's data file is read back: its hash must match
its status file, every input document must be either written or skipped (empty,
or a bag with no word in the vocabulary) and no identifier may appear twice in the
whole corpus; otherwise the run fails with :class:`CorpusRunError` and nothing is
published.  Only then is the JSONL output merged (atomically) or the Parquet
``_manifest.json`` written.  With ``resume=True`` the partitions whose files are
complete and intact are kept and only the others are obfuscated.  A run that fails
(or is interrupted) keeps its complete partitions and names their directory in the
error (``partitions_kept``; an interruption is a
:class:`~emprivacy.exceptions.CorpusRunInterrupted`); with none complete it removes
its files, so that nothing blocks the next run.

Where the embeddings come from
------------------------------
Two ways, both sending the (large) embeddings to each worker once, never with
each task:

* :class:`MechanismSettings` (recommended on a real cluster): every worker
  process loads the embeddings itself from a path it can read (or the built-in
  default), the first time it needs them, and keeps the mechanism in a
  per-process cache for all later tasks.  Nothing large crosses the network.
* a mechanism, any :class:`~emprivacy.mechanisms.WordMechanism` such as
  :class:`~emprivacy.mechanisms.EarthMoversPrivacy` (convenient for in-memory
  or hand-built embeddings): it is scattered once to every worker
  (``client.scatter(..., broadcast=True)``); a replacement worker copies it from
  a peer.  An EarthMoversPrivacy decoder keeps the thread count it was built
  with: build it with ``ExactDecoder(embeddings, n_threads=1)`` for
  single-threaded workers.

A worker process obfuscates one partition at a time (the decoder is not meant to
be called from two threads at once); with settings, its decoder uses the
worker's threads.  One thread per worker process, one process per core, is the
intended shape.

Either way the workers report the SHA-256 fingerprint of the embeddings they
used; a run whose partitions disagree fails instead of mixing two vocabularies.

Modules
-------
* :mod:`~emprivacy.distributed.plan` — partitions: planning them, reading one
  (with the readers of :mod:`emprivacy.io.corpus`).
* :mod:`~emprivacy.distributed.task` — what a worker runs: the job, the mechanism
  built from :class:`MechanismSettings` (cached per process), one partition
  obfuscated and written.
* :mod:`~emprivacy.distributed.publish` — the output directory: resume checks,
  verification, the merged output or the Parquet manifest.
* :mod:`~emprivacy.distributed.run` — :func:`obfuscate_corpus` and its task runner.
* :mod:`~emprivacy.distributed.cluster` — :func:`dask_client`: a local cluster only
  this process can use (TLS with credentials made for it, 127.0.0.1 only), or an
  existing cluster, reached with Dask's own security configuration.

What each document releases (bag or text mode, out-of-vocabulary policy, bag
size N) is an :class:`~emprivacy.obfuscation.config.ObfuscationConfig`, as on one
machine.  Dask is imported when a cluster is used: without a client, runs (Parquet
input or output, ``resume``) work on a core install.
"""

from __future__ import annotations

from emprivacy.distributed.cluster import (
    CLEARTEXT_WARNING,
    dashboard_link,
    dask_client,
    unencrypted_remote,
)
from emprivacy.distributed.plan import (
    MAX_DEFAULT_PARTITION_DOCUMENTS,
    Partition,
    default_partition_documents,
    plan_partitions,
    read_partition,
)
from emprivacy.distributed.publish import (
    CorpusSummary,
    claim_output,
    output_layout,
    remove_leftovers,
)
from emprivacy.distributed.run import obfuscate_corpus
from emprivacy.distributed.task import MechanismSettings

__all__ = [
    "CLEARTEXT_WARNING",
    "MAX_DEFAULT_PARTITION_DOCUMENTS",
    "CorpusSummary",
    "MechanismSettings",
    "Partition",
    "claim_output",
    "dashboard_link",
    "dask_client",
    "default_partition_documents",
    "obfuscate_corpus",
    "output_layout",
    "plan_partitions",
    "read_partition",
    "remove_leftovers",
    "unencrypted_remote",
]
