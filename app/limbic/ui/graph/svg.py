"""The picture as SVG, written by hand from the scene's arrays (no Qt SVG module needed)."""

from __future__ import annotations

import numpy as np

from limbic.service.graph_export import xml_text
from limbic.ui.graph.scene import KIND_MORE, KIND_SUGGESTION, Scene, ViewTransform, visible_edges


def svg_text(scene: Scene, view: ViewTransform, width: int, height: int, dark: bool,
             background: str, text: str, label_limit: int = 400) -> str:
    """The part of the scene inside a width × height view, as an SVG document."""
    pos = np.nan_to_num(scene.pos, nan=0.0)
    screen = view.to_screen(pos, width, height) if scene.n else np.zeros((0, 2))
    r = np.maximum(scene.radius * view.scale, 1.5) if scene.n else np.zeros(0)
    vis = np.flatnonzero((screen[:, 0] + r >= 0) & (screen[:, 0] - r <= width)
                         & (screen[:, 1] + r >= 0) & (screen[:, 1] - r <= height)) if scene.n else np.zeros(0, int)
    colours = scene.colours(dark)
    colour_idx = scene.colour_index() if scene.n else np.zeros(0, int)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="100%" height="100%" fill="{background}"/>']
    edges = visible_edges(screen, scene.src, scene.dst, width, height)
    solid = [j for j in edges if not (len(scene.dashed) and scene.dashed[j])]
    dashed = [j for j in edges if len(scene.dashed) and scene.dashed[j]]
    if solid:
        d = " ".join(f"M{screen[scene.src[j], 0]:.1f} {screen[scene.src[j], 1]:.1f}"
                     f"L{screen[scene.dst[j], 0]:.1f} {screen[scene.dst[j], 1]:.1f}" for j in solid)
        out.append(f'<path d="{d}" stroke="{text}" stroke-opacity="0.35" stroke-width="1" fill="none"/>')
    if dashed:
        d = " ".join(f"M{screen[scene.src[j], 0]:.1f} {screen[scene.src[j], 1]:.1f}"
                     f"L{screen[scene.dst[j], 0]:.1f} {screen[scene.dst[j], 1]:.1f}" for j in dashed)
        out.append(f'<path d="{d}" stroke="#0f766e" stroke-width="1.4" stroke-dasharray="5 4" fill="none"/>')
    for i in vis:
        x, y = screen[i]
        colour = colours[int(colour_idx[i])]
        title = xml_text(scene.labels[i])
        if scene.kinds[i] == KIND_SUGGESTION:
            style = f'fill="{background}" stroke="{colour}" stroke-width="2" stroke-dasharray="4 3"'
        elif scene.kinds[i] == KIND_MORE:
            style = f'fill="{background}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="2 2"'
        elif len(scene.ghost) == scene.n and scene.ghost[i]:  # gone since the time slider's date
            style = f'fill="{colour}" fill-opacity="0.3" stroke="{colour}" stroke-width="1.5" stroke-dasharray="4 3"'
        else:
            style = f'fill="{colour}" stroke="{background}" stroke-width="1"'
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r[i]:.1f}" {style}><title>{title}</title></circle>')
    if len(vis) <= label_limit:
        for i in vis:
            x, y = screen[i]
            out.append(f'<text x="{x + r[i] + 4:.1f}" y="{y + 4:.1f}" fill="{text}">{xml_text(scene.labels[i])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
