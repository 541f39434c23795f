"""A cheaper constructor for the engine's frozen dataclasses (events, actions)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, TypeVar

__all__ = ["fast_init"]

_E = TypeVar("_E", bound=type)


def fast_init(cls: _E) -> _E:
    """Give a frozen slotted dataclass a cheaper ``__init__`` with the same signature.

    The table builds a few dozen events per hand and the generated ``__init__`` of a frozen
    dataclass calls ``object.__setattr__`` once per field; writing through each slot's own
    descriptor does the same thing at about half the cost. Instances stay frozen (assignment
    still raises ``FrozenInstanceError``) and are equal, hashed and printed as before.
    """
    namespace: dict[str, Any] = {}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    if "__post_init__" in dir(cls):
        raise TypeError(f"{cls.__name__}: fast_init does not run __post_init__")
    for f in fields(cls):
        if f.default_factory is not MISSING or not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init supports plain defaults only")
        descriptor = next(k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__)
        namespace[f"_set_{f.name}"] = descriptor.__set__
        if f.default is not MISSING:
            namespace[f"_default_{f.name}"] = f.default
            parameter = f"{f.name}=_default_{f.name}"
        else:
            parameter = f.name
        (keyword if f.kw_only else positional).append(parameter)
        body.append(f"    _set_{f.name}(self, {f.name})")
    parameters = ["self", *positional, *(["*", *keyword] if keyword else [])]
    source = f"def __init__({', '.join(parameters)}):\n" + "\n".join(body)
    exec(source, namespace)
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = dict(vars(cls)["__init__"].__annotations__)  # the same signature for introspection
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses a direct assignment to a method)
    return cls
