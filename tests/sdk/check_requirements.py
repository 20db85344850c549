"""Exit 0 when every pinned requirement in the given file is installed at its version."""

import sys
from importlib import metadata

ok = True
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, _, version = line.partition("==")
    try:
        have = metadata.version(name)
    except metadata.PackageNotFoundError:
        have = None
    if have != version:
        ok = False
sys.exit(0 if ok else 1)
