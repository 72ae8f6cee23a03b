"""A stand-in for a FlagGems source checkout's package (`--candidate python:fake_gems` with
PYTHONPATH=tests/providers/fake_checkout/src): SHAPE_MODE=upstream finds benchmark/ above it.
At import it writes what FlagGems reads from the environment to $CALIBER_ENV_PROBE_FILE, so a
test sees what the candidate saw before its import finished. Its scope is toy_override's."""

import json
import os

from toy_override import caliber_context  # noqa: F401  (tests/providers on PYTHONPATH)

_probe = os.environ.get("CALIBER_ENV_PROBE_FILE")
if _probe:
    with open(_probe, "w") as f:
        json.dump(
            {name: os.environ.get(name) for name in ("USE_FLAGTUNE", "GEMS_VENDOR")}, f
        )
