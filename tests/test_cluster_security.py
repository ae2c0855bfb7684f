"""Tests of the cluster's security: the local cluster is this run's only, the dashboard is
off unless asked for, and an unencrypted scheduler on another machine is said to be one.

The local cluster is started as the command line starts it (:func:`dask_client`, TLS with
credentials made for the run, 127.0.0.1 only): one per module, of 2 worker processes; the
dashboard test and the command-line run start their own.  Budget: about 20 s on 2 cores.
"""

from __future__ import annotations

import asyncio
import json
import operator
import os
import signal
import socket
import urllib.request
from pathlib import Path

import dask
import numpy as np
import psutil
import pytest
from distributed import Client
from distributed.comm import connect
from distributed.security import Security

import emprivacy.distributed.cluster as run
from emprivacy import PrivacyLeakWarning, load_embeddings
from emprivacy.cli import main
from emprivacy.distributed import dashboard_link, dask_client, unencrypted_remote
from emprivacy.exceptions import CorpusRunError, MissingExtraError

CONNECT_TIMEOUT = 3  # seconds: a refused connection fails at once, a timeout would be a bug
REMOTE = "203.0.113.7"  # TEST-NET-3 (RFC 5737): not this machine (checked below)


def _bokeh_installed() -> bool:
    try:
        run._check_dashboard()
    except MissingExtraError:
        return False
    return True


@pytest.fixture(scope="module")
def client():
    """A local cluster made as ``--workers 2`` makes it; closed after the module."""
    with dask_client(n_workers=2) as c:
        yield c


