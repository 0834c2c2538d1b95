"""The benchmark report as markdown tables."""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ms(s: dict) -> str:
    return "–" if not s or not s.get("n") else f"{s['p50']:.1f} / {s['p95']:.1f}"


def markdown(results: dict) -> str:
    """Tables a reader can compare at a glance; every figure is also in bench.json."""
    m = results["machine"]
    lines = [
        "# Limbic benchmarks",
        "",
        f"{results['finished']} · commit {m['commit']} · {m['processor']}, {m['cpus']} CPUs "
        f"(1-min load {m['load_average_1min_at_start']} at start) · Python {m['python']}, numpy {m['numpy']}, "
        f"onnxruntime {m['onnxruntime']}, SQLite {m['sqlite']}, sqlite-vec {m['sqlite_vec']} · "
        f"total {results['total_s']:.0f} s",
        "",
        f"Command: `{results['command']}`",
        "",
        "## Search (ms, p50 / p95)",
        "",
        "End to end = encode, KNN + FTS, RRF, limbic ranking, hydration (and recording of signals).",
        "Reference = the same query encoded + exact numpy brute-force KNN over a float32 matrix + the FTS query alone.",
        "The three are interleaved after a warm-up pass over every query (each query takes them in another order).",
        "",
        "| entities | vectors | search | search + recording | reference | ratio p50 / p95 | KNN (mirror) | KNN (sqlite-vec scan) | top-10 = exact |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in results.get("search", []):
        ex = s["exactness"]
        exact = f"{_pct(ex['queries']['same_set_as_float64'])} q, {_pct(ex['near_duplicates']['same_set_as_float64'])} near-dup"
        lines.append(
            f"| {s['entities']:,} | {s['vectors']} | {_ms(s['search_ms'])} | {_ms(s['search_recording_ms'])} | "
            f"{_ms(s['reference_ms'])} | {s['ratio_p50']:.2f}× / {s.get('ratio_p95', float('nan')):.2f}× | {_ms(s['knn_ms']['mirror'])} | "
            f"{_ms(s['knn_ms']['sqlite_vec_scan'])} | {exact} |"
        )
    lines += [
        "",
        "| entities | ref: encode | ref: numpy KNN | ref: FTS | mirror load (first search) | mirror size | query seq len (max) | top-10 = sqlite-vec (order) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in results.get("search", []):
        p = s["reference_parts_ms"]
        ex = s["exactness"]
        lines.append(
            f"| {s['entities']:,} | {_ms(p['encode'])} | {_ms(p['numpy_knn'])} | {_ms(p['fts'])} | {s['mirror_load_ms']:.0f} ms | "
            f"{s['mirror_mib']} MiB | {s['query_seq_len']['max']} | "
            f"{_pct(ex['queries']['same_order_as_sqlite_vec'])} of {ex['queries']['n_vs_sqlite_vec']} q, "
            f"{_pct(ex['near_duplicates']['same_order_as_sqlite_vec'])} of {ex['near_duplicates']['n_vs_sqlite_vec']} near-dup |"
        )
    if results.get("search"):
        kinds = sorted({k for s in results["search"] for k in s.get("by_kind", {})})
        lines += [
            "",
            "By kind of query (p50 ms: search / reference / FTS alone):",
            "",
            "| entities | " + " | ".join(kinds) + " |",
            "|---:|" + "---:|" * len(kinds),
        ]
        for s in results["search"]:
            bk = s.get("by_kind", {})
            cells = [
                f"{bk[k]['search_p50']:.0f} / {bk[k]['reference_p50']:.0f} / {bk[k]['fts_p50']:.0f} (n={bk[k]['n']})" if k in bk else "–"
                for k in kinds
            ]
            lines.append(f"| {s['entities']:,} | " + " | ".join(cells) + " |")
    ing = results.get("ingest")
    if ing:
        st = ing["stages_s"]
        enc = ing["encoding"]
        lines += [
            "",
            "## Ingest (JSONL import with the real model)",
            "",
            "| entities | import | raw model, same texts and batches | ratio (wall) | ratio (CPU time) | graph write | model in import | other embedding bookkeeping |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
            f"| {ing['entities']:,} | {ing['import_entities_per_s']} /s ({ing['import_s']} s) | {ing['raw_entities_per_s']} /s "
            f"({ing['raw_model_s']} s) | {ing['ratio']:.3f}× | {ing['ratio_cpu']:.3f}× ({ing['raw_model_cpu_s']} / {ing['import_cpu_s']} CPU s) | "
            f"{st['graph_write']} s | {st['model_in_import']} s | {st['bookkeeping_in_embed']} s |",
            "",
            "## Encoding",
            "",
            "| tokens/s (real) | tokens/s (incl. padding) | padding efficiency | mean tokens per entity | passage batch seq len (median / max) | query seq len (max over all searches) |",
            "|---:|---:|---:|---:|---:|---:|",
            f"| {enc['tokens_per_s']:,} | {enc['padded_tokens_per_s']:,} | {_pct(enc['padding_efficiency'])} | {enc['mean_tokens_per_text']} | "
            f"{enc['batch_seq_len']['median']:.0f} / {enc['batch_seq_len']['max']} | "
            f"{max((s['query_seq_len']['max'] for s in results.get('search', [])), default='–')} |",
        ]
    mem = results.get("memory")
    if mem:
        lines += [
            "",
            f"## Memory ({mem['entities']:,}-entity graph, fresh process)",
            "",
            "| before open | open + model | after searches | peak RSS | of which vector mirror |",
            "|---:|---:|---:|---:|---:|",
            f"| {mem['rss_before_open_mib']} MiB | {mem['rss_open_with_model_mib']} MiB | {mem['rss_after_searches_mib']} MiB | "
            f"{mem['peak_rss_mib']} MiB | {mem['mirror_mib']} MiB |",
        ]
    if results.get("startup"):
        lines += [
            "",
            "## Start-up (fresh process, median of runs)",
            "",
            "| graph | process start → engine ready (model loaded) | → first search result |",
            "|---:|---:|---:|",
        ]
        for s in results["startup"]:
            lines.append(f"| {s['entities']:,} entities | {s['ready_s']:.2f} s | {s['first_result_s']:.2f} s |")
    ui = results.get("ui_stall")
    if ui:
        lines += ["", f"## UI responsiveness (`{ui['command']}`, exit code {ui['returncode']})", "", "```", ui["output"], "```"]
    builds = {k: v for k, v in results.get("builds_s", {}).items() if v}
    if builds:
        lines += ["", "Graphs built this run (then cached): " + ", ".join(f"{k}: {v:.0f} s" for k, v in builds.items())]
    return "\n".join(lines) + "\n"
