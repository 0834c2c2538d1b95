"""Small parts every room shares: the window's fit to its screen and remembered layout, the theme and zoom,
type colours, a wrapping layout, the keyboard-first picker and file dialogs that never open a file.

Imports nothing of the window above it.
"""
