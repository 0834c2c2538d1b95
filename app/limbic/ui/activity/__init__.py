"""The Activity panel and menu: what each assistant did, reviewed, paused and taken back.

May import ``common`` and ``workers``; never another feature room or ``shell``.
"""
