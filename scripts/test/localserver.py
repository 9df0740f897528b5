"""Starting a server on 127.0.0.1 for a test or a bench: a free port, and waiting until it listens."""

import socket
import time


def free_port():
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=10):
    """Returns once something listens on 127.0.0.1:PORT (or after SECONDS)."""
    for _ in range(int(seconds * 10)):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
