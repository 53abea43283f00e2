"""An SMTP server on loopback that takes every message and keeps only its
Message-ID: the relay of the mail benchmarks (standard library only, so
that what it costs is small and the same for every sender measured)."""
import asyncio
import threading


class SMTPSink:
    """Listens on 127.0.0.1 (a free port) on a thread of its own."""

    def __init__(self):
        self.ids = []
        self.connections = 0
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        ready = threading.Event()
        self.loop = asyncio.new_event_loop()

        def serve():
            asyncio.set_event_loop(self.loop)
            server = self.loop.run_until_complete(asyncio.start_server(self._session, "127.0.0.1", 0))
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            self.loop.run_forever()

        threading.Thread(target=serve, daemon=True).start()
        ready.wait()

    @property
    def url(self):
        return f"smtp://127.0.0.1:{self.port}"

    def count(self):
        with self.lock:
            return len(self.ids)

    def reset(self):
        with self.lock:
            self.ids = []

    def wait_for(self, count, timeout):
        """Waits until `count` messages arrived; True when they did."""
        with self.changed:
            return self.changed.wait_for(lambda: len(self.ids) >= count, timeout)

    async def _session(self, reader, writer):
        with self.lock:
            self.connections += 1
        writer.write(b"220 sink ESMTP\r\n")
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                verb = line[:4].upper()
                if verb in (b"EHLO", b"HELO"):
                    writer.write(b"250-sink\r\n250-8BITMIME\r\n250 SIZE 52428800\r\n")
                elif verb == b"DATA":
                    writer.write(b"354 go ahead\r\n")
                    await writer.drain()
                    message_id = None
                    folded = False
                    while True:
                        data = await reader.readline()
                        if not data or data == b".\r\n":
                            break
                        if folded:
                            message_id, folded = data.strip(), False
                        elif message_id is None and data[:11].lower() == b"message-id:":
                            message_id = data[11:].strip()
                            folded = not message_id
                    with self.changed:
                        self.ids.append(message_id)
                        self.changed.notify_all()
                    writer.write(b"250 2.0.0 kept\r\n")
                elif verb == b"QUIT":
                    writer.write(b"221 bye\r\n")
                    await writer.drain()
                    break
                else:
                    writer.write(b"250 ok\r\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
