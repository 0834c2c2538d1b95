"""The knowledge graph itself: entities, observations, relations and reflections, their history (superseded
observations, ended relations, statuses), the activity log read back per session, conditional revert, usage
signals and the force-directed layout of its picture.

May import ``store``, ``text`` and ``vectors`` (each write keeps the indexes in step); never ``search`` or
``formats``.
"""
