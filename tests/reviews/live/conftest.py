"""The hub fixtures (the review rooms' tests run on the in-process hub and on Redis alike): tests/support/hubs.py."""

from tests.support.hubs import hub, make_hub, redis_client, redis_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