def _port(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


def _listening(pid: int) -> set[tuple[str, int]]:
    """The (address, port) pairs process ``pid`` listens on (TCP)."""
    process = psutil.Process(pid)
    conns = (process.net_connections(kind="inet") if hasattr(process, "net_connections")
             else process.connections(kind="inet"))
    return {(c.laddr.ip, c.laddr.port) for c in conns if c.status == psutil.CONN_LISTEN}


def _listeners(client: Client) -> dict[str, str]:
    """Every address of the cluster that accepts connections: its scheduler, each worker
    and each nanny, named by role."""
    workers = client.scheduler_info()["workers"]
    found = {"scheduler": client.scheduler.address}
    for i, (address, info) in enumerate(sorted(workers.items())):
        found[f"worker {i}"] = address
        found[f"nanny {i}"] = info["nanny"]
    return found


async def _talk(address: str, **connection_args) -> object:
    comm = await connect(address, timeout=CONNECT_TIMEOUT, **connection_args)
    try:
        await comm.write({"op": "identity"})
        return await comm.read()
    finally:
        comm.abort()


# -- who can connect -----------------------------------------------------------------------
def test_the_local_cluster_speaks_tls_on_loopback_only(client) -> None:
    listeners = _listeners(client)
    assert len(listeners) == 5
    for role, address in listeners.items():
        assert address.startswith("tls://127.0.0.1:"), (role, address)


def test_a_client_without_the_runs_credentials_is_refused(client) -> None:
    port = _port(client.scheduler.address)
    with pytest.raises((OSError, TimeoutError)):  # plain tcp:// to the TLS port
        Client(f"tcp://127.0.0.1:{port}", timeout=f"{CONNECT_TIMEOUT}s")
    with pytest.raises((OSError, TimeoutError)):  # TLS, with someone else's credentials
        Client(client.scheduler.address, security=Security.temporary(),
               timeout=f"{CONNECT_TIMEOUT}s")


def test_no_listener_talks_to_a_stranger(client) -> None:
    """Not the scheduler, nor a worker (which would run code), nor a nanny (which would
    restart or kill its worker): plain or with other credentials, refused."""
    stranger = Security.temporary().get_connection_args("client")
    for role, address in _listeners(client).items():
        with pytest.raises(OSError):
            asyncio.run(_talk(address, **stranger))
        with pytest.raises(OSError):
            asyncio.run(_talk("tcp://" + address.split("://", 1)[1]))
        # the run's own credentials do work: the refusals are about the credentials
        assert asyncio.run(_talk(address, **client.security.get_connection_args("client"))), \
            role


def test_the_runs_own_client_works(client) -> None:
    assert client.submit(operator.add, 2, 3).result() == 5
    assert sorted(client.gather(client.map(operator.neg, range(4)))) == [-3, -2, -1, 0]
    assert len(client.run(os.getpid)) == 2


# -- what listens ---------------------------------------------------------------------------
def test_every_listening_socket_is_loopback_and_none_is_http(client) -> None:
    """This process holds the scheduler and the nannies, each worker process its worker
    listener: nothing else listens (no dashboard, no worker HTTP server), nothing on
    another address than 127.0.0.1."""
    workers = client.scheduler_info()["workers"]
    here = _listening(os.getpid())
    assert here == {("127.0.0.1", _port(client.scheduler.address)),
                    *(("127.0.0.1", _port(w["nanny"])) for w in workers.values())}
    for address, pid in client.run(os.getpid).items():
        assert _listening(pid) == {("127.0.0.1", _port(address))}
    # the worker processes (and any the nannies restart) are configured to serve no route
    routes = client.run(lambda: dask.config.get("distributed.worker.http.routes"))
    assert list(routes.values()) == [[], []]


def test_worker_scratch_space_is_private(client) -> None:
    """What Dask spills goes under a directory of this user's only, not the shared
    ``<tmp>/dask-scratch-space``."""
    dirs = client.run(lambda dask_worker: dask_worker.local_directory)
    run_dirs = {next(p for p in Path(d).parents if p.name.startswith("emprivacy-dask-"))
                for d in dirs.values()}
    assert len(run_dirs) == 1
    assert run_dirs.pop().stat().st_mode & 0o777 == 0o700


def test_dashboard_off_by_default(client) -> None:
    assert dashboard_link(client) is None
    assert "dashboard" not in client.scheduler_info()["services"]


def test_dashboard_on_request_listens_on_loopback_only(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setattr(run, "_check_dashboard", lambda: None)  # bokeh or not: same server
    with dask_client(n_workers=1, dashboard=True) as c:
        link = dashboard_link(c)
        assert link is not None and link.startswith("http://127.0.0.1:")
        port = int(link.split(":")[2].split("/")[0])
        here = _listening(os.getpid())
        assert ("127.0.0.1", port) in here
        assert {ip for ip, _ in here} == {"127.0.0.1"}
        for pid in c.run(os.getpid).values():
            assert {ip for ip, _ in _listening(pid)} == {"127.0.0.1"}
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as page:
            assert page.read() == b"ok"


@pytest.mark.skipif(_bokeh_installed(), reason="bokeh is installed")
def test_dashboard_without_bokeh_is_one_line(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(MissingExtraError, match=r"needs bokeh.*pip install 'bokeh"), \
            dask_client(n_workers=1, dashboard=True):
        pass
    doc = tmp_path / "doc.txt"
    doc.write_text("the cat sat on the mat", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["obfuscate", str(doc), "-e", "10", "--workers", "1", "--dashboard", "-q",
                 "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("emprivacy: error: the Dask dashboard needs bokeh")
    assert not out.exists()


def test_dashboard_needs_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "doc.txt"
    doc.write_text("the cat sat on the mat", encoding="utf-8")
    for extra in ([], ["--scheduler", "tls://127.0.0.1:1"]):
        assert main(["obfuscate", str(doc), "-e", "10", "--dashboard", *extra, "-o",
                     str(tmp_path / "out.jsonl")]) == 2
        assert "--dashboard applies to a local cluster (--workers K)" in capsys.readouterr().err
    with pytest.raises(ValueError, match="dashboard applies to a local cluster"), \
            dask_client(scheduler="tls://127.0.0.1:1", dashboard=True):
        pass


# -- an existing cluster --------------------------------------------------------------------
@pytest.mark.parametrize(("address", "expected"), [
    ("tcp://127.0.0.1:8786", False),
    ("127.0.0.1:8786", False),  # no scheme: Dask's default, tcp
    ("tcp://127.8.9.10:8786", False),  # all of 127/8 is loopback
    ("tcp://localhost:8786", False),
    ("tcp://[::1]:8786", False),
    ("tcp://[::ffff:127.0.0.1]:8786", False),
    ("tcp://0.0.0.0:8786", False),
    ("inproc://10.1.2.3/1234/1", False),
    (f"tls://{REMOTE}:8786", False),
    (f"wss://{REMOTE}:8786", False),
    (f"TLS://{REMOTE}:8786", False),
    (f"tcp://{REMOTE}:8786", True),
    (f"TCP://{REMOTE}:8786", True),
    (f"{REMOTE}:8786", True),
    (f"ws://{REMOTE}:8786", True),
    (f"ucx://{REMOTE}:8786", True),
    ("tcp://[2001:db8::1]:8786", True),
    ("tcp://2001:db8::1", True),  # a bare IPv6 address, no port
])
def test_unencrypted_remote(address: str, expected: bool) -> None:
    assert REMOTE not in {a.address for entries in psutil.net_if_addrs().values()
                          for a in entries}
    assert unencrypted_remote(address) is expected


def test_unencrypted_remote_names_and_interfaces(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name is this machine only if all it resolves to is; one that does not resolve is
    another machine; an address of one of this machine's interfaces is this machine."""
    def resolves_to(*ips: str):
        def getaddrinfo(host, port, *args, **kwargs):
            if not ips:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, 0)) for ip in ips]
        return getaddrinfo

    monkeypatch.setattr(run.socket, "getaddrinfo", resolves_to("127.0.1.1"))
    assert not unencrypted_remote("tcp://myhost:8786")
    monkeypatch.setattr(run.socket, "getaddrinfo", resolves_to("127.0.0.1", REMOTE))
    assert unencrypted_remote("tcp://myhost:8786")
    monkeypatch.setattr(run.socket, "getaddrinfo", resolves_to())
    assert unencrypted_remote("tcp://no-such-host.invalid:8786")
    monkeypatch.setattr(run, "_interface_addresses",
                        lambda: {run._ip("10.9.8.7"), run._ip("fe80::1")})
    assert not unencrypted_remote("tcp://10.9.8.7:8786")
    assert not unencrypted_remote("tcp://[fe80::1%eth0]:8786")
    assert unencrypted_remote("tcp://10.9.8.6:8786")


def test_interface_addresses_are_this_machine() -> None:
    found = [a.address for entries in psutil.net_if_addrs().values() for a in entries
             if a.family == socket.AF_INET]
    assert found  # at least 127.0.0.1
    for ip in found:
        assert not unencrypted_remote(f"tcp://{ip}:8786"), ip


def test_unencrypted_remote_scheduler_warns_once(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """One warning line, then the run goes on (here: to a port where nothing listens, taken
    for another machine's — no connection leaves this machine during the tests)."""
    doc = tmp_path / "doc.txt"
    doc.write_text("the cat sat on the mat", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    address = "tcp://127.0.0.1:1"
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        # this machine, or TLS: no warning
        for plain in (address, "tls://127.0.0.1:1"):
            assert main(["obfuscate", str(doc), "-e", "10", "--scheduler", plain, "-o",
                         str(out)]) == 1
            err = capsys.readouterr().err.strip().splitlines()
            assert len(err) == 1 and err[0].startswith("emprivacy: error: cannot connect"), err
        assert "no TLS credentials; set distributed.comm.tls.ca-file" in err[0]
        monkeypatch.setattr(run, "_is_this_machine", lambda host: False)
        with pytest.warns(PrivacyLeakWarning, match="key travels in the clear"), \
                pytest.raises(CorpusRunError, match="cannot connect"), \
                dask_client(scheduler=address):
            pass
        assert main(["obfuscate", str(doc), "-e", "10", "--scheduler", address, "-o",
                     str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2
    assert err[0] == (f"emprivacy: warning: the Dask scheduler {address} is on another "
                      "machine and the connection is not encrypted: the run's key travels in "
                      "the clear, and whoever can reach the scheduler can run code on the "
                      "workers, which read every document; use a tls:// address "
                      "(docs/SCALE_OUT.md)")
    assert err[1].startswith(f"emprivacy: error: cannot connect to the Dask scheduler at "
                             f"'{address}'")


def test_scheduler_reached_with_dasks_tls_configuration(client, tmp_path: Path) -> None:
    """``--scheduler tls://...`` with the certificates in Dask's configuration (here the
    local cluster's own, written to files as an operator would)."""
    files = {}
    for name, pem in (("ca.pem", client.security.tls_ca_file),
                      ("client.pem", client.security.tls_client_cert),
                      ("client.key", client.security.tls_client_key)):
        files[name] = tmp_path / name
        files[name].touch(mode=0o600)
        files[name].write_text(pem, encoding="ascii")
    with dask.config.set({"distributed.comm.tls.ca-file": str(files["ca.pem"]),
                          "distributed.comm.tls.client.cert": str(files["client.pem"]),
                          "distributed.comm.tls.client.key": str(files["client.key"])}), \
            dask_client(scheduler=client.scheduler.address) as other:
        assert other.submit(operator.mul, 6, 7).result() == 42


def test_bad_scheduler_address_is_a_usage_error(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "doc.txt"
    doc.write_text("the cat sat on the mat", encoding="utf-8")
    assert main(["obfuscate", str(doc), "-e", "10", "--scheduler", "foo://127.0.0.1:1", "-o",
                 str(tmp_path / "out.jsonl")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("emprivacy: error: not a Dask scheduler address: "
                             "'foo://127.0.0.1:1'")


# -- stopping signals ----------------------------------------------------------------------
def _blocked() -> set[int]:
    """The signals blocked in the calling thread."""
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, []))


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks")
def test_the_workers_never_see_ctrl_c_or_sigterm() -> None:
    """Every worker process blocks SIGINT and SIGTERM from its start, a worker the nanny
    starts again too (a terminal's Ctrl-C reaches the whole process group: the command
    stops its workers itself, issue 44 item 4); the calling thread's mask is as it was."""
    before = _blocked()
    with dask_client(n_workers=1) as c:
        assert _blocked() == before
        stopping = {signal.SIGINT, signal.SIGTERM}
        assert all(stopping <= mask for mask in c.run(_blocked).values())
        c.restart()
        assert all(stopping <= mask for mask in c.run(_blocked).values())
    assert _blocked() == before


# -- the command line ----------------------------------------------------------------------
def test_cli_workers_output_equals_the_single_process_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--workers 2 --dashboard``: the same bytes as one process with the same seed, and
    (even with -q) one line giving the dashboard's address on 127.0.0.1."""
    words = load_embeddings(vocab_size=5000).words
    rng = np.random.default_rng(16)
    corpus = tmp_path / "docs.jsonl"
    corpus.write_text("".join(
        json.dumps({"id": f"d{i}", "text": " ".join(rng.choice(words[:2000], 12))}) + "\n"
        for i in range(40)), encoding="utf-8")
    common = ["obfuscate", str(corpus), "-e", "10", "--vocab-size", "5000", "--seed", "16",
              "-q"]
    single, cluster = tmp_path / "single.jsonl", tmp_path / "cluster.jsonl"
    assert main([*common, "-o", str(single)]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(run, "_check_dashboard", lambda: None)
    assert main([*common, "--workers", "2", "--dashboard", "-o", str(cluster)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("emprivacy: Dask dashboard: http://127.0.0.1:")
    assert cluster.read_bytes() == single.read_bytes()
    assert len(single.read_text(encoding="utf-8").splitlines()) == 40
