"""Is OpenCL there, and on which device will KataGo run? Said in Debian's package names when something is missing.

KataGo's Linux build is its OpenCL backend. It needs the ICD loader (``libOpenCL.so.1``, Debian's
``ocl-icd-libopencl1``) and at least one OpenCL driver: on a machine without a GPU, POCL runs OpenCL on the
processor (``pocl-opencl-icd``). The devices are read through the loader itself (``ctypes``, no tool needed),
and the libraries the binary links against are checked with ``ldd``, so each missing piece is named.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
from pathlib import Path
from typing import Any

from app.engines.layout import Device

LOADER = "libOpenCL.so.1"
LOADER_PACKAGE = "ocl-icd-libopencl1"
CPU_DRIVER_PACKAGE = "pocl-opencl-icd"

_CL_PLATFORM_NAME = 0x0902
_CL_DEVICE_TYPE = 0x1000
_CL_DEVICE_NAME = 0x102B
_CL_DEVICE_TYPE_CPU = 1 << 1
_CL_DEVICE_TYPE_GPU = 1 << 2
_CL_DEVICE_TYPE_ACCELERATOR = 1 << 3
_KINDS = ((_CL_DEVICE_TYPE_GPU, "GPU"), (_CL_DEVICE_TYPE_ACCELERATOR, "accelerator"), (_CL_DEVICE_TYPE_CPU, "CPU"))


class OpenClMissing(Exception):
    """What is missing, with the Debian packages that bring it (``packages``)."""

    def __init__(self, message: str, packages: list[str]) -> None:
        super().__init__(message)
        self.packages = packages


def devices() -> list[Device]:
    """Every OpenCL device KataGo could use (GPUs, accelerators, processors), in the loader's order.

    Raises ``OpenClMissing`` without the loader, or when no driver offers a device."""
    try:
        cl = ctypes.CDLL(LOADER)
    except OSError:
        raise OpenClMissing(f"the OpenCL loader ({LOADER}) is not installed", [LOADER_PACKAGE]) from None
    uint = ctypes.c_uint32
    cl.clGetPlatformIDs.argtypes = [uint, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(uint)]
    cl.clGetPlatformInfo.argtypes = [ctypes.c_void_p, uint, ctypes.c_size_t, ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
    cl.clGetDeviceIDs.argtypes = [ctypes.c_void_p, ctypes.c_uint64, uint, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(uint)]
    cl.clGetDeviceInfo.argtypes = [ctypes.c_void_p, uint, ctypes.c_size_t, ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]

    def text(getter: Any, handle: int | None, key: int) -> str:
        buffer = ctypes.create_string_buffer(1024)
        if getter(handle, key, len(buffer), buffer, None) != 0:
            return ""
        return buffer.value.decode(errors="replace").strip()

    count = uint(0)
    if cl.clGetPlatformIDs(0, None, ctypes.byref(count)) != 0 or count.value == 0:
        raise _no_driver()
    platforms = (ctypes.c_void_p * count.value)()
    cl.clGetPlatformIDs(count.value, platforms, None)
    found: list[Device] = []
    wanted = _CL_DEVICE_TYPE_CPU | _CL_DEVICE_TYPE_GPU | _CL_DEVICE_TYPE_ACCELERATOR
    for platform in platforms:
        platform_name = text(cl.clGetPlatformInfo, platform, _CL_PLATFORM_NAME)
        n = uint(0)
        if cl.clGetDeviceIDs(platform, wanted, 0, None, ctypes.byref(n)) != 0 or n.value == 0:
            continue
        ids = (ctypes.c_void_p * n.value)()
        cl.clGetDeviceIDs(platform, wanted, n.value, ids, None)
        for device in ids:
            kind_bits = ctypes.c_uint64(0)
            cl.clGetDeviceInfo(device, _CL_DEVICE_TYPE, ctypes.sizeof(kind_bits), ctypes.byref(kind_bits), None)
            kind = next((name for bit, name in _KINDS if kind_bits.value & bit), "CPU")
            found.append(Device(text(cl.clGetDeviceInfo, device, _CL_DEVICE_NAME), platform_name, kind))
    if not found:
        raise _no_driver()
    return found


def _no_driver() -> OpenClMissing:
    return OpenClMissing(
        "no OpenCL driver offers a device (on a machine without a GPU, POCL runs OpenCL on the processor)",
        [CPU_DRIVER_PACKAGE],
    )


def best(found: list[Device]) -> Device:
    """The device KataGo prefers when it is not told one: a GPU, else an accelerator, else the processor."""
    order = {"GPU": 0, "accelerator": 1, "CPU": 2}
    return min(found, key=lambda device: order.get(device.kind, 3))


# Libraries the KataGo binary takes from the system (the AppImage bundles zlib, libzip and bzip2), and their packages.
_LIBRARY_PACKAGES = {
    "libOpenCL.so.1": LOADER_PACKAGE,
    "libssl.so.3": "libssl3",
    "libcrypto.so.3": "libssl3",
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
}


def missing_libraries(katago: Path, lib_dir: Path) -> list[str]:
    """The shared libraries ``ldd`` cannot find for the binary (its bundled folder on the path)."""
    env = dict(os.environ, LD_LIBRARY_PATH=library_path(lib_dir))
    try:
        out = subprocess.run(["ldd", str(katago)], env=env, capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []  # no ldd: KataGo's own start will say what it lacks
    return [line.split("=>")[0].strip() for line in out.splitlines() if "not found" in line]


def packages_for(libraries: list[str]) -> list[str]:
    """Debian packages for these libraries (a library not known here is named as it is)."""
    trixie = _debian_major() >= 13  # Debian 13 renamed libssl3 for its 64-bit time_t transition
    names: list[str] = []
    for library in libraries:
        package = _LIBRARY_PACKAGES.get(library, library)
        if package == "libssl3" and trixie:
            package = "libssl3t64"
        if package not in names:
            names.append(package)
    return names


def _debian_major() -> int:
    try:
        return int(Path("/etc/debian_version").read_text().split(".")[0])
    except (OSError, ValueError):
        return 0


def library_path(lib_dir: Path) -> str:
    """``LD_LIBRARY_PATH`` with the AppImage's bundled libraries first."""
    existing = os.environ.get("LD_LIBRARY_PATH", "")
    return f"{lib_dir}:{existing}" if existing else str(lib_dir)
