"""Validate documents Toolscope generates against the providers' own SDK types.

Usage:
  python3 tests/sdk/validate.py                    every golden document in tests/fixtures/<format>/
  python3 tests/sdk/validate.py --dir DIR          every DIR/<format>.<request|response>.*.json
  python3 tests/sdk/validate.py FORMAT KIND FILE…  the given files

Each format has a module here named after its id (`openai-chat` -> openai_chat.py) with
`validate_request(doc)` and `validate_response(doc)`, each returning a list of errors.
Exit status 1 when any document fails.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures"
# Appended, not inserted: tests/sdk/anthropic.py must not hide the `anthropic` package.
sys.path.append(str(HERE))


def validator(fmt: str, kind: str):
    name = fmt.replace("-", "_")
    module_name = f"toolscope_sdk_{name}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, HERE / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return getattr(module, f"validate_{kind}")


def formats() -> list[str]:
    """Every format with golden documents; each must have a validator module here. Other
    fixture folders (canonical cases, streams, share links, gallery, fuzz inputs, cost cases) hold no
    golden documents."""
    not_formats = {"exchanges", "streams", "share", "gallery", "fuzz", "cost"}
    return sorted(p.name for p in FIXTURES.iterdir() if p.is_dir() and p.name not in not_formats)


def run(items) -> int:
    passed = failed = 0
    for fmt, kind, path in items:
        try:
            doc = json.loads(path.read_text())
            errors = validator(fmt, kind)(doc)
        except Exception as e:  # noqa: BLE001 - report, never crash the run
            errors = [f"validator raised {type(e).__name__}: {e}"]
        if errors:
            failed += 1
            print(f"FAIL {fmt} {kind} {path}")
            for e in errors[:20]:
                print(f"     {e}")
        else:
            passed += 1
    print(f"sdk: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


def main(argv: list[str]) -> int:
    if not argv:
        items = []
        for fmt in formats():
            for kind in ("request", "response"):
                for path in sorted((FIXTURES / fmt).glob(f"*.{kind}.json")):
                    items.append((fmt, kind, path))
        return run(items)
    if argv[0] == "--dir":
        items = []
        for path in sorted(pathlib.Path(argv[1]).glob("*.json")):
            fmt, kind = path.name.split(".")[:2]
            items.append((fmt, kind, path))
        return run(items)
    fmt, kind, *files = argv
    return run([(fmt, kind, pathlib.Path(f)) for f in files])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
