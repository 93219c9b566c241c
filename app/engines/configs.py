"""KataGo's analysis configs, one per neural-net buffer size.

KataGo sizes its neural-net buffers for the largest board a process will see, and a 9x9 position evaluated in a
19x19 buffer costs nearly what a 19x19 position does (about 0.6 evaluations a second against 2 on a small CPU
machine). So there is one config, and one process, per buffer size: 9x9, 13x13 and 19x19. A position goes to
the smallest buffer it fits (a 7x7 to the 9x9 one).

The threads and the other things an operator sets through ``TENGEN_KATAGO_*`` are not in the files: the engine
service passes them on KataGo's command line (``-override-config``), so changing a setting needs no install.
"""

from __future__ import annotations

from pathlib import Path

from app.engines.layout import Layout

BUFFERS = (9, 13, 19)  # a config is written for each; KataGo supports boards up to 19x19


def buffer_for(size: int, buffers: list[int] | tuple[int, ...]) -> int | None:
    """The smallest of ``buffers`` a ``size`` x ``size`` board fits in (None: none is large enough)."""
    fitting = [buffer for buffer in buffers if buffer >= size]
    return min(fitting) if fitting else None


def analysis_config(layout: Layout, buffer: int, tuning_file: Path) -> str:
    return "\n".join(
        [
            f"# KataGo's analysis engine with a {buffer}x{buffer} neural-net buffer, for Tengen's engine service.",
            "# Written by `tengen engines install` (app/engines/configs.py) and again on every install: change the",
            "# server's TENGEN_KATAGO_* settings instead (docs/engines.md).",
            "",
            f"maxBoardXSizeForNNBuffer = {buffer}",
            f"maxBoardYSizeForNNBuffer = {buffer}",
            "",
            "# The OpenCL kernels' parameters: the file `tengen engines tune` writes. Named here, so that KataGo never",
            "# starts its own tuner (which runs for many minutes, and on POCL crashed without saving anything).",
            f"homeDataDir = {layout.home}",
            f"openclTunerFile = {tuning_file}",
            "",
            "# Every query names its visits and what it wants reported; these are only defaults.",
            "maxVisits = 10",
            "reportAnalysisWinratesAs = BLACK",
            "",
            "# Threads: overridden on the command line from the server's settings.",
            "numAnalysisThreads = 1",
            "numSearchThreadsPerAnalysisThread = 1",
            "nnMaxBatchSize = 4",
            "",
            "# 2^15 cached evaluations per process (up to about 100 MB on 19x19): plenty for a few hundred visits a query.",
            "nnCacheSizePowerOfTwo = 15",
            "nnMutexPoolSizePowerOfTwo = 12",
            "nnRandomize = true",
            "",
            "# Log lines go to the standard error, which the service keeps the last lines of (no log files).",
            "logToStderr = true",
            "",
        ]
    )


def write_configs(layout: Layout, tuning_file: Path) -> list[Path]:
    written = []
    for buffer in BUFFERS:
        path = layout.config(buffer)
        path.write_text(analysis_config(layout, buffer, tuning_file))
        written.append(path)
    return written
