"""Print what an assistant session with `limbic mcp` looks like: create, search, read back.

Runs the real server (`python -m limbic mcp --db FILE`, a fresh temporary file unless --db) through
the MCP SDK's stdio client and prints each call and its answer, shortened:

    PYTHONPATH=app python scripts/mcp_transcript.py [--db FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

APP = str(Path(__file__).resolve().parents[1] / "app")

SESSION = [
    ("create_entities", {"entities": [
        {"name": "Marta Ruiz", "entityType": "Person", "observations": ["Prefers morning meetings", "Leads the billing team"]},
        {"name": "Billing revamp", "entityType": "Project", "observations": ["Deadline 2026-03-31", "Moves invoices to Stripe"]},
    ]}),
    ("create_relations", {"relations": [{"from": "Marta Ruiz", "to": "Billing revamp", "relationType": "leads"}]}),
    ("add_observations", {"observations": [{"entityName": "Billing revamp", "contents": ["Ticket LMB-1042 blocks the launch"]}]}),
    ("search", {"query": "who runs the payments project?", "limit": 2}),
    ("search", {"query": "LMB-1042", "limit": 1}),
    ("open_nodes", {"names": ["Marta Ruiz"]}),
]


def short(value, width: int = 100) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def brief_search(found: dict) -> dict:
    return {"mode": found["mode"], "results": [
        {k: r.get(k) for k in ("name", "limbic_score", "distance", "rrf_score") if k in r} for r in found["results"]]}


async def session(db: Path) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "limbic", "mcp", "--db", str(db)],
                                   env={"PYTHONPATH": APP, **({k: os.environ[k] for k in ("LIMBIC_HOME",) if k in os.environ})})
    async with Client(params, mode="legacy") as client:
        info = client.server_info
        print(f"# connected to {info.name} {info.version}, protocol {client.protocol_version}")
        tools = (await client.list_tools()).tools
        print(f"# tools: {', '.join(t.name for t in tools)}")
        for tool, arguments in SESSION:
            result = await client.call_tool(tool, arguments)
            answer = result.structured_content
            if tool == "search":
                answer = brief_search(answer)
            print(f"> {tool} {short(arguments, 90)}")
            print(f"< {'ERROR ' if result.is_error else ''}{short(answer, 240)}")
        graph = json.loads((await client.read_resource("memory://knowledge-graph")).contents[0].text)
        print("> resources/read memory://knowledge-graph")
        print(f"< {len(graph['entities'])} entities, {len(graph['relations'])} relations: {short(graph, 200)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="the graph file (default: a fresh temporary one)")
    args = parser.parse_args()
    if args.db:
        anyio.run(session, Path(args.db))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        anyio.run(session, Path(tmp) / "transcript.db")
    return 0


if __name__ == "__main__":
    sys.exit(main())
