"""JSON-RPC 2.0 over stdio, one message per line: reading a line into a message or the error that
answers it, and writing messages whole, one at a time, from any thread.

Every request gets an answer: a line that is not JSON gets -32700 (id null); a request whose text
holds a lone surrogate (``"\\ud800"``: valid JSON, not Unicode) gets -32602 naming where; a message
that is not a JSON-RPC request or notification gets -32600. A line nested deeper than
``MAX_DEPTH`` gets -32600 before it is parsed (the parser recurses on Python's stack: 1,000 levels
ended the process), and one longer than ``MAX_LINE_BYTES`` gets -32600 unread. Bytes that are not
UTF-8, an encoded surrogate (``ED A0 80``) included, get -32700. Only protocol messages reach the
process's standard output: the wire is a private copy of the descriptor, and descriptor 1 is
pointed at standard error, so a stray print (ours or a library's) cannot break the protocol.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import threading
from dataclasses import dataclass
from typing import Any, BinaryIO

try:  # a C encoder for large replies; without it the standard library writes the same bytes, slower
    import orjson
except ImportError:  # pragma: no cover
    orjson = None

logger = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

MAX_DEPTH = 128  # arrays and objects inside each other in one message; tool arguments need fewer than 10
MAX_LINE_BYTES = 64 * 1024 * 1024  # one message; a tool call's text is capped far below (4,000,000 characters)
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")  # only an escape can carry a surrogate into JSON text

# The id of a request refused before it is parsed, read from its first or last bytes only: the keys before
# it (from the opening brace) or after it (to the closing brace) hold plain values, so in any JSON text it
# is the top-level object's own "id" (a quote after a comma or a brace cannot sit inside a string).
ID_HEAD_BYTES = 16 * 1024  # from the opening brace: one attempt, linear
ID_TAIL_BYTES = 1024  # to the closing brace: an attempt at each comma, so kept short
_WS = rb"[ \t\r\n]*"
_TEXT = rb'"(?:[^"\\]|\\.)*"'
_SCALAR = rb"(?:" + _TEXT + rb"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)"
_PAIR = _TEXT + _WS + rb":" + _WS + _SCALAR + _WS
_ID = rb'"id"' + _WS + rb":" + _WS + rb'(?P<id>"(?:[^"\\]|\\.){0,1024}"|-?(?:0|[1-9][0-9]{0,17}))' + _WS
_ID_FIRST = re.compile(rb"\A" + _WS + rb"\{" + _WS + rb"(?:" + _PAIR + rb"," + _WS + rb")*" + _ID + rb"[,}]", re.DOTALL)
_ID_LAST = re.compile(rb"[{,]" + _WS + _ID + rb"(?:," + _WS + _PAIR + rb")*\}" + _WS + rb"\Z", re.DOTALL)


@dataclass(frozen=True)
class Incoming:
    """One line read: a request (``id`` set), a notification (``id`` None), or an error to send back."""

    method: str | None = None
    params: dict | None = None
    id: Any = None
    error: dict | None = None  # the whole reply to send instead of dispatching

    @property
    def is_request(self) -> bool:
        return self.error is None and self.id is not None


def surrogate_path(value: Any, path: str = "") -> str | None:
    """Where in a parsed JSON value a lone surrogate sits (``params.arguments.names[0]``), or None."""
    if isinstance(value, str):
        return (path or "the message") if any(0xD800 <= ord(c) <= 0xDFFF for c in value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            found = surrogate_path(key, path) or surrogate_path(item, f"{path}.{key}" if path else key)
            if found:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = surrogate_path(item, f"{path}[{i}]")
            if found:
                return found
    return None


def error_reply(request_id: Any, code: int, message: str, data: Any = None) -> dict:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def readable_id(line: bytes, whole: bool = True) -> Any:
    """The id of a request that is refused unparsed (too deep, too long, not UTF-8), when its first or last
    bytes (``ID_HEAD_BYTES``, ``ID_TAIL_BYTES``; the first only when the line is not ``whole``) show it
    beside plain values only; else None. Two different ids found: None."""
    found = []
    places = [(_ID_FIRST, line[:ID_HEAD_BYTES])] + ([(_ID_LAST, line[-ID_TAIL_BYTES:])] if whole else [])
    for pattern, part in places:
        match = pattern.search(part)
        if match is None:
            continue
        token = match["id"]
        try:
            value = json.loads(token.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue
        if _valid_id(value) and not (isinstance(value, str) and surrogate_path(value)):
            found.append(value)
    return found[0] if found and all(v == found[0] for v in found) else None


def _valid_id(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def outside_strings(line: bytes) -> bytes:
    """The line without its JSON strings (what ``_STRING`` matches). Without a backslash and with the quotes
    in pairs, every other piece between quotes is a string, so a split does what the pattern does, in C."""
    if b"\\" not in line and line.count(b'"') % 2 == 0:
        return b"".join(line.split(b'"')[::2])
    return _STRING.sub(b"", line)


def nesting_depth(line: bytes) -> int:
    """How deeply arrays and objects nest in this JSON text (brackets inside strings do not count); no recursion."""
    if line.count(b"[") + line.count(b"{") <= MAX_DEPTH:
        return MAX_DEPTH  # cannot be deeper: the scan is skipped
    import numpy as np  # only for a line with many brackets: a running sum in C, where Python took 2 s per 10 million

    brackets = np.frombuffer(outside_strings(line).translate(None, _NOT_BRACKETS), dtype=np.uint8)
    if not brackets.size:
        return 0
    step = np.zeros(256, dtype=np.int8)
    step[[ord("["), ord("{")]], step[[ord("]"), ord("}")]] = 1, -1
    return int(np.cumsum(step[brackets], dtype=np.int32).max())


def parse_line(line: bytes) -> Incoming | None:
    """The message on one line, or the reply it gets; None for a line to ignore (blank, or a response)."""
    if not line.strip():
        return None
    if len(line) > MAX_LINE_BYTES:
        return Incoming(error=error_reply(readable_id(line, whole=False), INVALID_REQUEST, (
            f"The message is longer than {MAX_LINE_BYTES // (1024 * 1024)} MB; send less in one request.")))
    try:
        text = line.decode("utf-8")  # strict: an encoded surrogate is not UTF-8 (json.loads would let it through)
    except UnicodeDecodeError:
        return Incoming(error=error_reply(readable_id(line), PARSE_ERROR, "The message is not valid JSON in UTF-8."))
    if nesting_depth(line) > MAX_DEPTH:
        return Incoming(error=error_reply(readable_id(line), INVALID_REQUEST, (
            f"The message nests arrays and objects more than {MAX_DEPTH} deep; no request needs that many.")))
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return Incoming(error=error_reply(None, PARSE_ERROR, "The message is not valid JSON in UTF-8."))
    if isinstance(message, list):
        return Incoming(error=error_reply(None, INVALID_REQUEST,
                                          "Batches (a JSON array of messages) are not part of MCP: send one message per line."))
    if not isinstance(message, dict):
        return Incoming(error=error_reply(None, INVALID_REQUEST, "A message must be a JSON object."))
    has_id = "id" in message
    request_id = message.get("id")
    if has_id and not _valid_id(request_id):
        return Incoming(error=error_reply(None, INVALID_REQUEST, "A request id must be a string or an integer."))
    method = message.get("method")
    if method is None and ("result" in message or "error" in message):
        return None  # a response: this server sends no requests, so there is nothing to match it with
    if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
        if not has_id:
            return None  # a broken notification: JSON-RPC wants no reply
        return Incoming(error=error_reply(request_id, INVALID_REQUEST,
                                          "The message is not a JSON-RPC 2.0 request: it needs \"jsonrpc\": \"2.0\" and a \"method\"."))
    if _ESCAPED_SURROGATE.search(line):
        where = surrogate_path(message.get("params"), "params") or surrogate_path(method, "method")
        if where:
            if not has_id:
                return None
            if surrogate_path(request_id):
                request_id = None
            return Incoming(error=error_reply(request_id, INVALID_PARAMS, (
                f"The request's {where} holds a lone surrogate (half of a UTF-16 pair, such as \\ud800), which is not "
                "valid Unicode text; send the text with its pair or without it.")))
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        if not has_id:
            return None
        return Incoming(error=error_reply(request_id, INVALID_PARAMS, "The request's params must be a JSON object."))
    return Incoming(method=method, params=params, id=request_id if has_id else None)


def encode(message: dict, plain: bool = False) -> bytes:
    """One message as one line of UTF-8. ``plain``: it holds no number with a fraction (orjson writes those
    unlike Python, ``1e-07`` as ``1e-7``), so orjson writes it, byte for byte as ``json.dumps`` would."""
    if plain and orjson is not None:
        try:
            return orjson.dumps(message) + b"\n"
        except TypeError:  # a lone surrogate or an integer past 64 bits: the standard library's way below
            pass
    try:
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # a surrogate in stored text: escaped, the line stays valid UTF-8
        return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


class Wire:
    """The protocol's input and output; ``send`` may be called from any thread."""

    def __init__(self, reader: BinaryIO, writer: BinaryIO) -> None:
        self.reader = reader
        self.writer = writer
        self._lock = threading.Lock()
        self.closed = False

    @classmethod
    def claim_stdio(cls) -> Wire:
        """Take stdin and stdout for the protocol; descriptor 0 then reads nothing, 1 writes to stderr."""
        try:
            wire_in, wire_out = os.dup(0), os.dup(1)  # not inheritable, and above 2 while 0–2 are open
        except OSError:  # no descriptors to copy (an embedded interpreter): serve the streams in place
            return cls(sys.stdin.buffer, sys.stdout.buffer)
        # Descriptor 0 then reads nothing, 1 writes where 2 does (or nowhere, without a standard error).
        for fd, opens in ((0, (lambda: os.open(os.devnull, os.O_RDONLY),)),
                          (1, (lambda: os.dup(2), lambda: os.open(os.devnull, os.O_WRONLY)))):
            for open_spare in opens:
                try:
                    spare = open_spare()
                except OSError:
                    continue
                try:
                    os.dup2(spare, fd)
                except OSError:
                    pass
                finally:
                    os.close(spare)
                break
        return cls(os.fdopen(wire_in, "rb"), os.fdopen(wire_out, "wb"))

    def lines(self):
        """Each line the client sends, until it closes its end."""
        while True:
            try:
                line = self.reader.readline(MAX_LINE_BYTES + 1)
                if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                    rest = line
                    while rest and not rest.endswith(b"\n"):  # the rest of a line too long to keep is read past
                        rest = self.reader.readline(MAX_LINE_BYTES)
            except (OSError, ValueError):
                return
            if not line:
                return
            yield line

    def send(self, message: dict, plain: bool = False) -> bool:
        """Write one message (``plain``: see ``encode``); False once the client has gone."""
        data = encode(message, plain)
        with self._lock:
            if self.closed:
                return False
            try:
                self.writer.write(data)
                self.writer.flush()
            except (OSError, ValueError):
                self.closed = True
                logger.info("the client closed its end; nothing more is sent")
                return False
        return True
