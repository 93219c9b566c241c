"""What ``tengen engines install`` fetches, pinned by version and digest.

The only download is one wheel from PyPI: KaTrain's, which carries a Linux build of KataGo (an AppImage, OpenCL
backend) and a network. Everything in it that the server uses is checked against the digests below, so a wheel
that changed under the same version, or a file damaged on disk, is refused rather than run.
"""

from __future__ import annotations

KATRAIN_VERSION = "1.20.0"
WHEEL_NAME = f"katrain-{KATRAIN_VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "489caa966fa395a6ad459239641a927e4a2057963370e450109fe77120de662f"

KATAGO_VERSION = "1.18.1"
KATAGO_MEMBER = "katrain/KataGo/katago"  # the AppImage inside the wheel
KATAGO_SHA256 = "f9029dcaa28608e9efa4e1d404940e651bd067bdd11528222e068f3b34450fd7"
KATAGO_BINARY_SHA256 = "a81e10d68061c1e73f715b387b587ad3799f688363c8fb6545b73ed99a12ccb1"  # usr/bin/katago, extracted

MODEL_MEMBER = "katrain/models/b10c384h6nbttflrs.bin.gz"
MODEL_SHA256 = "0ba27eced5180b3e3d0b898b280c541112989765e789d1eb6cd0d31b2b2c1229"


class ModelShape:
    """The network's shape, as KataGo names its OpenCL tuning files by it (``_c<trunk>_m<mid>_h<head>_mv<version>``)."""

    TRUNK_CHANNELS = 384
    MID_CHANNELS = 192
    HEAD_DIM = 32  # a transformer head's dimension: KataGo puts the mid channels and it in the name only when > 0
    VERSION = 15
