from app.settings import Settings
from app.transport.hub_factory import make_hub
from app.transport.memory_hub import MemoryHub
from app.transport.redis_hub import RedisHub


def test_memory_without_a_redis_url():
    hub = make_hub(Settings(redis_url=""), log_size=7)
    assert isinstance(hub, MemoryHub) and hub.log_size == 7


def test_redis_with_a_redis_url():
    hub = make_hub(Settings(redis_url="redis://127.0.0.1:6379/3"))
    assert isinstance(hub, RedisHub)
    assert hub.url == "redis://127.0.0.1:6379/3" and hub.prefix == "tengen:"
