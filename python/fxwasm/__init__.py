"""fxwasm: export PyTorch FX programs to .fxw files (docs/format.md) for the WebAssembly runtime."""
__version__ = "0.1.0"

from .errors import ExportError  # noqa: E402
from .save import dumps, save  # noqa: E402
from .dynamo import dynamo_backend  # noqa: E402
from .reader import read  # noqa: E402

__all__ = ["save", "dumps", "dynamo_backend", "read", "ExportError", "__version__"]
