"""The exporter's error type: what went wrong and, where one applies, the node that failed."""


class ExportError(Exception):
    def __init__(self, message, node=None):
        self.bare_message = message
        self.node = node
        super().__init__(f"node '{node}': {message}" if node else message)
