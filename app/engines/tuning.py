"""KataGo's OpenCL tuning file, written rather than tuned.

KataGo's OpenCL backend compiles its kernels with parameters (work-group sizes, vector widths, tile sizes) read
from a tuning file, one per device and network shape. Without one it runs its own tuner first. On POCL (OpenCL
on the processor, the usual case on a machine without a GPU) that tuner ran for about 23 minutes and then
crashed ("double free or corruption") in its ``transformerRMSNorm`` stage, saving nothing, so every start would
tune again and crash again. ``tengen engines tune`` writes the file instead, in KataGo's own format and under
KataGo's own name for the device, and every config names it (``openclTunerFile``), so KataGo never tunes.

The parameters below are the best KataGo's tuner found on POCL (an AVX-512 processor, this network, a 9x9
buffer) for each stage it finished before it crashed again in ``transformerRMSNorm`` ("malloc(): unsorted double
linked list corrupted", after 14 minutes), and KataGo's defaults from that stage on. They are valid on any
device (KataGo checks them when it loads the file); on a GPU, KataGo's own tuner finds better ones
(docs/engines.md, "Tuning").

The format (KataGo's ``OpenCLTuneParams::save``/``load``, version 13): ``VERSION=13``, then 21 lines that are not
``#`` comments: eight flags (0 or 1), then one ``KEY=VALUE ...`` line per kernel, in the order of ``KERNELS``.
"""

from __future__ import annotations

from pathlib import Path

from app.engines import pins
from app.engines.layout import Device, Layout

VERSION = 13
FLAGS = (
    "canUseFP16Storage",
    "canUseFP16Compute",
    "canUseFP16TensorCores",
    "canUseFP16TensorCoresFor1x1",
    "shouldUseFP16Storage",
    "shouldUseFP16Compute",
    "shouldUseFP16TensorCores",
    "shouldUseFP16TensorCoresFor1x1",
)
# Every kernel's parameters, in the file's order. FP16 stays off (POCL offers no half-precision arithmetic), so
# the xGemm16 and tensor-core kernels are never compiled; their lines hold KataGo's defaults.
KERNELS: tuple[tuple[str, str], ...] = (
    ("xGemmDirect", "WGD=32 MDIMCD=16 NDIMCD=8 MDIMAD=16 NDIMBD=16 KWID=2 VWMD=2 VWND=2 PADA=1 PADB=1"),
    ("xGemm", "MWG=16 NWG=16 KWG=16 MDIMC=8 NDIMC=8 MDIMA=8 NDIMB=8 KWI=2 VWM=2 VWN=2 STRM=0 STRN=0 SA=0 SB=0"),
    ("xGemm16", "MWG=8 NWG=8 KWG=8 MDIMC=1 NDIMC=1 MDIMA=1 NDIMB=1 KWI=1 VWM=1 VWN=1 STRM=0 STRN=0 SA=0 SB=0"),
    ("hGemmWmma", "MWG=16 NWG=16 KWG=16 MWAVE=16 NWAVE=16 MWARP=16 NWARP=16 VWM=2 VWN=2 SA=0 SB=0"),
    (
        "hGemmWmmaNCHW",
        "MWG=16 NWG=16 KWG=16 MWAVE=16 NWAVE=16 MWARP=16 NWARP=16 VWM=1 VWN=2 SB=0 PAD_ELTS_PER_THREAD=1 PAD_ROWS_PER_THREAD=1",
    ),
    (
        "conv3x3",
        "INTILE_XSIZE=4 INTILE_YSIZE=4 OUTTILE_XSIZE=2 OUTTILE_YSIZE=2 transLocalSize0=16 transLocalSize1=2 "
        "untransLocalSize0=2 untransLocalSize1=1 untransLocalSize2=2",
    ),
    (
        "conv5x5",
        "INTILE_XSIZE=6 INTILE_YSIZE=6 OUTTILE_XSIZE=2 OUTTILE_YSIZE=2 transLocalSize0=1 transLocalSize1=1 "
        "untransLocalSize0=1 untransLocalSize1=1 untransLocalSize2=1",
    ),
    ("gPool", "XYSTRIDE=2 CHANNELSTRIDE=2 BATCHSTRIDE=2"),
    ("transformer", "ATTN_BLOCK_Q=128 ATTN_BLOCK_KV=16 Q_PER_THREAD=4 USE_TILED_ATTN=1"),
    ("transformerRMSNorm", "WG_C_SIZE=64 WG_XY_SIZE=1 C_PER_THREAD=4"),
    ("pointWise", "ELTS_PER_THREAD=1 LOCAL_SIZE=32"),
    ("addChannelBiasesNCHW", "XY_ELTS_PER_THREAD=1 NC_ELTS_PER_THREAD=1"),
    ("spatialRMSNorm", "TILE_SIZE=32 APPLY_ELTS_PER_THREAD=1"),
)
BUFFER = 19  # the file is named for the 19x19 buffer, the one KataGo falls back to for every smaller one


def file_name(device: Device) -> str:
    """KataGo's name for the file (``OpenCLTuner::defaultFileName``): the device name's letters and digits, the
    buffer, and the network's shape."""
    gpu = "".join(ch for ch in device.name if ch.isascii() and ch.isalnum())
    shape = pins.ModelShape
    transformer = f"_m{shape.MID_CHANNELS}_h{shape.HEAD_DIM}" if shape.HEAD_DIM > 0 else ""
    return f"tune{VERSION}_gpu{gpu}_x{BUFFER}_y{BUFFER}_c{shape.TRUNK_CHANNELS}{transformer}_mv{shape.VERSION}.txt"


def path_for(layout: Layout, device: Device) -> Path:
    return layout.home / "opencltuning" / file_name(device)


def text(device: Device) -> str:
    lines = [
        f"VERSION={VERSION}",
        f"# Written by `tengen engines tune` for {device.name} ({device.platform}): see app/engines/tuning.py",
    ]
    for flag in FLAGS:
        lines += [f"#{flag}", "0"]
    for kernel, params in KERNELS:
        lines += [f"#{kernel}", params]
    return "\n".join(lines) + "\n"


def write(layout: Layout, device: Device) -> Path:
    """Write (or rewrite) the device's tuning file; its path."""
    path = path_for(layout, device)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text(device))
    temporary.replace(path)
    return path


def values(content: str) -> list[str]:
    """The lines KataGo reads: neither comments nor blank (``VERSION=13`` first)."""
    return [line.strip() for line in content.splitlines() if line.strip() and not line.lstrip().startswith("#")]
