"""The network between the server instances and PostgreSQL, as a TCP proxy on
loopback whose behaviour the run changes at will: it passes bytes, stalls
them (connections stay open, nothing moves either way, no RST), drops every
connection (RST) and refuses new ones, or holds each chunk for a while."""

import select
import socket
import struct
import threading
import time

MODES = ("pass", "blackhole", "drop", "delay")


class DatabaseLink:
    def __init__(self, target_port, delay=0.2):
        self.target_port = target_port
        self.delay = delay
        self.mode = "pass"
        self.lock = threading.Lock()
        self.pairs = []
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(256)
        self.port = self.listener.getsockname()[1]
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def set(self, mode):
        """Changes the link's behaviour; `drop` cuts every connection open now."""
        if mode not in MODES:
            raise ValueError(mode)
        with self.lock:
            self.mode = mode
            pairs = list(self.pairs) if mode == "drop" else []
        for pair in pairs:
            for end in pair:
                reset(end)

    def close(self):
        self.closed = True
        self.listener.close()
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for end in pair:
                reset(end)

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.mode == "drop":
                reset(client)
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
                upstream.settimeout(None)
            except OSError:
                reset(client)
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, client, upstream):
        peers = {client: upstream, upstream: client}
        try:
            while True:
                if self.mode == "blackhole":
                    # Nothing is read or sent, nothing reset: the bytes wait in the
                    # kernel's buffers, as on a stalled link, and flow again after it.
                    time.sleep(0.05)
                    continue
                ready, _, _ = select.select([client, upstream], [], [], 0.2)
                for source in ready:
                    data = source.recv(65536)
                    if not data:
                        raise OSError("closed")
                    if self.mode == "delay":
                        time.sleep(self.delay)
                    peers[source].sendall(data)
        except (OSError, ValueError):    # closed here, or reset by `set("drop")` meanwhile
            pass
        finally:
            with self.lock:
                if (client, upstream) in self.pairs:
                    self.pairs.remove((client, upstream))
            for end in (client, upstream):
                try:
                    end.close()
                except OSError:
                    pass


def reset(sock):
    """Closes with RST, as a dropped connection is seen."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    except OSError:
        pass
