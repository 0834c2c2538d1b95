"""`limbic mcp`: an MCP server over stdio, a drop-in for the reference memory server plus hybrid search.

It is a front end of the service layer (``limbic.service``) like the app and the CLI; it never imports Qt.
"""
