"""An in-process `limbic mcp` graph host for scope tests: every tool called as the server calls it."""

from __future__ import annotations

from pathlib import Path

from limbic.engine.errors import LimbicError
from limbic.mcp import activity as mcp_activity
from limbic.mcp.server import GraphHost
from limbic.mcp.tools import TOOLS, TOOLS_BY_NAME, arguments_for, wire_result
from limbic.service import scope
from limbic.service.opening import open_graph


def seeded(path: Path, seed) -> Path:
    """A graph file at ``path`` written by ``seed(graph)`` as the person would (the app's origin)."""
    opened = open_graph(path, None, load_model=False)
    try:
        seed(opened.graph)
    finally:
        opened.close()
    return path


class Host:
    """A GraphHost on a file, and a client calling its tools by name."""

    def __init__(self, path: Path, client: str = "work-assistant") -> None:
        self.host = GraphHost(path, None, load_model=False)
        self.host.start()
        self.host.submit(lambda: None).result()
        self.client = mcp_activity.Client(1, client, "1.0")

    def as_client(self, name: str) -> None:
        self.client = mcp_activity.Client(hash(name), name, "1.0")

    def call(self, tool: str, **arguments) -> tuple[bool, str]:
        """(is_error, text) of one call, as the server would put it on the wire."""
        spec = TOOLS_BY_NAME[tool]
        try:
            outcome = self.host.submit(self.host.invoke, spec, arguments_for(spec, arguments), self.client).result()
        except LimbicError as exc:
            return True, str(exc)
        return False, wire_result(spec, outcome.value)[0]

    def ok(self, tool: str, **arguments) -> str:
        is_error, text = self.call(tool, **arguments)
        assert not is_error, text
        return text

    def resource(self) -> str:
        import json

        return json.dumps(self.host.submit(self.host.resource, self.client.name).result(), ensure_ascii=False)

    def graph(self):
        return self.host.graph()

    def run(self, fn, *args):
        """``fn(graph, *args)`` on the graph's thread (the person's own change, made through the server's file)."""
        def lifted(graph, *rest):
            scope.lift(graph)  # the connection may still be narrowed to the last assistant's read
            return fn(graph, *rest)

        return self.host.submit(lifted, self.host.graph(), *args).result()

    def close(self) -> None:
        self.host.close()


TOOL_NAMES = [t.name for t in TOOLS]
