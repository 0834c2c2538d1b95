"""GraphML export of the whole graph or of the part on screen (opens in Gephi, yEd and Cytoscape)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from limbic import osfiles
from limbic.engine.errors import LimbicError
from limbic.engine.graph.graph import Graph
from limbic.engine.formats.jsonl import export_target

# (attribute, GraphML type): the keys every export declares.
NODE_KEYS = [("name", "string"), ("type", "string"), ("status", "string"), ("degree", "int"), ("x", "double"), ("y", "double")]
EDGE_KEYS = [("relation_type", "string")]


@dataclass(frozen=True)
class ExportNode:
    id: int
    name: str
    entity_type: str
    status: str
    degree: int
    x: float = math.nan
    y: float = math.nan


def xml_text(value: str) -> str:
    """XML 1.0 text: the characters it cannot carry (controls, lone surrogates) become U+FFFD."""
    out = []
    for ch in value:
        code = ord(ch)
        bad = (code < 0x20 and ch not in "\t\n\r") or 0xD800 <= code <= 0xDFFF or code in (0xFFFE, 0xFFFF)
        out.append("\ufffd" if bad else ch)
    return "".join(out).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def graphml_lines(nodes: Iterable[ExportNode], edges: Iterable[tuple[int, int, str]]) -> Iterable[str]:
    """The GraphML document, line by line: nodes ``n<id>`` with their attributes, directed edges."""
    yield '<?xml version="1.0" encoding="UTF-8"?>'
    yield ('<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
           'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
           'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
           'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">')
    for name, kind in NODE_KEYS:
        yield f'  <key id="{name}" for="node" attr.name="{name}" attr.type="{kind}"/>'
    for name, kind in EDGE_KEYS:
        yield f'  <key id="{name}" for="edge" attr.name="{name}" attr.type="{kind}"/>'
    yield '  <graph id="limbic" edgedefault="directed">'
    known: set[int] = set()
    for node in nodes:
        known.add(node.id)
        parts = [f'    <node id="n{node.id}">',
                 f'<data key="name">{xml_text(node.name)}</data>',
                 f'<data key="type">{xml_text(node.entity_type)}</data>',
                 f'<data key="status">{xml_text(node.status)}</data>',
                 f'<data key="degree">{int(node.degree)}</data>']
        if math.isfinite(node.x) and math.isfinite(node.y):
            parts.append(f'<data key="x">{node.x:.3f}</data><data key="y">{node.y:.3f}</data>')
        parts.append("</node>")
        yield "".join(parts)
    for j, (a, b, rtype) in enumerate(edges):
        if a in known and b in known:
            yield (f'    <edge id="e{j}" source="n{a}" target="n{b}">'
                   f'<data key="relation_type">{xml_text(rtype)}</data></edge>')
    yield "  </graph>"
    yield "</graphml>"


def _write_atomically(path: Path, chunks: Iterable[bytes]) -> None:
    """A temporary file beside the target, renamed over it when complete; a failure is one sentence."""
    tmp = path.with_name(f".{path.name}.part")
    try:
        with open(tmp, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
        osfiles.replace(tmp, path)
    except OSError as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise LimbicError(f"Cannot write {path}: {exc.strerror or exc}.") from exc


def write_graphml(path: str | Path, nodes: Sequence[ExportNode], edges: Sequence[tuple[int, int, str]]) -> int:
    """Write a GraphML file atomically; returns the node count (callers check the target first)."""
    _write_atomically(Path(path), ((line + "\n").encode("utf-8") for line in graphml_lines(nodes, edges)))
    return len(nodes)


def _target(graph: Graph, path: str) -> Path:
    """Where an export may go: never the graph, its journal, a backup or another database."""
    return export_target(graph, Path(path))


def export_whole_graph(graph: Graph, path: str) -> int:
    """The whole graph as GraphML with the saved layout positions; returns the node count."""
    from limbic.service.graph_view import whole_graph

    target = _target(graph, path)
    arrays = whole_graph(graph)
    nodes = [
        ExportNode(int(i), arrays.names[k], arrays.type_names[int(arrays.types[k])], arrays.statuses[k],
                   int(arrays.degree[k]), float(arrays.positions[k, 0]), float(arrays.positions[k, 1]))
        for k, i in enumerate(arrays.ids)
    ]
    edges = [(int(arrays.ids[a]), int(arrays.ids[b]), arrays.rel_names[int(r)])
             for a, b, r in zip(arrays.src, arrays.dst, arrays.rels)]
    return write_graphml(target, nodes, edges)


def export_nodes(graph: Graph, path: str, nodes: Sequence[ExportNode], edges: Sequence[tuple[int, int, str]]) -> int:
    """The part of the graph a view shows, as GraphML; returns the node count."""
    return write_graphml(_target(graph, path), nodes, edges)


def export_bytes(graph: Graph, path: str, data: bytes) -> int:
    """A picture (PNG or SVG) made by the view, written where an export may go; returns its size."""
    _write_atomically(_target(graph, path), [data])
    return len(data)
