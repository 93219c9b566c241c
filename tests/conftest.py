"""Shared fixtures. Service-backed fixtures skip with a reason when the service is missing
(and fail under TENGEN_REQUIRE_SERVICES=1)."""

from __future__ import annotations

import os

# Tests never touch a developer's real data folder or secret.
os.environ.setdefault("TENGEN_ENV", "test")
