"""The window's assembly: the main window, its menus (File, Organise, Edit's undo), the status bar, the
command palette and quick switcher, and the app's start-up.

The only room that knows every other: it builds the controllers of the rooms below and hands each the
collaborators it uses. Nothing imports it but the app's entry point.
"""
