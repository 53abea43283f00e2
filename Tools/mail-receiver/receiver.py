#!/usr/bin/env python3
"""A real SMTP receiver on loopback, for the tests of the mail sender.

    receiver.py --folder DIR [--control FILE] [fault options] [--tls-cert PEM --tls-key PEM] [--auth USER:PASSWORD]

Listens on 127.0.0.1 on a free port and prints `listening on 127.0.0.1:PORT`
once it accepts connections. Each message it accepts goes to DIR as
NNNNNN.eml (the exact bytes received, dot-stuffing undone) and then
NNNNNN.json (the envelope, the connection it came on, and the message as
Python's strict e-mail parser reads it), the .json renamed into place last,
so a reader that sees it sees both. DIR/stats.json counts connections and
what became of each transaction.

Faults, for the first --fail-first N attempts only when it is given:
  --greeting-code 421      answer a new connection with this code and close it
  --rcpt-code 550|451      refuse every recipient with this code
  --data-code 550|451      refuse the message after its end with this code
  --drop-during-data       close the connection after the message's first line
  --stall SECONDS          keep the message, then wait this long before answering
--control FILE holds the same options as JSON ({"rcpt_code": 451,
"fail_first": 1}); it is read again at each connection and transaction, and
when it exists it replaces the command line's faults ({} turns them off).
An attempt is a connection (for --greeting-code) or a transaction (MAIL FROM).

Stops on SIGTERM or SIGINT, or when the process that started it has ended.
"""

import argparse
import asyncio
import email.parser
import email.policy
import hashlib
import json
import os
import signal
import ssl
import sys
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

FAULTS = ("greeting_code", "rcpt_code", "data_code", "drop_during_data", "stall", "fail_first")
TRANSACTION_FAULTS = ("rcpt_code", "data_code", "drop_during_data", "stall")
HOSTNAME = "receiver.test"


def write_atomically(path, data):
    """Writes `data` (bytes) to a temporary file beside `path`, then renames it into place."""
    temporary = f"{path}.tmp"
    with open(temporary, "wb") as file:
        file.write(data)
    os.replace(temporary, path)


class Faults:
    """The faults in force: the command line's, or the control file's when it exists."""

    def __init__(self, options, control):
        self.base = {key: getattr(options, key) for key in FAULTS if getattr(options, key) not in (None, False)}
        self.control = control
        self.last_control = None
        self.current = None
        self.applied = 0

    def effective(self):
        faults = self.base
        if self.control and os.path.exists(self.control):
            try:
                with open(self.control, encoding="utf-8") as file:
                    faults = json.load(file)
                self.last_control = faults
            except (OSError, ValueError) as error:
                print(f"receiver: control file unreadable, keeping the last one: {error}", file=sys.stderr, flush=True)
                faults = self.last_control if self.last_control is not None else self.base
        faults = {key: value for key, value in faults.items() if key in FAULTS and value not in (None, False, 0)}
        if faults != self.current:
            # New faults count their attempts afresh.
            self.current = faults
            self.applied = 0
        return faults

    def take(self, keys):
        """The faults of `keys` for one attempt, counted against --fail-first; {} when none apply."""
        faults = self.effective()
        chosen = {key: faults[key] for key in keys if key in faults}
        if not chosen:
            return {}
        limit = faults.get("fail_first")
        if limit is not None and self.applied >= limit:
            return {}
        self.applied += 1
        return chosen


