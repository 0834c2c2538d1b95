"""One graph on several devices: each device publishes its changes as segment files in a folder the
person already syncs, and applies the other devices' segments through the normal write path.

``state`` holds what the graph file knows of sync (its clock, what it published, global ids);
``folder`` reads and writes the segment files; ``capture`` turns the change log into changes named
by global ids; ``apply`` applies another device's changes, deciding conflicts the same way on every
device; ``conflicts`` keeps what lost until the person resolves it; ``snapshot`` starts a new device.
"""
