"""``python -m emprivacy``: the command line."""

from emprivacy.cli import run

run()
