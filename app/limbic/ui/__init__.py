"""The PySide6 desktop app: a front end of the service layer."""
