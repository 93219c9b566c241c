"""``tengen engines install`` and ``tengen engines tune``: KataGo from the pinned wheel, ready for the engine service.

Each step is skipped when its result is already there and checks out, so the command can be run again at any
time (after installing a missing Debian package, after an upgrade of the pins, in CI on every run):

1. the wheel, downloaded by pip from PyPI (``pip download --no-deps``, hash required) unless it is there with its
   digest; nothing else is ever downloaded, and the server itself never downloads anything;
2. KataGo's AppImage taken out of it and extracted (``--appimage-extract``: no FUSE needed), and the network;
   each checked against its digest;
3. what KataGo needs from the system: the libraries it links (``ldd``) and an OpenCL device, each missing one
   named with its Debian package;
4. the OpenCL tuning file for the device (kept if there is one: ``tengen engines tune`` rewrites it) and one
   analysis config per neural-net buffer size;
5. KataGo started for each buffer size, its speed measured and one real question asked; then the record
   (``installed.json``) is written, which is what the server looks for.

Two installs into one folder at once (two test runs) take turns on a lock file.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

from app.engines import opencl, pins, tuning
from app.engines.analysis import Colour, Point, Position, Question
from app.engines.configs import BUFFERS, write_configs
from app.engines.lane import Lane, Priority
from app.engines.layout import Device, Installed, Layout, engines_dir
from app.engines.process import Launch
from app.engines.service import EngineService
from app.settings import Settings

Say = Callable[[str], None]


class InstallFailed(Exception):
    """A step that cannot be done here; the message says what to do."""


def install(settings: Settings, say: Say = print) -> Installed:
    layout = Layout.under(engines_dir(settings))
    layout.root.mkdir(parents=True, exist_ok=True)
    with _locked(layout, say):
        _fetch_wheel(layout, say)
        _extract(layout, say)
        device = _check_system(layout, say)
        tuning_file = tuning.path_for(layout, device)
        if tuning_file.exists():
            say(f"tuning file: {tuning_file} (kept; `tengen engines tune` rewrites it)")
        else:
            tuning.write(layout, device)
            say(f"tuning file: {tuning_file} (written)")
        write_configs(layout, tuning_file)
        say(f"configs: {', '.join(str(layout.config(buffer).name) for buffer in BUFFERS)} in {layout.root}")
        speeds = asyncio.run(_try(layout, settings, say))
        installed = Installed(
            katrain=pins.KATRAIN_VERSION,
            katago=pins.KATAGO_VERSION,
            device=device,
            tuning_file=str(tuning_file),
            buffers=list(BUFFERS),
            threads=settings.katago_parallel * settings.katago_search_threads,
            evals_per_second=speeds,
        )
        layout.record.write_text(installed.to_json())
    say(f"KataGo {pins.KATAGO_VERSION} is installed in {layout.root}")
    return installed


def tune(settings: Settings, say: Say = print) -> Path:
    """Write (or rewrite) the tuning file for the device found now, and the configs that name it."""
    layout = Layout.under(engines_dir(settings))
    if not layout.katago.exists():
        raise InstallFailed(f"KataGo is not installed in {layout.root}: run `tengen engines install` first")
    with _locked(layout, say):
        device = _device(say)
        path = tuning.write(layout, device)
        write_configs(layout, path)
        installed = Installed.read(layout)
        if installed is not None:
            updated = Installed(**{**installed.__dict__, "device": device, "tuning_file": str(path)})
            layout.record.write_text(updated.to_json())
    say(f"tuning file: {path} (written for {device.name})")
    return path


# ---- the steps


def _fetch_wheel(layout: Layout, say: Say) -> None:
    if _digest_is(layout.wheel, pins.WHEEL_SHA256):
        say(f"wheel: {layout.wheel} (already there)")
        return
    say(f"downloading katrain=={pins.KATRAIN_VERSION} from PyPI (about 106 MB; KataGo {pins.KATAGO_VERSION} and its network)")
    with tempfile.TemporaryDirectory(dir=layout.root) as folder:
        requirements = Path(folder) / "requirements.txt"
        requirements.write_text(f"katrain=={pins.KATRAIN_VERSION} --hash=sha256:{pins.WHEEL_SHA256}\n")
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--no-cache-dir"]
        command += ["--require-hashes", "-r", str(requirements), "--dest", folder, "--quiet"]
        if subprocess.run(command).returncode != 0:
            raise InstallFailed("pip could not download the wheel (see its message above)")
        downloaded = Path(folder) / pins.WHEEL_NAME
        if not _digest_is(downloaded, pins.WHEEL_SHA256):
            raise InstallFailed(f"the downloaded {pins.WHEEL_NAME} is not the pinned one (sha256 differs)")
        downloaded.replace(layout.wheel)
    say(f"wheel: {layout.wheel} (downloaded, sha256 checked)")


def _extract(layout: Layout, say: Say) -> None:
    with zipfile.ZipFile(layout.wheel) as wheel:
        if not _digest_is(layout.model, pins.MODEL_SHA256):
            _take(wheel, pins.MODEL_MEMBER, layout.model, pins.MODEL_SHA256)
        if not _digest_is(layout.katago, pins.KATAGO_BINARY_SHA256):
            shutil.rmtree(layout.extracted, ignore_errors=True)
            _take(wheel, pins.KATAGO_MEMBER, layout.appimage, pins.KATAGO_SHA256)
            layout.appimage.chmod(0o755)
            try:
                done = subprocess.run(
                    [str(layout.appimage), "--appimage-extract"], cwd=layout.root, capture_output=True, text=True
                )
            finally:
                layout.appimage.unlink(missing_ok=True)
            if done.returncode != 0 or not _digest_is(layout.katago, pins.KATAGO_BINARY_SHA256):
                raise InstallFailed(f"KataGo's AppImage could not be extracted: {done.stderr.strip()[-500:]}")
    say(f"KataGo: {layout.katago}")
    say(f"network: {layout.model}")


def _take(wheel: zipfile.ZipFile, member: str, target: Path, sha256: str) -> None:
    temporary = target.with_suffix(".part")
    with wheel.open(member) as source, temporary.open("wb") as out:
        shutil.copyfileobj(source, out, 1 << 20)
    if not _digest_is(temporary, sha256):
        temporary.unlink()
        raise InstallFailed(f"{member} in the wheel is not the pinned one (sha256 differs)")
    temporary.replace(target)


def _check_system(layout: Layout, say: Say) -> Device:
    missing = opencl.packages_for(opencl.missing_libraries(layout.katago, layout.lib_dir))
    try:
        device = _device(say)
    except InstallFailed as exc:
        packages = [*missing, *[p for p in getattr(exc.__cause__, "packages", []) if p not in missing]]
        raise InstallFailed(f"{exc}\n{_apt(packages)}") from None
    if missing:
        raise InstallFailed(f"KataGo needs libraries this machine does not have.\n{_apt(missing)}")
    return device


def _device(say: Say) -> Device:
    try:
        found = opencl.devices()
    except opencl.OpenClMissing as exc:
        raise InstallFailed(f"OpenCL: {exc}") from exc
    device = opencl.best(found)
    say(f"OpenCL device: {device.name} ({device.platform}, {device.kind})")
    return device


def _apt(packages: list[str]) -> str:
    return f"Missing Debian packages: {' '.join(packages)}\nInstall them with: sudo apt-get install {' '.join(packages)}"


async def _try(layout: Layout, settings: Settings, say: Say) -> dict[int, float]:
    """Start KataGo for each buffer size (one after another), measure it, and ask one real question."""
    lanes = [
        Lane(
            buffer,
            Launch.configured(layout, buffer, settings),
            parallel=settings.katago_parallel,
            start_timeout=settings.katago_start_seconds,
            measure_visits=max(settings.katago_measure_visits, 2),
        )
        for buffer in BUFFERS
    ]
    service = EngineService(lanes, settings.katago_queue)
    say(f"starting KataGo for {', '.join(f'{b}x{b}' for b in BUFFERS)} (each alone, its speed measured)")
    service.start()
    try:
        await lanes[-1].started.wait()
        failed = [lane for lane in lanes if lane.state != "ready"]
        if failed:
            raise InstallFailed(f"KataGo did not start: {failed[0].error or failed[0].state}")
        speeds = {lane.buffer: lane.evals_per_second or 0.0 for lane in lanes}
        threads = settings.katago_parallel * settings.katago_search_threads
        for buffer, rate in speeds.items():
            say(f"speed {buffer}x{buffer}: {rate:.2f} evaluations a second ({threads} thread(s))")
        moves: tuple[tuple[Colour, Point | None], ...] = (("B", (2, 2)), ("W", (6, 6)), ("B", (2, 6)))
        answer = await service.analyze(Question(Position(9, moves=moves), visits=2, ownership=True), Priority.ESTIMATE)
        say(f"test question (9x9, 3 moves): Black's win rate {answer.winrate:.2f}, lead {answer.score_lead:+.1f}, answered")
        return speeds
    finally:
        await service.close()


# ---- helpers


@contextlib.contextmanager
def _locked(layout: Layout, say: Say) -> Iterator[None]:
    with (layout.root / ".lock").open("w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("waiting for another install into the same folder")
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _digest_is(path: Path, sha256: str) -> bool:
    if not path.is_file():
        return False
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest() == sha256