class Mailbox:
    """The folder messages and statistics are written to, and the handler aiosmtpd calls."""

    def __init__(self, folder, faults, credentials):
        self.folder = folder
        self.faults = faults
        self.credentials = credentials
        self.stats = {
            "connections": 0,
            "transactions": 0,
            "accepted": 0,
            "refused": 0,
            "deferred": 0,
            "dropped": 0,
            "greetings_refused": 0,
            "auth_failures": 0,
        }
        self.number = 0
        self.save_stats()

    def save_stats(self):
        write_atomically(os.path.join(self.folder, "stats.json"), json.dumps(self.stats, indent=2).encode())

    def count(self, key):
        self.stats[key] += 1
        self.save_stats()

    def answered(self, reply):
        """Counts a refusal by its class: 4xx deferred, 5xx refused."""
        self.count("deferred" if reply.startswith("4") else "refused")

    # aiosmtpd's hooks

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        envelope.faults = self.faults.take(TRANSACTION_FAULTS)
        envelope.answered = False
        self.count("transactions")
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        code = getattr(envelope, "faults", {}).get("rcpt_code")
        if code:
            reply = refusal(code, ("5.1.1", f"<{address}>: mailbox unavailable"),
                            ("4.2.1", f"<{address}>: try again later"))
            if not envelope.answered:
                envelope.answered = True
                self.answered(reply)
            return reply
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        faults = getattr(envelope, "faults", {})
        code = faults.get("data_code")
        if code:
            await asyncio.sleep(faults.get("stall", 0))
            reply = refusal(code, ("5.7.1", "message refused"), ("4.3.0", "try again later"),
                            more="by the receiver's fault mode")
            self.answered(reply)
            return reply
        name = self.keep(envelope, server.connection)
        await asyncio.sleep(faults.get("stall", 0))
        return f"250 2.0.0 OK: queued as {name}"

    def keep(self, envelope, connection):
        self.number += 1
        name = f"{self.number:06d}"
        raw = envelope.original_content
        write_atomically(os.path.join(self.folder, name + ".eml"), raw)
        record = {"file": name + ".eml", "mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                  "connection": connection}
        record.update(parsed(raw))
        write_atomically(os.path.join(self.folder, name + ".json"),
                         json.dumps(record, indent=2, ensure_ascii=False).encode())
        self.count("accepted")
        return name

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        if isinstance(auth_data, LoginPassword) and self.credentials is not None:
            if (auth_data.login, auth_data.password) == self.credentials:
                return AuthResult(success=True)
        self.count("auth_failures")
        return AuthResult(success=False, handled=False)


def refusal(code, permanent, temporary, more=None):
    """The reply for a fault's code: the permanent (status, text) for 5xx, the temporary one otherwise;
    a second line `more` makes it a multi-line reply."""
    code = int(code)
    status, text = permanent if code >= 500 else temporary
    if more is None:
        return f"{code} {status} {text}"
    return f"{code}-{status} {text}\r\n{code} {status} {more}"


class ReceiverSMTP(SMTP):
    """aiosmtpd's server with the faults that happen outside its hooks: the greeting, and a connection cut mid-DATA."""

    async def _handle_client(self):
        mailbox = self.event_handler
        mailbox.count("connections")
        self.connection = mailbox.stats["connections"]
        code = mailbox.faults.take(("greeting_code",)).get("greeting_code")
        if code:
            mailbox.count("greetings_refused")
            status = "5.3.2" if int(code) >= 500 else "4.3.2"
            await self.push(f"{int(code)} {status} {HOSTNAME} service not available, closing the connection")
            self.transport.close()
            return
        await super()._handle_client()

    async def smtp_DATA(self, arg):
        envelope = self.envelope
        if getattr(envelope, "faults", {}).get("drop_during_data") and envelope.rcpt_tos and not arg:
            await self.push("354 End data with <CR><LF>.<CR><LF>")
            await self._reader.readuntil(b"\r\n")
            self.event_handler.count("dropped")
            self.transport.close()
            # Read no more: what follows in the buffer is the message, not commands.
            self._handler_coroutine.cancel()
            return
        await super().smtp_DATA(arg)


def parsed(raw):
    """What Python's strict e-mail parser reads in `raw`; on a defect, what the default policy reads and the error."""
    result = {"parse_error": None}
    try:
        message = email.parser.BytesParser(policy=email.policy.strict).parsebytes(raw)
        result.update(described(message))
    except Exception as error:  # the strict policy raises each defect as an exception
        result["parse_error"] = f"{type(error).__name__}: {error}"
        message = email.parser.BytesParser(policy=email.policy.default).parsebytes(raw)
        result.update(described(message))
    return result


def described(message):
    defects = []
    parts = []
    for part in message.walk():
        defects.extend(f"{type(defect).__name__}: {defect}" for defect in part.defects)
        if part.is_multipart():
            continue
        leaf = {"content_type": part.get_content_type(), "charset": part.get_content_charset(),
                "filename": part.get_filename()}
        if part.get_content_maintype() == "text":
            leaf["text"] = part.get_content()
        else:
            payload = part.get_payload(decode=True) or b""
            leaf["size"] = len(payload)
            leaf["sha256"] = hashlib.sha256(payload).hexdigest()
        parts.append(leaf)
    for name, value in message.items():
        defects.extend(f"{name}: {type(defect).__name__}: {defect}" for defect in getattr(value, "defects", ()))

    def header(name):
        value = message[name]
        return None if value is None else str(value)

    return {
        "headers": [[name, str(value)] for name, value in message.items()],
        "message_id": header("message-id"),
        "subject": header("subject"),
        "from": header("from"),
        "to": header("to"),
        "content_type": message.get_content_type(),
        "parts": parts,
        "defects": defects,
    }


def arguments():
    parser = argparse.ArgumentParser(description="A real SMTP receiver on 127.0.0.1 for tests.")
    parser.add_argument("--folder", required=True, help="where messages and stats.json are written")
    parser.add_argument("--control", help="a JSON file of faults, read again at each connection and transaction")
    parser.add_argument("--greeting-code", type=int, help="answer a new connection with this code and close it")
    parser.add_argument("--rcpt-code", type=int, help="refuse every recipient with this code")
    parser.add_argument("--data-code", type=int, help="refuse the message after its end with this code")
    parser.add_argument("--drop-during-data", action="store_true", help="close the connection mid-message")
    parser.add_argument("--stall", type=float, help="seconds to wait before answering the message's end")
    parser.add_argument("--fail-first", type=int, help="apply the faults to the first N attempts only")
    parser.add_argument("--tls-cert", help="a PEM certificate: offer STARTTLS")
    parser.add_argument("--tls-key", help="the PEM key of --tls-cert")
    parser.add_argument("--auth", metavar="USER:PASSWORD", help="require AUTH PLAIN or LOGIN with these credentials")
    return parser.parse_args()


async def serve(options):
    os.makedirs(options.folder, exist_ok=True)
    credentials = None
    if options.auth:
        user, _, password = options.auth.partition(":")
        credentials = (user.encode(), password.encode())
    mailbox = Mailbox(options.folder, Faults(options, options.control), credentials)
    tls = None
    if options.tls_cert:
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(options.tls_cert, options.tls_key)
    loop = asyncio.get_running_loop()
    # AUTH without TLS is what a loopback test wants; aiosmtpd warns about it at every connection.
    warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")

    def connection():
        return ReceiverSMTP(mailbox, hostname=HOSTNAME, ident="receiver.py", enable_SMTPUTF8=True, tls_context=tls,
                            auth_required=credentials is not None, auth_require_tls=credentials is None,
                            authenticator=mailbox.authenticate if credentials else None, loop=loop)

    server = await loop.create_server(connection, host="127.0.0.1", port=0)
    port = server.sockets[0].getsockname()[1]
    print(f"listening on 127.0.0.1:{port}", flush=True)
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    parent = os.getppid()
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), timeout=1)
        except asyncio.TimeoutError:
            if os.getppid() != parent:
                break
    server.close()


if __name__ == "__main__":
    # A process started from a test runner's thread inherits that thread's blocked signals; SIGTERM must reach it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    asyncio.run(serve(arguments()))
