"""Stack traces without this machine's paths, so the same model exported from another checkout (or
another Python installation) gives the same bytes.

FX stores stack traces as Python prints them (`  File "/abs/path.py", line 3, in forward`). Each file
name is rewritten: a file under site-packages (or dist-packages) becomes `site-packages/<rest>`; a file
under the current directory becomes relative to it; a file of the standard library becomes
`lib/pythonX.Y/<rest>`. Other names (`<eval_with_key>.0`, paths elsewhere) are kept.
"""
import os
import re
import sys
import sysconfig

_FILE_LINE = re.compile(r'(File ")([^"\n]+)(")')
_PACKAGES = re.compile(r"[\\/](?:site|dist)-packages[\\/]")


def _stdlib_dirs():
    dirs = set()
    for key in ("stdlib", "platstdlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.add(os.path.realpath(path))
    return sorted(dirs, key=len, reverse=True)


_STDLIB = _stdlib_dirs()
_STDLIB_NAME = f"lib/python{sys.version_info.major}.{sys.version_info.minor}"


def _under(path, directory):
    try:
        return os.path.commonpath([path, directory]) == directory
    except ValueError:  # different drives
        return False


def portable_path(path, cwd=None):
    """The file name as stored in a .fxw stack trace (see the module's docstring)."""
    found = list(_PACKAGES.finditer(path))
    if found:
        return "site-packages/" + path[found[-1].end():].replace("\\", "/")
    if not os.path.isabs(path):
        return path
    cwd = os.path.realpath(cwd or os.getcwd())
    real = os.path.realpath(path)
    for candidate in (path, real):
        if _under(candidate, cwd) and candidate != cwd:
            return os.path.relpath(candidate, cwd).replace("\\", "/")
    for directory in _STDLIB:
        if _under(real, directory):
            return f"{_STDLIB_NAME}/{os.path.relpath(real, directory)}".replace("\\", "/")
    return path


def portable_stack_trace(text, cwd=None):
    """`text` with every `File "..."` name made portable."""
    return _FILE_LINE.sub(lambda m: m.group(1) + portable_path(m.group(2), cwd) + m.group(3), text)
