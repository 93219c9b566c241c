"""The ``tengen`` command: ``serve``, ``migrate``, ``mailer``, ``analyst``, ``score``, ``ratings rebuild``, ``admin``,
``bot``, ``house-bots`` and ``engines``."""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tengen", description="Tengen Go server")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run pending migrations, then serve on TENGEN_HOST:TENGEN_PORT")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)

    sub.add_parser("migrate", help="run pending database migrations and exit")

    sub.add_parser("mailer", help="send the server's email (notices, digests, links) through TENGEN_MAIL_SMTP_HOST")

    sub.add_parser("analyst", help="work the AI review queue with this machine's KataGo, beside the web servers (docs/review.md)")

    score = sub.add_parser("score", help="replay an SGF record and print its final position and score as JSON")
    score.add_argument("file")
    score.add_argument("--rules", default=None, help="rules preset overriding the record's RU")
    score.add_argument("--komi", type=float, default=None, help="komi overriding the record's KM")
    score.add_argument("--dead", default=None, help="dead stones, e.g. D4,E5 (overrides the proposal)")

    ratings = sub.add_parser("ratings", help="rating maintenance")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", required=True)
    ratings_sub.add_parser("rebuild", help="recompute every rating from the starting ratings and the rated games")

    admin = sub.add_parser("admin", help="grant or revoke a role (moderator, admin): docs/moderation.md")
    admin_sub = admin.add_subparsers(dest="admin_command", required=True)
    for action in ("grant", "revoke"):
        command = admin_sub.add_parser(action, help=f"{action} a role")
        command.add_argument("name", help="the account's name")
        command.add_argument("role", choices=("moderator", "admin"))

    bot = sub.add_parser("bot", help="connect a GTP engine to a Tengen server as a bot account (docs/bots.md)")
    bot.add_argument("--gtp", default=None, help='the engine\'s command line, e.g. "gnugo --mode gtp --level 5"')
    bot.add_argument(
        "--katago-step",
        default=None,
        help="a KataGo house bot's step (e.g. Kata-15k or 15k): its moves from the server's KataGo (house bots only)",
    )
    bot.add_argument(
        "--token", default=os.environ.get("TENGEN_BOT_TOKEN"), help="the bot account's API token (default: $TENGEN_BOT_TOKEN)"
    )
    bot.add_argument(
        "--server",
        default=os.environ.get("TENGEN_SERVER", "http://127.0.0.1:8000"),
        help="the server's base URL (default: $TENGEN_SERVER or http://127.0.0.1:8000)",
    )
    bot.add_argument(
        "--max-games", type=int, default=None, help="play at most this many games at once (default: the bot's declared max_games)"
    )
    bot.add_argument(
        "--margin",
        type=float,
        default=1.0,
        help="seconds kept back from every clock for the network and the bridge (default 1.0)",
    )
    bot.add_argument(
        "--random-share",
        type=float,
        default=0.0,
        help="the share of moves (0 to 1) chosen at random among the legal ones: a weaker bot",
    )
    bot.add_argument(
        "--scoring",
        choices=("engine", "accept"),
        default="engine",
        help="engine: mark what final_status_list dead says; accept: accept the server's proposal",
    )
    bot.add_argument(
        "--untimed-limit", type=float, default=30.0, help="seconds a move may take, untimed or correspondence (default 30)"
    )
    bot.add_argument(
        "--max-think",
        type=float,
        default=None,
        help="seconds a move may take at most, however much the clock allows (default: the clock's pace only)",
    )
    bot.add_argument(
        "--fallback-gtp",
        default=None,
        help='a faster engine asked when the engine overruns a move\'s budget, e.g. "gnugo --mode gtp --level 0" '
        "(default: none, the bot passes)",
    )
    bot.add_argument("--log-level", default="info")

    host = sub.add_parser(
        "house-bots",
        help="run several house bots' bridges in one process (started by tengen serve; the bots as JSON on standard input)",
    )
    host.add_argument("--server", default=os.environ.get("TENGEN_SERVER", "http://127.0.0.1:8000"))
    host.add_argument("--log-dir", default=None, help="a log file per bot in this folder (default: standard error)")
    host.add_argument("--log-level", default="info")

    engines = sub.add_parser("engines", help="install KataGo for the server and see its state (docs/engines.md)")
    engines_sub = engines.add_subparsers(dest="engines_command", required=True)
    engines_sub.add_parser("install", help="download, check and set up KataGo into TENGEN_ENGINES_DIR (idempotent)")
    engines_sub.add_parser("status", help="what is installed, where, on which device, at what speed")
    engines_sub.add_parser("tune", help="write (or rewrite) KataGo's OpenCL tuning file for the device found")

    args = parser.parse_args(argv)
    if args.command == "bot":
        import logging

        from app.bots.bridge import run_bridge

        logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s")
        logging.getLogger("httpx").setLevel(logging.WARNING)
        if not args.token:
            parser.error("bot: --token (or TENGEN_BOT_TOKEN) is required")
        if not 0 <= args.random_share <= 1:
            parser.error("bot: --random-share is between 0 and 1")
        if (args.gtp is None) == (args.katago_step is None):
            parser.error("bot: one of --gtp (an engine's command line) or --katago-step (a KataGo house bot) is required")
        if args.katago_step is not None:
            from app.bots.rank_pick import step_named

            try:
                step_named(args.katago_step)
            except ValueError as exc:
                parser.error(f"bot: --katago-step: {exc}")
        return run_bridge(
            args.server,
            args.token,
            args.gtp or "",
            katago_step=args.katago_step,
            max_games=args.max_games,
            margin=args.margin,
            random_share=args.random_share,
            scoring=args.scoring,
            untimed_limit=args.untimed_limit,
            max_think=args.max_think,
            fallback=args.fallback_gtp,
        )
    if args.command == "house-bots":
        from pathlib import Path

        from app.bots.host import run_host

        return run_host(args.server, Path(args.log_dir) if args.log_dir else None, args.log_level)
    if args.command == "serve":
        from app.server import serve as run_server

        return run_server(host=args.host, port=args.port)
    if args.command == "migrate":
        from app.store.migrations import upgrade_to_head

        upgrade_to_head()
        return 0
    if args.command == "mailer":
        from app.logs import configure_logging, default_format
        from app.mail.worker import run_mailer
        from app.settings import get_settings

        settings = get_settings()
        configure_logging(settings.log_format or default_format(settings.env), settings.log_level)
        return run_mailer(settings)
    if args.command == "analyst":
        from app.ai_review.command import run_analyst
        from app.logs import configure_logging, default_format
        from app.settings import get_settings

        settings = get_settings()
        configure_logging(settings.log_format or default_format(settings.env), settings.log_level)
        return run_analyst(settings)
    if args.command == "score":
        from app.records.score_command import run as run_score

        return run_score(args.file, rules=args.rules, komi=args.komi, dead=args.dead)
    if args.command == "admin":
        from app.moderation.command import role_command

        return role_command(args.admin_command, args.name, args.role)
    if args.command == "engines":
        from app.engines.command import engines_command

        return engines_command(args.engines_command)
    if args.command == "ratings":
        from app.ratings.command import rebuild_command

        return rebuild_command()
    return 2


if __name__ == "__main__":
    sys.exit(main())
