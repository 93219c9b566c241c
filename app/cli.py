"""The ``tengen`` command: ``serve``, ``migrate``, ``score`` and ``ratings rebuild``."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tengen", description="Tengen Go server")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run pending migrations, then serve on TENGEN_HOST:TENGEN_PORT")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)

    sub.add_parser("migrate", help="run pending database migrations and exit")

    score = sub.add_parser("score", help="replay an SGF record and print its final position and score as JSON")
    score.add_argument("file")
    score.add_argument("--rules", default=None, help="rules preset overriding the record's RU")
    score.add_argument("--komi", type=float, default=None, help="komi overriding the record's KM")
    score.add_argument("--dead", default=None, help="dead stones, e.g. D4,E5 (overrides the proposal)")

    ratings = sub.add_parser("ratings", help="rating maintenance")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", required=True)
    ratings_sub.add_parser("rebuild", help="recompute every rating from the starting ratings and the rated games")

    args = parser.parse_args(argv)
    if args.command == "serve":
        from app.server import serve as run_server

        return run_server(host=args.host, port=args.port)
    if args.command == "migrate":
        from app.store.migrations import upgrade_to_head

        upgrade_to_head()
        return 0
    if args.command == "score":
        from app.records.score_command import run as run_score

        return run_score(args.file, rules=args.rules, komi=args.komi, dead=args.dead)
    if args.command == "ratings":
        from app.ratings.command import rebuild_command

        return rebuild_command()
    return 2


if __name__ == "__main__":
    sys.exit(main())
