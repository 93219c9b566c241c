"""HTTP and WebSocket routers: parse, authorise, call a service, answer."""
