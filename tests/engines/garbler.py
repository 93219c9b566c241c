"""Runs the command line it is given (KataGo's analysis engine) and damages its answers to marked questions.

A question is marked by its komi: the answer to one with komi 0.5 loses its ``rootInfo`` (JSON, but not an
answer), with 1.5 it is cut short just after its id (not JSON, but it names its question), with 2.5 it becomes
text that names nothing. Everything else passes through unchanged, both ways.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading

DAMAGE = {0.5: "shape", 1.5: "cut", 2.5: "noise"}


def main() -> int:
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    marked: dict[str, str] = {}

    def relay_questions() -> None:
        assert child.stdin is not None
        for line in sys.stdin.buffer:
            try:
                question = json.loads(line)
            except ValueError:
                question = None
            if isinstance(question, dict) and question.get("komi") in DAMAGE:
                marked[str(question["id"])] = DAMAGE[question["komi"]]
            child.stdin.write(line)
            child.stdin.flush()
        child.stdin.close()

    threading.Thread(target=relay_questions, daemon=True).start()
    for line in child.stdout:
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        damage = marked.get(str(answer.get("id"))) if isinstance(answer, dict) and "action" not in answer else None
        if damage == "shape" and isinstance(answer, dict):
            answer.pop("rootInfo", None)
            line = json.dumps(answer).encode() + b"\n"
        elif damage == "cut":
            line = line[: line.index(b",") + 1] + b'"moveInf\n'
        elif damage == "noise":
            line = b"<<not an answer>>\n"
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
