"""`limbic mcp`: the Model Context Protocol over stdio, on the same graph file the app uses.

One thread owns the graph (its SQLite connection and the model); every tool call runs there in
turn, each write as one transaction. The event loop answers the protocol, and once a second asks
that thread whether another program committed (the change log): when the graph changed, by this
server's own writes or anyone else's, clients subscribed to ``memory://knowledge-graph`` get
``notifications/resources/updated`` (on handshake-era connections after ``resources/subscribe``,
on 2026-07-28 connections through ``subscriptions/listen``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
from mcp.shared.exceptions import MCPError

from limbic import __version__
from limbic.engine.errors import DatabaseError, LimbicError
from limbic.mcp import protocol, tools_health, tools_history  # noqa: F401  (each tool module registers its tools)
from limbic.mcp import activity as mcp_activity
from limbic.mcp import wire_json
from limbic.mcp.tools import TOOLS, TOOLS_BY_NAME, ToolSpec, arguments_for, wire_result
from limbic.service import Outcome, memory, run
from limbic.service.follow import cursor_at_end, others_since
from limbic.service.types import ORIGIN_ASSISTANT, Cursor
from limbic.service.background import BackgroundEmbedder, GraphFile, embed_backlog, load_model_into

logger = logging.getLogger(__name__)

RESOURCE_URI = "memory://knowledge-graph"
POLL_SECONDS = 1.0  # how often other programs' commits are looked for
SMALL_BACKLOG = 256  # entities waiting for vectors that the first meaning search embeds before it answers
INSTRUCTIONS = (
    "A personal knowledge graph kept by Limbic and shared with its desktop app: entities (a name, a type, "
    "observations) joined by relations in active voice. Use `search` to recall what is known (hybrid: meaning "
    "and exact words), open_nodes to read entities by name, and the create/add/delete tools to record what you "
    "learn. Prefer add_observations with `supersedes` and end_relation over deletes: they keep history."
)


class GraphHost:
    """The graph and its model on one thread; everything that touches them runs there.

    The model loads only when a tool that searches by meaning is first called; then a background
    embedder gives new writes their vectors, so writes return as soon as they are committed.
    """

    def __init__(self, db_path: Path, model_dir: Path | None, load_model: bool = True, read_only: bool = False) -> None:
        self.db_path = db_path
        self.read_only = read_only  # --read-only: write tools are refused
        self.model_dir = model_dir
        self.load_model = load_model
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="limbic-graph")
        self.opened = None
        self.open_error: str | None = None
        self.model_error: str | None = None
        self.params = None
        self.cursor: Cursor | None = None
        self.file: GraphFile | None = None
        self.embedder: BackgroundEmbedder | None = None
        self.model_tried = False

    async def call(self, fn, *args, **kwargs):
        """Run ``fn(*args, **kwargs)`` on the graph's thread and wait for it."""
        return await asyncio.wrap_future(self._pool.submit(functools.partial(fn, *args, **kwargs)))

    def start(self) -> None:
        """Queue the opening of the file first, so every later call finds it open (or its error)."""
        self._pool.submit(self._open_safely)

    def _open_safely(self) -> None:
        try:
            self.open()
        except Exception as exc:
            logger.exception("cannot open the graph")
            self.open_error = f"{self.db_path} cannot be opened: {exc}"

    def open(self) -> None:
        """On the graph's thread: open the file (and the model), as the assistant's writer."""
        from limbic import config
        from limbic.service.types import ScoringParams
        from limbic.service.opening import open_graph

        try:
            self.opened = open_graph(self.db_path, self.model_dir, load_model=False, origin=ORIGIN_ASSISTANT)
        except LimbicError as exc:
            self.open_error = str(exc)
            logger.error("cannot open the graph: %s", exc)
            return
        db = self.opened.graph.db
        self.model_error = None if self.load_model else "the model was not loaded (--no-model)"
        self.file = GraphFile(db.path)
        if db.readonly_note:
            logger.warning("%s", db.readonly_note)
        if self.model_error:
            logger.warning("semantic search is off: %s", self.model_error)
        try:
            self.params = ScoringParams.from_overrides(config.load_settings().scoring)
        except Exception as exc:  # a damaged settings file must not stop the server
            logger.warning("scoring settings ignored: %s", exc)
            self.params = ScoringParams()
        self.cursor = cursor_at_end(db)
        db.changed_by_others()  # remember the current data version
        logger.info("serving %s", db.path)

    def graph(self):
        if self.opened is None:
            raise DatabaseError(self.open_error or "The graph is not open.")
        return self.opened.graph

    def ensure_model(self) -> None:
        """On the graph's thread: load the model once, when a meaning search first needs it."""
        if self.model_tried or not self.load_model or self.opened is None:
            return
        self.model_tried = True
        self.model_error = load_model_into(self.opened, self.model_dir)
        graph = self.opened.graph
        if self.model_error:
            logger.warning("semantic search is off: %s", self.model_error)
            return
        logger.info("meaning search: the model is loaded")
        if graph.embedder is not None and not graph.db.readonly:
            if graph.pending_embeddings() <= SMALL_BACKLOG:
                embed_backlog(graph)  # the first meaning search then sees every entity
            self.embedder = BackgroundEmbedder(graph.db.path, graph.embedder, ORIGIN_ASSISTANT)
            self.embedder.start()

    def invoke(self, spec: ToolSpec, args: list, client: mcp_activity.Client | None = None) -> Outcome:
        """On the graph's thread: one tool call and what it changed (logged as this client's, under the tool's name)."""
        graph = self.graph()
        mcp_activity.begin_call(graph, spec.read_only, client, self.read_only)
        if spec.needs_model:
            self.ensure_model()
        if not spec.read_only and self.file is not None:
            self.file.check()  # a write into a deleted or replaced file would be lost
        fn = spec.function()
        if spec.name == "search":
            # A search by an assistant is a finished query whose results it reads: it counts as an
            # access of every entity returned (README, "When a search counts as an access").
            fn = functools.partial(fn, record=True, params=self.params, model_error=self.model_error)
        with graph.db.activity.using(spec.name):
            outcome = run(graph, fn, *args)
        mcp_activity.note_reads(graph, spec.name, outcome.value)
        if not spec.read_only:
            if self.file is not None and (problem := self.file.problem()):
                raise DatabaseError(problem.replace("so writes are refused", "so this write went into the old file"))
            if self.embedder is not None:
                self.embedder.wake(outcome.changes.added | outcome.changes.changed | outcome.changes.relations)
        return outcome

    def resource(self) -> dict:
        return memory.graph_resource(self.graph())

    def others_changed(self) -> bool:
        """On the graph's thread: did another program commit a change a reader would see?"""
        if self.opened is None or self.cursor is None:
            return False
        db = self.opened.graph.db
        if not db.changed_by_others():
            return False
        return others_since(db, self.cursor).graph_changed

    def close(self) -> None:
        if self.embedder is not None:
            self.embedder.stop()

        def _close() -> None:
            if self.opened is not None:
                self.opened.close()
                self.opened = None

        self._pool.submit(_close)
        self._pool.shutdown(wait=True)


