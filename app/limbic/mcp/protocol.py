"""The Model Context Protocol's session rules, both eras, over any ``Wire``.

* **Handshake era** (2024-11-05 … 2025-11-25): ``initialize`` negotiates a version (the client's
  when it is one of these, else the newest); until then only ``ping`` is served and any other
  request gets -32600 with a sentence; subscriptions are ``resources/subscribe``.
* **2026-07-28**: no handshake; every request carries its version, capabilities and client in
  ``params._meta``, checked in the SDK's order (-32602 for a missing envelope, -32022 for a version
  not served); results are stamped with ``resultType`` and the server's identity, lists and reads
  with ``cacheScope`` / ``ttlMs``; subscriptions are ``subscriptions/listen`` streams.

The client's first request decides the era, once; a request of the other era is then refused, as
the reference SDK does. A method this server does not serve gets -32601 naming it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from limbic.engine.errors import ValidationError
from limbic.mcp.wire import (INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, Incoming, Wire,
                             error_reply, parse_line)
from limbic.service.activity import client_name

logger = logging.getLogger(__name__)

HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS = ("2026-07-28",)
UNSUPPORTED_PROTOCOL_VERSION = -32022
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
SUBSCRIPTION_KEY = "io.modelcontextprotocol/subscriptionId"

SHARED_METHODS = frozenset({"tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read"})
HANDSHAKE_METHODS = SHARED_METHODS | {"initialize", "ping", "resources/subscribe", "resources/unsubscribe"}
MODERN_METHODS = SHARED_METHODS | {"server/discover", "subscriptions/listen"}
CACHEABLE = frozenset({"tools/list", "resources/list", "resources/templates/list", "resources/read", "server/discover"})
BEFORE_INITIALIZE = frozenset({"initialize", "ping"})
LISTEN_FLAGS = ("toolsListChanged", "promptsListChanged", "resourcesListChanged")


@dataclass(frozen=True)
class ClientInfo:
    name: str = ""
    version: str = ""

    @classmethod
    def of(cls, info: Any) -> ClientInfo:
        """The client as it is logged and compared with a pause (see ``client_name``); ValidationError for a NUL."""
        if not isinstance(info, dict):
            return cls()
        return cls(client_name(info.get("name") or ""), client_name(info.get("version") or ""))


@dataclass
class Request:
    """One request to answer, once, from any thread: ``reply`` with a result or ``fail`` with an error."""

    session: Session
    id: Any
    method: str
    params: dict
    client: ClientInfo
    answered: bool = field(default=False, repr=False)
    cancelled: bool = field(default=False, repr=False)

    def reply(self, result: dict, plain: bool = False) -> None:
        """Answer with ``result`` (``plain``: it holds no number with a fraction; see ``wire.encode``)."""
        self.session.answer(self, result, plain=plain)

    def fail(self, code: int, message: str, data: Any = None) -> None:
        self.session.answer(self, None, error_reply(self.id, code, message, data))


Handler = Callable[[Request], None]


class Session:
    """One client on one wire: which era it speaks, who it is, and where each request goes."""

    def __init__(self, wire: Wire, info: dict, instructions: str, handlers: dict[str, Handler]) -> None:
        self.wire = wire
        self.info = info  # {"name", "title", "version"}
        self.instructions = instructions
        self.handlers = handlers
        self.era: str | None = None  # "handshake" or "modern", set by the first request
        self.version: str | None = None
        self.initialized = False
        self.client = ClientInfo()
        self.subscribed: set[str] = set()  # handshake era: resources/subscribe
        self.listens: dict[Any, dict] = {}  # modern era: listen request id -> the honoured filter
        self._pending: dict[Any, Request] = {}  # handed to a handler, not answered yet
        self._lock = threading.Lock()

    # -- capabilities -----------------------------------------------------------------------

    def capabilities(self) -> dict:
        changed = self.era == "modern"  # a listen stream can carry list changes; the handshake era has none
        return {"resources": {"listChanged": changed, "subscribe": True}, "tools": {"listChanged": changed}}

    # -- reading ----------------------------------------------------------------------------

    def receive(self, incoming: Incoming) -> None:
        """One parsed line: answer it here or hand it to its handler."""
        if incoming.error is not None:
            self.wire.send(incoming.error)
            return
        params = incoming.params or {}
        if not incoming.is_request:
            self._notification(incoming.method, params)
            return
        modern_envelope = isinstance(params.get("_meta"), dict) and VERSION_KEY in params["_meta"]
        if self.era is None:
            self.era = "modern" if modern_envelope and incoming.method != "initialize" else "handshake"
        if self.era == "modern":
            self._modern(incoming, params)
        else:
            self._handshake(incoming, params, modern_envelope)

    def _handshake(self, incoming: Incoming, params: dict, modern_envelope: bool) -> None:
        method, rid = incoming.method, incoming.id
        if method != "initialize" and modern_envelope:
            self.wire.send(error_reply(rid, INVALID_REQUEST, (
                "this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope "
                "are not accepted on it")))
            return
        if method not in HANDSHAKE_METHODS:
            self.wire.send(error_reply(rid, METHOD_NOT_FOUND, "Method not found", method))
            return
        if method == "initialize":
            self._initialize(rid, params)
            return
        if not self.initialized and method not in BEFORE_INITIALIZE:
            self.wire.send(error_reply(rid, INVALID_REQUEST, (
                f"“{method}” came before “initialize”: the client must initialize the connection first.")))
            return
        self._dispatch(Request(self, rid, method, params, self.client))

    def _initialize(self, rid: Any, params: dict) -> None:
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            self.wire.send(error_reply(rid, INVALID_PARAMS, "initialize needs “protocolVersion”, a string."))
            return
        try:
            client = ClientInfo.of(params.get("clientInfo"))
        except ValidationError as exc:
            self.wire.send(error_reply(rid, INVALID_PARAMS, str(exc)))
            return
        self.version = requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
        self.client = client
        self.initialized = True
        self.wire.send({"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": self.version, "capabilities": self.capabilities(),
            "serverInfo": dict(self.info), "instructions": self.instructions,
        }})

    def _modern(self, incoming: Incoming, params: dict) -> None:
        method, rid = incoming.method, incoming.id
        if method == "initialize":
            requested = params.get("protocolVersion")
            data: dict[str, Any] = {"supported": list(MODERN_VERSIONS)}
            if isinstance(requested, str):
                data["requested"] = requested
            self.wire.send(error_reply(rid, UNSUPPORTED_PROTOCOL_VERSION, (
                "connection is serving the 2026-07-28 protocol; the initialize handshake is not accepted"), data))
            return
        meta = params.get("_meta")
        if not isinstance(meta, dict):
            self.wire.send(error_reply(rid, INVALID_PARAMS, (
                f"params._meta must be an object carrying the required '{VERSION_KEY}' and '{CAPABILITIES_KEY}' "
                "envelope keys")))
            return
        missing = [key for key in (VERSION_KEY, CAPABILITIES_KEY) if key not in meta]
        if missing:
            self.wire.send(error_reply(rid, INVALID_PARAMS,
                                       f"params._meta is missing the required envelope key(s): {', '.join(missing)}"))
            return
        version = meta[VERSION_KEY]
        if not isinstance(version, str):
            self.wire.send(error_reply(rid, INVALID_PARAMS, "the protocol-version envelope value must be a string"))
            return
        if version not in MODERN_VERSIONS:
            self.wire.send(error_reply(rid, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version",
                                       {"supported": list(MODERN_VERSIONS), "requested": version}))
            return
        if method not in MODERN_METHODS:
            self.wire.send(error_reply(rid, METHOD_NOT_FOUND, "Method not found", method))
            return
        self.version = version
        try:
            client = ClientInfo.of(meta.get(CLIENT_INFO_KEY))
        except ValidationError as exc:
            self.wire.send(error_reply(rid, INVALID_PARAMS, str(exc)))
            return
        if client.name and client != self.client:
            self.client = client
        if method == "server/discover":
            Request(self, rid, method, params, self.client).reply({
                "supportedVersions": list(MODERN_VERSIONS), "capabilities": self.capabilities(),
                "instructions": self.instructions,
            })
            return
        if method == "subscriptions/listen":
            self._listen(rid, params)
            return
        self._dispatch(Request(self, rid, method, params, self.client))

    def _dispatch(self, request: Request) -> None:
        if request.method == "ping":
            request.reply({})
            return
        handler = self.handlers.get(request.method)
        if handler is None:
            request.fail(METHOD_NOT_FOUND, "Method not found", request.method)
            return
        with self._lock:
            self._pending[request.id] = request
        try:
            handler(request)
        except Exception:
            logger.exception("%s failed", request.method)
            request.fail(INTERNAL_ERROR, f"{request.method} failed because of an unexpected error in Limbic (see its log).")

    def _notification(self, method: str, params: dict) -> None:
        if method == "notifications/initialized":
            return
        if method == "notifications/cancelled":
            target = params.get("requestId")
            with self._lock:
                if self.listens.pop(target, None) is None and target in self._pending:
                    self._pending[target].cancelled = True  # its answer, when it comes, is not sent
            return
        logger.debug("ignored the notification %s", method)

    # -- writing ----------------------------------------------------------------------------

    def answer(self, request: Request, result: dict | None, error: dict | None = None, plain: bool = False) -> None:
        with self._lock:
            if request.answered:
                return
            request.answered = True
            if self._pending.get(request.id) is request:
                del self._pending[request.id]
            if request.cancelled:
                return
        if error is not None:
            self.wire.send(error)
            return
        if self.era == "modern":
            result = dict(result or {})
            result["resultType"] = "complete"
            if request.method in CACHEABLE:
                result.setdefault("cacheScope", "private")
                result.setdefault("ttlMs", 0)
            result["_meta"] = {SERVER_INFO_KEY: dict(self.info)}
        self.wire.send({"jsonrpc": "2.0", "id": request.id, "result": result}, plain)

    def _listen(self, rid: Any, params: dict) -> None:
        wanted = params.get("notifications")
        wanted = wanted if isinstance(wanted, dict) else {}
        honoured: dict[str, Any] = {flag: True for flag in LISTEN_FLAGS if wanted.get(flag)}
        uris = wanted.get("resourceSubscriptions")
        if isinstance(uris, list) and uris:
            honoured["resourceSubscriptions"] = [str(u) for u in uris]
        with self._lock:  # the acknowledgement goes out before any update of this stream
            self.listens[rid] = honoured
            self.wire.send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                            "params": {"_meta": {SUBSCRIPTION_KEY: rid}, "notifications": honoured}})

    def resource_updated(self, uri: str) -> None:
        """Tell every subscriber of ``uri`` that it changed (handshake subscriptions and listen streams)."""
        if uri in self.subscribed:
            self.wire.send({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}})
        with self._lock:
            streams = [rid for rid, honoured in self.listens.items() if uri in honoured.get("resourceSubscriptions", ())]
        for rid in streams:
            self.wire.send({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                            "params": {"_meta": {SUBSCRIPTION_KEY: rid}, "uri": uri}})

    def serve(self) -> None:
        """Read and answer until the client closes its end."""
        for line in self.wire.lines():
            incoming = None
            try:
                incoming = parse_line(line)
                if incoming is not None:
                    self.receive(incoming)
            except Exception:  # one message must not end the server for every later one
                logger.exception("a message could not be handled")
                rid = incoming.id if incoming is not None and incoming.is_request else None
                self.wire.send(error_reply(rid, INTERNAL_ERROR, "Limbic could not handle this message; the server goes on."))
