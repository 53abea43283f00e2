"""Hooks Tools/contract-check loads into schemathesis: the resumable upload's
PATCH body (application/offset+octet-stream) is raw bytes, sent as
application/octet-stream would be."""

import schemathesis

schemathesis.serializer.alias("application/offset+octet-stream", "application/octet-stream")
