"""``tengen engines install | status | tune`` (docs/engines.md)."""

from __future__ import annotations

from pathlib import Path

from app.engines import opencl, pins
from app.engines.install import InstallFailed, install, tune
from app.engines.layout import Installed, Layout, engines_dir
from app.engines.process import scheduling_here
from app.settings import get_settings


def engines_command(action: str) -> int:
    settings = get_settings()
    try:
        if action == "install":
            install(settings)
        elif action == "tune":
            tune(settings)
        else:
            return status()
    except InstallFailed as exc:
        print(f"tengen engines {action}: {exc}")
        return 1
    return 0


def status() -> int:
    """What is installed, where, on which device, at what measured speed; 1 when KataGo is not installed."""
    settings = get_settings()
    layout = Layout.under(engines_dir(settings))
    installed = Installed.read(layout)
    if installed is None:
        print(f"KataGo is not installed in {layout.root}: run `tengen engines install` (docs/engines.md)")
        return 1
    print(f"KataGo {installed.katago} (from katrain {installed.katrain}) in {layout.root}")
    print(f"  program: {layout.katago}")
    print(f"  network: {layout.model}")
    for buffer in installed.buffers:
        print(f"  config {buffer}x{buffer}: {layout.config(buffer)}")
    print(f"  device: {installed.device.name} ({installed.device.platform}, {installed.device.kind})")
    tuning_state = "present" if Path(installed.tuning_file).is_file() else "MISSING: run `tengen engines tune`"
    print(f"  tuning file: {installed.tuning_file} ({tuning_state})")
    policy = scheduling_here(settings)
    if policy == "SCHED_IDLE":
        why = "its processes run only when the cores are free: the games go first"
    elif not settings.katago_sched_idle:
        why = "TENGEN_KATAGO_SCHED_IDLE=false"
    else:
        why = "SCHED_IDLE is refused here: the games may feel KataGo when it is busy"
    print(f"  CPU policy: {policy} ({why})")
    for buffer, rate in sorted(installed.evals_per_second.items()):
        print(f"  speed {buffer}x{buffer}: {rate:.2f} evaluations a second at install ({installed.threads} thread(s))")
    try:
        now = opencl.best(opencl.devices())
        print(f"  OpenCL now: {now.name} ({now.platform})")
    except opencl.OpenClMissing as exc:
        print(f"  OpenCL now: {exc}; Debian packages: {' '.join(exc.packages)}")
        return 1
    if pins.KATAGO_VERSION != installed.katago:
        print(f"  this server pins KataGo {pins.KATAGO_VERSION}: run `tengen engines install`")
    return 0
