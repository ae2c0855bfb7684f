"""``python -m emprivacy``: the command line."""

from .cli import run

run()
