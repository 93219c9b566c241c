"""``tengen engines install | status | tune`` for real, on the tests' KataGo (``katago_dir``, installed once)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from app.engines import tuning
from app.engines.layout import Installed, Layout
from app.engines.opencl import library_path
from tests.support.server_process import REPO_ROOT

pytestmark = pytest.mark.katago


def tengen(engines: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "TENGEN_ENGINES_DIR": str(engines), "TENGEN_KATAGO_MEASURE_VISITS": "2", **env}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], env=environ, cwd=REPO_ROOT, capture_output=True, text=True, timeout=900
    )


def test_install_again_downloads_nothing_and_measures_each_buffer(katago_dir: Path) -> None:
    done = tengen(katago_dir, "engines", "install")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(already there)" in done.stdout and "downloading" not in done.stdout
    for buffer in (9, 13, 19):
        assert f"speed {buffer}x{buffer}: " in done.stdout
    assert "test question (9x9, 3 moves)" in done.stdout
    installed = Installed.read(Layout.under(katago_dir))
    assert installed is not None and all(installed.evals_per_second[buffer] > 0 for buffer in (9, 13, 19))
    status = tengen(katago_dir, "engines", "status")
    assert status.returncode == 0, status.stdout
    assert installed.device.name in status.stdout and "speed 19x19" in status.stdout


def test_status_names_the_cpu_policy_katago_gets_here(katago_dir: Path) -> None:
    status = tengen(katago_dir, "engines", "status")
    assert status.returncode == 0, status.stdout
    assert "CPU policy: SCHED_IDLE (its processes run only when the cores are free" in status.stdout
    niced = tengen(katago_dir, "engines", "status", TENGEN_KATAGO_SCHED_IDLE="false", TENGEN_KATAGO_NICE="12")
    niceness = min(19, os.getpriority(os.PRIO_PROCESS, 0) + 12)  # added to the server's own, as `nice -n` does
    assert f"CPU policy: nice {niceness} (" in niced.stdout


def test_without_an_opencl_driver_install_names_the_debian_package(katago_dir: Path, tmp_path: Path) -> None:
    done = tengen(katago_dir, "engines", "install", OCL_ICD_VENDORS=str(tmp_path))  # a folder listing no driver
    assert done.returncode == 1
    assert "Missing Debian packages: pocl-opencl-icd" in done.stdout
    assert "sudo apt-get install pocl-opencl-icd" in done.stdout


def test_tune_writes_the_file_katago_finds_by_its_own_name(katago_dir: Path, tmp_path: Path) -> None:
    done = tengen(katago_dir, "engines", "tune")
    assert done.returncode == 0, done.stdout
    layout = Layout.under(katago_dir)
    installed = Installed.read(layout)
    assert installed is not None and Path(installed.tuning_file).is_file()
    # KataGo, told no file and a home of its own holding the file under our name, finds it and tunes nothing.
    home = tmp_path / "home"
    (home / "opencltuning").mkdir(parents=True)
    expected = home / "opencltuning" / tuning.file_name(installed.device)
    shutil.copyfile(installed.tuning_file, expected)
    command = [str(layout.katago), "analysis", "-config", str(layout.config(9)), "-model", str(layout.model)]
    command += ["-override-config", f"homeDataDir={home},openclTunerFile=", "-quit-without-waiting"]
    env = {**os.environ, "LD_LIBRARY_PATH": library_path(layout.lib_dir)}
    katago = subprocess.Popen(["nice", "-n", "19", *command], stdin=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    timer = threading.Timer(120, katago.kill)
    timer.start()
    loaded = ""
    try:
        assert katago.stderr is not None
        for line in katago.stderr:
            if "Loaded tuning parameters from:" in line or "tuning" in line.lower() and "No existing" in line:
                loaded = line
                break
    finally:
        timer.cancel()
        katago.kill()
        katago.wait()
    assert loaded.strip().endswith(f"Loaded tuning parameters from: {expected}"), loaded
