#!/usr/bin/env python3
"""Reads one e-mail message as Python's standard library reads it, strictly.

    read-message.py FILE

Parses the bytes of FILE with email.parser.BytesParser and email.policy.strict
(a defect of the message's structure raises) and prints one JSON object:

    headers    [[name, value]] in order, each value decoded (RFC 2047)
    mailboxes  {"From": {...}, "To": {...}}: addr_spec, display_name,
               python_display_name
    parts      one object a part, in walk order: content_type, charset,
               transfer_encoding, filename, defects, and text (a text part's
               decoded content) or sha256 and size (any other leaf)
    defects    every defect Python recorded, of the message, a part or a header

display_name is the phrase before the angle address decoded as RFC 2047
section 6.2 says, ignoring the whitespace between adjacent encoded-words.
Python before the fix of CPython issue 128110 keeps that whitespace inside a
structured header's phrase; its own reading is python_display_name.

Exit 1 with the reason on stderr if the message cannot be read.
"""

import email.header
import email.parser
import email.policy
import hashlib
import json
import sys


def display_name(raw, parsed):
    """The display name of a mailbox header's raw value."""
    phrase = raw[: raw.rfind("<")].rstrip() if "<" in raw else ""
    if "=?" not in phrase:
        return parsed
    return str(email.header.make_header(email.header.decode_header(phrase)))


def mailbox(message, name):
    header = message[name]
    if header is None or len(header.addresses) != 1:
        return None
    address = header.addresses[0]
    raw = dict(message.raw_items())[name]
    return {
        "addr_spec": address.addr_spec,
        "display_name": display_name(raw, address.display_name),
        "python_display_name": address.display_name,
    }


def part_summary(part):
    summary = {
        "content_type": part.get_content_type(),
        "charset": part.get_content_charset(),
        "transfer_encoding": part.get("Content-Transfer-Encoding"),
        "filename": part.get_filename(),
        "defects": [repr(defect) for defect in part.defects],
    }
    if part.is_multipart():
        return summary
    content = part.get_content()
    if isinstance(content, str):
        summary["text"] = content
    else:
        summary["sha256"] = hashlib.sha256(content).hexdigest()
        summary["size"] = len(content)
    return summary


def main():
    with open(sys.argv[1], "rb") as file:
        raw = file.read()
    message = email.parser.BytesParser(policy=email.policy.strict).parsebytes(raw)
    headers = [[name, str(value)] for name, value in message.items()]
    defects = []
    for part in message.walk():
        defects += [repr(defect) for defect in part.defects]
        for name, value in part.items():
            defects += [f"{name}: {defect!r}" for defect in getattr(value, "defects", ())]
    print(
        json.dumps(
            {
                "headers": headers,
                "mailboxes": {name: mailbox(message, name) for name in ("From", "To")},
                "parts": [part_summary(part) for part in message.walk()],
                "defects": defects,
            }
        )
    )


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the reason, for the test's message
        sys.stderr.write(f"{type(error).__name__}: {error}\n")
        sys.exit(1)
