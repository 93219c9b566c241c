from app.transport.codec import decode, encode


def test_round_trip_is_compact_utf8_json():
    message = {"t": "chat", "v": 3, "text": "chào 你好 ¡hola!", "p": [3, 15]}
    data = encode(message)
    assert isinstance(data, bytes)
    assert data.startswith(b'{"t":"chat","v":3,')
    assert "你好".encode() in data
    assert decode(data) == decode(data.decode()) == message
