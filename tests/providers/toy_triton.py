"""A toy candidate that loads Triton, as FlagGems does, for the test of the scratch allocator
caliber's python: provider installs for Triton (`--candidate python:toy_triton`). Its scope
changes nothing."""

import contextlib

import triton  # noqa: F401  (loaded, as a Triton-based library loads it)


def caliber_context():
    return contextlib.nullcontext()
