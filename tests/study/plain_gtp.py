"""A minimal GTP engine for the hint tests: it knows the standard commands only (no ``top_moves_*``) and
always suggests the first empty point of the top row it was not told about."""

import sys

played: set[str] = set()
size = 19
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command, args = words[0], words[1:]
    if command == "quit":
        print("=\n", flush=True)
        break
    if command == "boardsize":
        size = int(args[0])
        answer = ""
    elif command == "play":
        played.add(args[1].upper())
        answer = ""
    elif command in ("clear_board", "komi"):
        answer = ""
    elif command == "reg_genmove":
        answer = next((f"{c}{size}" for c in "ABCDEFGHJKLMNOPQRST"[:size] if f"{c}{size}" not in played), "pass")
    else:
        print("? unknown command\n", flush=True)
        continue
    print(f"= {answer}\n", flush=True)
