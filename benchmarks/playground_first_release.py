"""How long the playground takes to show its first release once the server is up.

``python benchmarks/playground_first_release.py [--runs 3]``: each run, in a process of its
own (nothing loaded or cached in memory by an earlier run), builds a fresh
:class:`~emprivacy.playground.Playground` (the built-in GloVe 6B 50d, 100,000 words, loaded
before the server starts, as ``emprivacy playground`` does), starts the server, and times

* **browser**: from the server being up to the page, opened in headless Chromium (started
  beforehand, as a user's browser is), showing its first release — the sample text at
  ε = 10 with 5 and 20 beside it (three releases);
* **http**: the same first request sent without a browser (the server's share);

and prints each run's figures and their medians.  The target (issue 43): under 2 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import urllib.request

from emprivacy.playground import BackgroundServer, Playground
from emprivacy.playground.render import SAMPLE
from playground_browser import browser_missing, chromium_page, wait_for_release


def _browser_run() -> tuple[float, float]:
    with chromium_page() as page:
        page.goto("about:blank")
        start = time.perf_counter()
        playground = Playground()
        loaded = time.perf_counter() - start
        with BackgroundServer(playground) as server:
            up = time.perf_counter()
            page.goto(server.url)
            wait_for_release(page, 1)
            return loaded, time.perf_counter() - up


def _http_run() -> tuple[float, float]:
    start = time.perf_counter()
    playground = Playground()
    loaded = time.perf_counter() - start
    with BackgroundServer(playground) as server:
        up = time.perf_counter()
        base = server.url.split("?")[0]
        body = json.dumps({"text": SAMPLE, "epsilons": [10, 5, 20], "seed": 1}).encode()
        request = urllib.request.Request(base + "api/release", data=body, method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "X-Emprivacy-Token": server.token})
        with urllib.request.urlopen(request, timeout=120) as answer:
            json.load(answer)
        return loaded, time.perf_counter() - up


def _in_a_process(kind: str) -> tuple[float, float]:
    done = subprocess.run([sys.executable, __file__, "--one", kind], capture_output=True,
                          text=True, check=True, timeout=600)
    loaded, first = json.loads(done.stdout.strip().splitlines()[-1])
    return float(loaded), float(first)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one", choices=["browser", "http"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:  # one measurement, in this process
        print(json.dumps(_browser_run() if args.one == "browser" else _http_run()))
        return
    missing = browser_missing()
    figures: dict[str, list[float]] = {"browser": [], "http": []}
    for run in range(args.runs):
        if missing is None:
            loaded, first = _in_a_process("browser")
            figures["browser"].append(first)
            print(f"run {run + 1}: playground ready (embeddings loaded, decoder built) in "
                  f"{loaded:.2f} s; browser: first release shown {first:.2f} s after the "
                  "server was up")
        loaded, first = _in_a_process("http")
        figures["http"].append(first)
        print(f"run {run + 1}: playground ready in {loaded:.2f} s; http: first release "
              f"answered {first:.2f} s after the server was up")
    if missing is not None:
        print(f"browser: not measured ({missing})")
    for kind, values in figures.items():
        if values:
            print(f"median {kind}: {statistics.median(values):.2f} s over {len(values)} runs "
                  f"(target < 2 s)")


if __name__ == "__main__":
    main()
