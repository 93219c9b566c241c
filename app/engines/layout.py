"""Where an installed KataGo lives, and what its install recorded (``installed.json``).

Everything is under one folder per pinned wheel, ``<engines dir>/katrain-<version>/``: the wheel as downloaded,
the folder KataGo's AppImage extracts to, the network, one analysis config per neural-net buffer size, KataGo's
home folder (its OpenCL tuning files) and the record. The record is written last, so a folder without it is an
install that did not finish, and the server treats it as no install at all.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from app.engines import pins
from app.settings import Settings

RECORD = "installed.json"


def engines_dir(settings: Settings) -> Path:
    """``TENGEN_ENGINES_DIR``, else ``<data dir>/engines``."""
    return settings.engines_dir if settings.engines_dir is not None else settings.data_dir / "engines"


@dataclass(frozen=True)
class Layout:
    root: Path

    @classmethod
    def under(cls, engines: Path) -> Layout:
        return cls(engines / f"katrain-{pins.KATRAIN_VERSION}")

    @property
    def wheel(self) -> Path:
        return self.root / pins.WHEEL_NAME

    @property
    def appimage(self) -> Path:
        """Taken out of the wheel only to be extracted, then deleted."""
        return self.root / "katago.AppImage"

    @property
    def extracted(self) -> Path:
        return self.root / "squashfs-root"

    @property
    def katago(self) -> Path:
        return self.extracted / "usr" / "bin" / "katago"

    @property
    def lib_dir(self) -> Path:
        """The libraries the AppImage bundles; KataGo finds them through ``LD_LIBRARY_PATH``."""
        return self.extracted / "usr" / "lib"

    @property
    def model(self) -> Path:
        return self.root / Path(pins.MODEL_MEMBER).name

    @property
    def home(self) -> Path:
        """KataGo's ``homeDataDir``: its OpenCL tuning files go in ``opencltuning/`` there."""
        return self.root / "home"

    def config(self, buffer: int) -> Path:
        return self.root / f"analysis-{buffer}x{buffer}.cfg"

    @property
    def record(self) -> Path:
        return self.root / RECORD


@dataclass(frozen=True)
class Device:
    """The OpenCL device KataGo runs on, as OpenCL names it."""

    name: str
    platform: str
    kind: str  # "CPU", "GPU" or "accelerator"

    @property
    def software(self) -> bool:
        """POCL (or another OpenCL on the processor): KataGo's own tuner is not for it (docs/engines.md)."""
        return self.kind == "CPU"


@dataclass(frozen=True)
class Installed:
    """What ``tengen engines install`` recorded: the device, the tuning file, and the speed it measured."""

    katrain: str
    katago: str
    device: Device
    tuning_file: str
    buffers: list[int]
    threads: int
    evals_per_second: dict[int, float] = field(default_factory=dict)  # per buffer size, at ``threads``

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2) + "\n"

    @classmethod
    def read(cls, layout: Layout) -> Installed | None:
        """The record, or None when there is none (no install, or one that did not finish) or it is unreadable."""
        try:
            data = json.loads(layout.record.read_text())
            installed = cls(
                katrain=str(data["katrain"]),
                katago=str(data["katago"]),
                device=Device(**data["device"]),
                tuning_file=str(data["tuning_file"]),
                buffers=[int(size) for size in data["buffers"]],
                threads=int(data["threads"]),
                evals_per_second={int(size): float(rate) for size, rate in data["evals_per_second"].items()},
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return installed if installed.katrain == pins.KATRAIN_VERSION else None
