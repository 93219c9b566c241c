"""The transport every domain shares, which knows no domain: for now the envelope and base types of the socket
messages (``messages.py``). Nothing here imports a domain package (tests/test_dependencies.py checks it)."""