class MemoryServer:
    """The protocol side: tools, the graph resource and its update notifications."""

    def __init__(self, host: GraphHost) -> None:
        self.host = host
        self.bus = InMemorySubscriptionBus()
        self.legacy_subscribers: dict[str, Any] = {}  # uri -> the subscribing request's session
        self.server = Server(
            "limbic",
            version=__version__,
            title="Limbic knowledge graph",
            instructions=INSTRUCTIONS,
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
            on_list_resources=self.list_resources,
            on_list_resource_templates=self.list_resource_templates,
            on_read_resource=self.read_resource,
            on_subscribe_resource=self.subscribe,
            on_unsubscribe_resource=self.unsubscribe,
            on_subscriptions_listen=ListenHandler(self.bus),
        )
        self.server.middleware.append(protocol.initialize_first)

    # -- tools ----------------------------------------------------------------------------

    async def list_tools(self, ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(
                name=t.name,
                title=t.title,
                description=t.description,
                input_schema=t.input_schema,
                output_schema=t.output_schema,
                annotations=types.ToolAnnotations(
                    title=t.title, read_only_hint=t.read_only, destructive_hint=t.destructive,
                    idempotent_hint=t.idempotent, open_world_hint=False,
                ),
            )
            for t in TOOLS
        ])

    async def call_tool(self, ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        spec = TOOLS_BY_NAME.get(params.name)
        if spec is None:
            raise MCPError(types.INVALID_PARAMS, f"Tool {params.name} not found")
        try:
            args = arguments_for(spec, params.arguments or {})
            outcome = await self.host.call(self.host.invoke, spec, args, mcp_activity.client_of(ctx))
        except LimbicError as exc:
            logger.info("%s refused: %s", spec.name, exc)
            return _error(str(exc))
        except Exception:
            logger.exception("%s failed", spec.name)
            return _error(f"{spec.name} failed because of an unexpected error in Limbic (see its log); nothing was changed.")
        if outcome.changes.graph_changed:
            await self.notify_updated()
        text, structured = wire_result(spec, outcome.value)
        return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=structured)

    # -- the graph resource ---------------------------------------------------------------

    async def list_resources(self, ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(
                name="knowledge-graph",
                title="Knowledge Graph",
                uri=RESOURCE_URI,
                description="The full knowledge graph with all entities and relations",
                mime_type="application/json",
            )
        ])

    async def list_resource_templates(self, ctx, params) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[])

    async def read_resource(self, ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        if str(params.uri) != RESOURCE_URI:
            raise MCPError(types.INVALID_PARAMS, f"Resource {params.uri} not found")
        try:
            graph = await self.host.call(self.host.resource)
        except LimbicError as exc:
            raise MCPError(types.INTERNAL_ERROR, str(exc)) from None
        text = wire_json.dumps(graph)
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=RESOURCE_URI, mime_type="application/json", text=text)]
        )

    async def subscribe(self, ctx, params: types.SubscribeRequestParams) -> types.EmptyResult:
        self.legacy_subscribers[str(params.uri)] = ctx.session
        return types.EmptyResult()

    async def unsubscribe(self, ctx, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        self.legacy_subscribers.pop(str(params.uri), None)
        return types.EmptyResult()

    async def notify_updated(self) -> None:
        """Tell subscribed clients that memory://knowledge-graph changed."""
        session = self.legacy_subscribers.get(RESOURCE_URI)
        if session is not None:
            try:
                await session.send_resource_updated(RESOURCE_URI)
            except Exception as exc:  # the client went away: stop telling it
                logger.info("dropping a resource subscriber: %s", exc)
                self.legacy_subscribers.pop(RESOURCE_URI, None)
        await self.bus.publish(ResourceUpdated(RESOURCE_URI))

    async def watch_others(self) -> None:
        """Poll the change log about once a second; notify when another program changed the graph."""
        while True:
            await anyio.sleep(POLL_SECONDS)
            try:
                changed = await self.host.call(self.host.others_changed)
            except Exception as exc:  # a busy or vanished file: try again next time
                logger.info("looking for outside changes failed: %s", exc)
                continue
            if changed:
                await self.notify_updated()

    # -- running --------------------------------------------------------------------------

    async def serve_stdio(self) -> None:
        async with stdio_server() as (read_stream, write_stream):
            # The file opens (and the model loads) on the graph's thread while the handshake is answered.
            self.host.start()
            async with anyio.create_task_group() as tg:
                tg.start_soon(self.watch_others)
                read_stream = await protocol.answer_unreadable(read_stream, write_stream, tg)
                await self.server.run(read_stream, write_stream, self.server.create_initialization_options())
                tg.cancel_scope.cancel()


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def serve(db_path: Path, model_dir: Path | None, load_model: bool = True, read_only: bool = False) -> int:
    """Serve until the client closes stdin; returns the exit status."""
    host = GraphHost(db_path, model_dir, load_model, read_only)
    try:
        anyio.run(MemoryServer(host).serve_stdio)
    except KeyboardInterrupt:
        pass
    finally:
        host.close()
    return 0
