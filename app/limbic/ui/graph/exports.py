"""The graph panel's exports: GraphML of the whole graph or of the part in view, the picture as PNG or SVG."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage, QPainter, QPalette

from limbic.service import graph_export
from limbic.ui.graph.paint import is_dark
from limbic.ui.graph.scene import KIND_MORE
from limbic.ui.graph.svg import svg_text
from limbic.ui.common.safe_files import save_file
from limbic.ui.common.i18n import translate

WHOLE = "whole"


class GraphExportsMixin:
    """Export actions of ``GraphPanel`` (which provides canvas, engine, mode, its parts ``p`` and _on_failed)."""

    def suggested_path(self, name: str) -> str:
        """Where a first export is offered: the folder used last, else the graph's own (not the working folder)."""
        return str(self.p.start_folder() / name)

    def _ask_save_path(self, title: str, file_filter: str, suggested: str) -> str:
        """A file name to write, or ''; tests replace this."""
        suffix = suggested.rsplit(".", 1)[-1]
        path = save_file(self, title, self.suggested_path(suggested), file_filter, default_suffix=suffix)
        if path:
            self.p.remember_folder(path)
        return path

    def _export_nodes(self, indices: np.ndarray) -> tuple[list, list]:
        s = self.canvas.scene
        keep = [int(i) for i in indices if s.kinds[i] != KIND_MORE]
        nodes = [graph_export.ExportNode(int(s.ids[i]), s.labels[i],
                                         s.type_names[int(s.types[i])] if int(s.types[i]) < len(s.type_names) else "",
                                         s.statuses[i], int(s.degree[i]), float(s.pos[i, 0]), float(s.pos[i, 1]))
                 for i in keep]
        chosen = set(keep)
        edges = [(int(s.ids[a]), int(s.ids[b]), s.rel_names[int(r)])
                 for a, b, r, d in zip(s.src, s.dst, s.rels, s.dashed) if not d and int(a) in chosen and int(b) in chosen]
        return nodes, edges

    def _done(self, message: str) -> None:
        self.info.setText(message)
        self.p.status.say(message, 8000)

    def on_export_whole(self) -> None:
        path = self._ask_save_path(translate("GraphExportsMixin", "Export the whole graph"), translate("GraphExportsMixin", "GraphML (*.graphml)"), "graph.graphml")
        if not path:
            return
        if self.mode == WHOLE and self.canvas.scene.n:  # with the positions on screen
            nodes, edges = self._export_nodes(np.arange(self.canvas.scene.n))
            self.engine.run(f"graph-export:{path}", graph_export.export_nodes, path, nodes, edges,
                            on_done=lambda n: self._done(translate("GraphExportsMixin", "Exported %n entities to {path}.", "", n).format(path=path)),
                            on_failed=self._on_failed, what=translate("GraphExportsMixin", "exporting the graph"))
        else:
            self.engine.run(f"graph-export:{path}", graph_export.export_whole_graph, path,
                            on_done=lambda n: self._done(translate("GraphExportsMixin", "Exported %n entities to {path}.", "", n).format(path=path)),
                            on_failed=self._on_failed, what=translate("GraphExportsMixin", "exporting the graph"))

    def visible_indices(self) -> np.ndarray:
        s = self.canvas.scene
        if s.n == 0:
            return np.zeros(0, dtype=np.int64)
        screen = self.canvas.view.to_screen(np.nan_to_num(s.pos), self.canvas.width(), self.canvas.height())
        inside = ((screen[:, 0] >= 0) & (screen[:, 0] <= self.canvas.width())
                  & (screen[:, 1] >= 0) & (screen[:, 1] <= self.canvas.height()))
        return np.flatnonzero(inside)

    def on_export_visible(self) -> None:
        path = self._ask_save_path(translate("GraphExportsMixin", "Export the visible part"), translate("GraphExportsMixin", "GraphML (*.graphml)"), "visible.graphml")
        if not path:
            return
        nodes, edges = self._export_nodes(self.visible_indices())
        self.engine.run(f"graph-export:{path}", graph_export.export_nodes, path, nodes, edges,
                        on_done=lambda n: self._done(translate("GraphExportsMixin", "Exported %n entities to {path}.", "", n).format(path=path)),
                        on_failed=self._on_failed, what=translate("GraphExportsMixin", "exporting the graph"))

    def picture(self, scale: float = 2.0) -> QImage:
        """The canvas as an image at ``scale`` times its size."""
        w, h = self.canvas.width(), self.canvas.height()
        image = QImage(int(w * scale), int(h * scale), QImage.Format.Format_ARGB32_Premultiplied)
        painter = QPainter(image)
        painter.scale(scale, scale)
        self.canvas.paint(painter, w, h)
        painter.end()
        return image

    def _write_picture(self, path: str, data: bytes) -> None:
        self.engine.run(f"graph-export:{path}", graph_export.export_bytes, path, data,  # one key per file: none drops another
                        on_done=lambda _n: self._done(translate("GraphExportsMixin", "Saved the picture to {path}.").format(path=path)),
                        on_failed=self._on_failed, what=translate("GraphExportsMixin", "saving the picture"))

    def on_export_png(self) -> None:
        path = self._ask_save_path(translate("GraphExportsMixin", "Save the picture"), translate("GraphExportsMixin", "PNG image (*.png)"), "graph.png")
        if not path:
            return
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        self.picture().save(buffer, "PNG")
        buffer.close()
        self._write_picture(path, bytes(data.data()))

    def on_export_svg(self) -> None:
        path = self._ask_save_path(translate("GraphExportsMixin", "Save the picture"), translate("GraphExportsMixin", "SVG image (*.svg)"), "graph.svg")
        if not path:
            return
        palette = self.canvas.palette()
        document = svg_text(self.canvas.scene, self.canvas.view, self.canvas.width(), self.canvas.height(),
                            is_dark(self.canvas), palette.color(QPalette.ColorRole.Base).name(),
                            palette.color(QPalette.ColorRole.Text).name())
        self._write_picture(path, document.encode("utf-8"))
