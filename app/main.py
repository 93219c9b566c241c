"""``create_app(settings)``: the FastAPI application (REST under /api, OpenAPI at /docs where enabled, WebSockets
under /ws, the static frontend at /, and /healthz, /readyz and /metrics)."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

import app as package
from app.accounts.cookies import SessionSigner
from app.accounts.credentials import endings as credential_endings
from app.accounts.endings import LOGGED_OUT, TOKEN_REVOKED
from app.accounts.hashing import PasswordPool
from app.api.body_limit import BodyLimitMiddleware
from app.api.errors import install_error_handlers
from app.api.headers import Networks, SecurityHeadersMiddleware
from app.api.origin import OriginCheckMiddleware
from app.ai_review.analyst import Analyst, Budget
from app.ai_review.jobs import ReviewQueue
from app.ai_review.service import AiReviewService
from app.api.routers import (
    accounts,
    ai_review,
    bots,
    challenges,
    correspondence,
    email,
    game_ws,
    games,
    health,
    lobby_ws,
    moderation,
    players,
    practice,
    review_ws,
    reviews,
    study,
    tournaments,
)
from app.automatch.pool import make_seek_pool
from app.automatch.service import Automatch
from app.engines.service import EngineService
from app.games.live.housekeeping import Housekeeping
from app.games.live.proposals import DeadStoneProposer
from app.games.live.rooms import RoomManager
from app.games.live.turns import TurnFeed
from app.games.live.vacations import VacationSweeper
from app.limits.counters import make_counters
from app.limits.rules import Limiter
from app.lobby.caps import Caps
from app.lobby.live.broadcaster import MemoryLobbyBroadcaster
from app.lobby.live.hub_broadcaster import HubLobbyBroadcaster
from app.lobby.service import announce_game_finished
from app.lobby.starting import rematch_started
from app.lobby.views import no_spectators
from app.loop_watch import LoopWatch
from app.mail.tokens import MailTokens
from app.metrics import Metrics
from app.moderation import blocks as moderation_blocks
from app.moderation import notices as moderation_notices
from app.moderation.chat_filter import ChatFilters
from app.moderation.fair_play import FairPlay
from app.moderation.service import Moderation
from app.ratings.sweeper import RatingSweeper
from app.reviews.limits import ReviewLimits
from app.reviews.live.rooms import ReviewRooms
from app.settings import Settings, get_settings
from app.shutdown import Step, close_in_order
from app.store.db import create_engine, create_sessionmaker, is_sqlite
from app.store.repositories import games as games_repo
from app.study.hints import HintEngine, hint_command
from app.study.workers import StudyWorkers
from app.tournaments.live.endings import GameEnder
from app.tournaments.live.scheduler import TournamentScheduler
from app.tournaments.service import TournamentService
from app.transport.credential_sweep import CredentialSweep
from app.transport.hub_factory import make_hub
from app.transport.redis_hub import RedisHub
from app.transport.socket_slots import SharedSlots
from app.transport.sockets import SocketRegistry

log = logging.getLogger("tengen")


def create_app(settings: Settings | None = None, clock: Callable[[], float] | None = None) -> FastAPI:
    """``clock`` (default ``time.time``) is the server time every game is charged by; tests pass their own."""
    settings = settings or get_settings()
    clock = clock or time.time

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Migrations are not run here: `tengen serve` (app.server) runs them before starting.
        url = settings.effective_database_url
        if is_sqlite(url):
            engine = entry = create_engine(url)
        else:
            timeout = settings.db_pool_timeout
            engine = create_engine(
                url, pool_size=settings.db_pool_size, max_overflow=settings.db_max_overflow, pool_timeout=timeout
            )
            # Guest starts, log-ins and registrations: a small pool of their own (docs/operations.md, "Limits").
            entry = create_engine(url, pool_size=settings.db_entry_pool_size, max_overflow=0, pool_timeout=timeout)
        app.state.engine = engine
        app.state.sessionmaker = create_sessionmaker(engine)
        app.state.entry_engine = entry
        app.state.entry_sessionmaker = create_sessionmaker(entry)
        hub = make_hub(settings)
        await hub.start()
        lobby = HubLobbyBroadcaster(hub)
        await lobby.start()
        app.state.hub = hub
        app.state.lobby = lobby
        app.state.limiter = Limiter(make_counters(hub.redis if isinstance(hub, RedisHub) else None, settings.redis_prefix))
        # The credentials of this instance's open sockets, read again for the news the hub may lose.
        sweep = CredentialSweep(
            app.state.sockets, partial(credential_endings, app.state.sessionmaker), settings.credential_check_seconds
        )
        app.state.credential_sweep = sweep
        stop_listening = await app.state.sockets.listen(hub, sweep.soon, logged_out=LOGGED_OUT, token_revoked=TOKEN_REVOKED)
        slots = None
        if isinstance(hub, RedisHub):  # the socket caps hold across every instance on this Redis
            slots = SharedSlots(hub.redis, settings.redis_prefix, settings.socket_slot_seconds)
            app.state.sockets.share(slots)
            slots.start()
        automatch = Automatch(
            make_seek_pool(hub),
            lobby,
            app.state.sessionmaker,
            hub=hub,
            metrics=app.state.metrics,
            bot_offer_after=settings.automatch_bot_after,
            avoid=moderation_blocks.avoided,
            fair_play=app.state.fair_play,
        )
        app.state.automatch = automatch
        app.state.chat_filters = ChatFilters(app.state.sessionmaker)
        stop_moderation = await moderation_notices.listen(
            hub, app.state.sockets, app.state.chat_filters, automatch.cancel, sweep.soon
        )
        sweep.start()

        ratings = RatingSweeper(app.state.sessionmaker, settings.rating_tau, settings.rating_sweep_seconds)
        app.state.ratings = ratings
        reviews_queue = ReviewQueue(url, app.state.sessionmaker)  # opened at its first use
        analyst: Analyst | None = None
        no_analyst = None
        if settings.ai_review_worker and app.state.engines.absent is None:
            budget = Budget(settings.ai_review_quick_seconds, settings.ai_review_deep_seconds)
            analyst = Analyst(app.state.sessionmaker, app.state.engines, hub, budget)
        elif reviews_queue.embedded:  # nobody else can work an in-memory queue (docs/review.md)
            no_analyst = f"KataGo is {app.state.engines.absent}" if settings.ai_review_worker else "TENGEN_AI_REVIEW_WORKER=false"
        app.state.ai_reviews = AiReviewService(reviews_queue, no_analyst)
        app.state.analyst = analyst

        async def finished(game_id: str, result: dict) -> None:
            ratings.game_finished(game_id)
            try:
                await app.state.tournaments.game_finished(game_id)
            except Exception:  # the tournament scheduler's tick records it
                log.warning("game %s: its tournament result waits for the next tick", game_id, exc_info=True)
            await announce_game_finished(lobby, game_id, result.get("text"))
            if settings.ai_review_auto:
                try:
                    async with app.state.sessionmaker() as session:
                        await app.state.ai_reviews.game_finished(session, game_id)
                except Exception:  # the rows say nothing was queued; a request later queues it
                    log.warning("game %s: its automatic review was not queued", game_id, exc_info=True)

        async def rematch(game_id: str, rematch_of: str) -> None:
            await rematch_started(app.state.sessionmaker, hub, lobby, game_id, rematch_of)

        turns = TurnFeed(lobby)
        rooms = RoomManager(
            hub,
            app.state.sessionmaker,
            clock=clock,
            on_finished=finished,
            metrics=app.state.metrics,
            on_rematch=rematch,
            on_committed=turns.committed,
            deadline_sweep=settings.deadline_sweep_seconds,
            proposer=DeadStoneProposer(engines=app.state.engines),  # KataGo's dead stones first, where it runs
        )
        app.state.rooms = rooms
        review_rooms = ReviewRooms(hub, app.state.sessionmaker, app.state.review_limits, app.state.study_workers, clock=clock)
        app.state.review_rooms = review_rooms
        app.state.moderation = Moderation(app.state.sessionmaker, hub, lobby, rooms, settings.rating_tau)
        app.state.metrics.track_live_games(lambda: list(rooms.rooms.values()))
        app.state.tournaments = TournamentService(
            app.state.sessionmaker,
            hub,
            lobby,
            GameEnder(rooms),
            max_players=settings.tournament_max_players,
            max_rounds=settings.tournament_max_rounds,
            per_director=settings.tournaments_per_director,
        )
        tournament_scheduler = TournamentScheduler(app.state.tournaments, settings.tournament_tick_seconds)
        app.state.spectator_count = rooms.spectators

        async def restore(down_from: float | None = None) -> None:
            async with app.state.sessionmaker() as session:
                ids = await games_repo.unfinished_with_deadlines(session)
            await rooms.restore_deadlines(ids, down_from)

        hub.on_state_lost(restore)
        # Before the deadline loop starts: after downtime the clocks restart first, so a deadline that came
        # during the downtime is not taken as a flag fall.
        await restore(await rooms.down_since())
        await rooms.start()
        await review_rooms.start()
        housekeeping = Housekeeping(
            app.state.sessionmaker,
            rooms,
            guest_ttl_hours=settings.guest_ttl_hours,
            untimed_abandon_days=settings.untimed_abandon_days,
            interval=settings.housekeeping_seconds,
        )
        housekeeping.start()
        vacations = VacationSweeper(app.state.sessionmaker, rooms, settings.vacation_sweep_seconds)
        vacations.start()
        await ratings.start()
        await automatch.start()
        tournament_scheduler.start()
        watch = LoopWatch(app.state.metrics.loop_lag.observe, observe_busy=app.state.metrics.loop_busy_lag.observe)
        watch.start()
        app.state.engines.start()  # KataGo's processes, in the background (app/engines/service.py)
        if analyst is not None:
            reviews_queue.start_worker(analyst)  # the in-process analyst (app/ai_review/jobs.py)
        try:
            yield
        finally:
            steps: list[Step] = [
                ("ai reviews", reviews_queue.close),
                ("engines", app.state.engines.close),
                ("loop watch", watch.close),
                ("vacations", vacations.close),
                ("tournaments", tournament_scheduler.close),
                ("housekeeping", housekeeping.close),
                ("automatch", automatch.close),
                ("ratings", ratings.close),
                ("socket listener", stop_listening),
                ("credential sweep", sweep.close),
                ("review rooms", review_rooms.close),
                ("moderation listener", stop_moderation),
            ]
            if slots is not None:
                steps.append(("socket slots", slots.close))
            steps += [("rooms", rooms.close), ("lobby", lobby.close), ("hub", hub.close), ("database", engine.dispose)]
            if entry is not engine:
                steps.append(("entry database", entry.dispose))
            steps += [("passwords", app.state.passwords.close), ("study workers", app.state.study_workers.close)]
            await close_in_order(steps)

    docs = settings.docs_enabled
    app = FastAPI(
        title="Tengen",
        version=package.__version__,
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
        openapi_url="/openapi.json" if docs else None,
    )
    app.state.settings = settings
    app.state.passwords = PasswordPool(
        settings.password_hash_workers, settings.password_hash_queue, share=settings.password_hash_share
    )
    app.state.caps = Caps.from_settings(settings)
    app.state.study_workers = StudyWorkers(settings.study_workers, settings.study_queue)
    app.state.hints = HintEngine(hint_command(settings), settings.hint_engines, settings.hint_seconds)
    app.state.engines = EngineService.from_settings(settings)
    app.state.review_limits = ReviewLimits.from_settings(settings)
    app.state.fair_play = FairPlay.from_settings(settings)
    app.state.sockets = SocketRegistry(settings.sockets_per_user, settings.sockets_per_address)
    app.state.metrics_networks = Networks(settings.effective_metrics_networks)
    app.state.metrics = Metrics()
    app.state.signer = SessionSigner(settings.effective_secret_key())
    app.state.mail_tokens = MailTokens(settings.effective_secret_key())
    app.state.clock = clock
    # The live layer may replace these: a hub-backed lobby, and the spectator counts of its rooms.
    app.state.lobby = MemoryLobbyBroadcaster()
    app.state.spectator_count = no_spectators

    install_error_handlers(app)
    app.add_middleware(OriginCheckMiddleware, allowed_origins=settings.allowed_origins)
    app.add_middleware(
        BodyLimitMiddleware, max_bytes=settings.max_body_bytes, larger={"/api/study/": settings.study_max_body_bytes}
    )
    app.add_middleware(SecurityHeadersMiddleware)

    app.include_router(health.router)
    app.include_router(accounts.router)
    app.include_router(email.router)
    app.include_router(correspondence.router)
    app.include_router(challenges.router)
    app.include_router(bots.router)
    app.include_router(games.router)
    app.include_router(ai_review.router)
    app.include_router(practice.router)
    app.include_router(study.router)
    app.include_router(study.games_router)
    app.include_router(players.router)
    app.include_router(players.pages)
    app.include_router(moderation.router)
    app.include_router(tournaments.router)
    app.include_router(lobby_ws.router)
    app.include_router(game_ws.router)
    app.include_router(reviews.router)
    app.include_router(review_ws.router)

    if settings.frontend_dir.is_dir():
        app.mount("/", StaticFiles(directory=settings.frontend_dir, html=True), name="frontend")
    return app
