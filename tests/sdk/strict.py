"""Strict validation of a JSON document against a provider SDK's own type.

pydantic validates values, but by default lets unknown keys through TypedDicts and most SDK
models. `check` walks the type and the document together: every key must be declared by the
type (under its name or alias), every required key present, every literal equal, every union
matched by at least one member; pydantic then validates the values themselves.
"""

from __future__ import annotations

import collections.abc
import enum
import types
import typing

import pydantic
import typing_extensions


def import_sdk(name: str, *modules: str):
    """Import the SDK package `name` (and submodules) with this folder off `sys.path`: a
    checker here named after its package (cohere.py, ollama.py) would shadow it."""
    import importlib
    import pathlib
    import sys

    here = pathlib.Path(__file__).resolve().parent
    saved = list(sys.path)
    sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != here]
    shadow = sys.modules.get(name)
    if shadow is not None and pathlib.Path(getattr(shadow, "__file__", "") or "").resolve().parent == here:
        sys.modules.pop(name)
    try:
        return [importlib.import_module(m) for m in (name, *modules)]
    finally:
        sys.path[:] = saved


_NONE = type(None)


def _strip(tp):
    """Remove Annotated / Required / NotRequired / ReadOnly wrappers."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated or origin is typing_extensions.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing_extensions.Required, typing_extensions.NotRequired) or (
            hasattr(typing, "Required") and origin in (typing.Required, typing.NotRequired)
        ):
            tp = typing.get_args(tp)[0]
        elif hasattr(typing_extensions, "ReadOnly") and origin is typing_extensions.ReadOnly:
            tp = typing.get_args(tp)[0]
        elif isinstance(tp, typing.TypeAliasType if hasattr(typing, "TypeAliasType") else ()):
            tp = tp.__value__
        else:
            return tp


def _is_typeddict(tp) -> bool:
    return typing_extensions.is_typeddict(tp)


def _is_model(tp) -> bool:
    return isinstance(tp, type) and issubclass(tp, pydantic.BaseModel)


def _fields(tp):
    """(name -> (annotation, required)) for a TypedDict or a pydantic model, keyed by wire name."""
    out = {}
    if _is_typeddict(tp):
        hints = typing.get_type_hints(tp, include_extras=True)
        required = getattr(tp, "__required_keys__", set(hints))
        for name, ann in hints.items():
            # Aliased TypedDict keys (`PropertyInfo(alias=...)`, used by some SDKs).
            wire = name
            if typing.get_origin(ann) in (typing.Annotated, typing_extensions.Annotated):
                for meta in typing.get_args(ann)[1:]:
                    alias = getattr(meta, "alias", None)
                    if isinstance(alias, str):
                        wire = alias
            out[wire] = (ann, name in required)
    else:
        for name, info in tp.model_fields.items():
            wire = info.alias or name
            out[wire] = (info.annotation, info.is_required())
            if wire != name:
                out[name] = (info.annotation, False)
    return out


def check(tp, value, path: str = "") -> list[str]:
    """Errors of `value` against `tp` (empty list: valid)."""
    tp = _strip(tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)

    if tp is typing.Any or tp is object:
        return []
    if tp is _NONE or tp is None:
        return [] if value is None else [f"{path or '/'}: expected null"]
    if origin is typing.Literal or origin is typing_extensions.Literal:
        return [] if value in args else [f"{path or '/'}: {value!r} is not one of {list(args)}"]
    if origin in (typing.Union, types.UnionType):
        return _check_union(args, value, path)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        values = [m.value for m in tp]
        names = [m.name for m in tp]
        ok = value in values or value in names
        return [] if ok else [f"{path or '/'}: {value!r} is not one of {values}"]
    if tp is str:
        return [] if isinstance(value, str) else [f"{path or '/'}: expected a string"]
    if tp is bool:
        return [] if isinstance(value, bool) else [f"{path or '/'}: expected a boolean"]
    if tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{path or '/'}: expected an integer"]
    if tp is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return [] if ok else [f"{path or '/'}: expected a number"]
    if tp is bytes:
        return [] if isinstance(value, str) else [f"{path or '/'}: expected base64 text"]
    if origin in (list, collections.abc.Iterable, collections.abc.Sequence, typing.List, tuple, set):
        if not isinstance(value, list):
            return [f"{path or '/'}: expected an array"]
        item = args[0] if args else typing.Any
        errors = []
        for i, v in enumerate(value):
            errors += check(item, v, f"{path}/{i}")
        return errors
    if origin in (dict, collections.abc.Mapping, typing.Dict):
        if not isinstance(value, dict):
            return [f"{path or '/'}: expected an object"]
        item = args[1] if len(args) == 2 else typing.Any
        errors = []
        for k, v in value.items():
            errors += check(item, v, f"{path}/{k}")
        return errors
    if _is_typeddict(tp) or _is_model(tp):
        if not isinstance(value, dict):
            return [f"{path or '/'}: expected an object ({tp.__name__})"]
        fields = _fields(tp)
        errors = []
        for k, v in value.items():
            if k not in fields:
                errors.append(f"{path}/{k}: unknown key for {tp.__name__}")
                continue
            errors += check(fields[k][0], v, f"{path}/{k}")
        for k, (_, required) in fields.items():
            if required and k not in value:
                errors.append(f"{path or '/'}: missing required key {k!r} of {tp.__name__}")
        return errors
    # Anything else (datetime, special pydantic types): let pydantic decide.
    try:
        _adapter(tp).validate_python(value)
        return []
    except Exception as e:  # noqa: BLE001 - any failure is a validation error here
        return [f"{path or '/'}: {e}"]


def _check_union(members, value, path):
    best = None
    for m in members:
        errors = check(m, value, path)
        if not errors:
            return []
        if best is None or len(errors) < len(best):
            best = errors
    return best or [f"{path or '/'}: matches no member of the union"]


_ADAPTERS: dict = {}


def _adapter(tp):
    """One TypeAdapter per type: building one compiles a pydantic schema (a tenth of a second
    for an SDK's request type), so a run over hundreds of documents builds each once."""
    try:
        hash(tp)
    except TypeError:
        return pydantic.TypeAdapter(tp)
    if tp not in _ADAPTERS:
        _ADAPTERS[tp] = pydantic.TypeAdapter(tp)
    return _ADAPTERS[tp]


def validate(tp, value) -> list[str]:
    """Strict key check, then pydantic's own validation of the values."""
    errors = check(tp, value)
    if errors:
        return errors
    try:
        if _is_model(tp):
            tp.model_validate(value)
        else:
            _adapter(tp).validate_python(value, strict=False)
    except pydantic.ValidationError as e:
        return [str(e)]
    return []
