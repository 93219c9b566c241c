"""Runs the rest of its command line (KataGo) below the web server: under Linux's ``SCHED_IDLE``, else at a niceness.

    python lowered.py <niceness> <idle|nice> <program> [<argument> ...]

``SCHED_IDLE`` runs a thread only when nothing else wants the core, so the games never wait for KataGo (measured:
``bench/engine_load_bench.py``, docs/performance.md); niceness 19 alone still takes a share of the core, and a
time slice, from a waking web server. The policy is set here, in the process that then becomes KataGo
(``exec``), before KataGo starts any thread, so that every thread it starts inherits it. Where the kernel refuses
it (a seccomp filter, not Linux), this says so on the standard error and the niceness alone applies; the server
reads the policy the running process has (``KataGoProcess.scheduling``) and reports that.

A program of its own rather than ``preexec_fn`` (not safe in a server with threads) or ``chrt`` (which fails
instead of falling back); standard library only, run with ``-I -S``, so that it starts in milliseconds.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    niceness, mode, command = int(argv[0]), argv[1], argv[2:]
    if mode == "idle":
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except (OSError, AttributeError) as exc:
            print(f"tengen: SCHED_IDLE refused ({exc}); running at nice {niceness} instead", file=sys.stderr, flush=True)
    if niceness > 0:
        os.nice(niceness)
    os.execvp(command[0], command)
    return 127  # not reached: execvp replaces this process or raises


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
