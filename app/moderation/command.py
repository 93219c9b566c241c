"""``tengen admin grant NAME ROLE`` and ``tengen admin revoke NAME ROLE``."""

from __future__ import annotations

import asyncio
import sys

from app.errors import ServiceError
from app.moderation import roles
from app.settings import get_settings
from app.store.db import create_engine, create_sessionmaker


def role_command(action: str, name: str, role: str) -> int:
    settings = get_settings()

    async def run() -> bool:
        engine = create_engine(settings.effective_database_url)
        try:
            async with create_sessionmaker(engine)() as session:
                return await roles.change(session, name, role, grant=action == "grant")
        finally:
            await engine.dispose()

    try:
        changed = asyncio.run(run())
    except ServiceError as exc:
        print(f"tengen admin: {exc.message}", file=sys.stderr)
        return 1
    if changed:
        print(f"{role} {'granted to' if action == 'grant' else 'revoked from'} {name}")
    else:
        print(f"nothing to do: {name} {'holds' if action == 'grant' else 'does not hold'} {role}")
    return 0
