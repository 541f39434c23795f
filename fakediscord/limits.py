"""Discord's size limits on what a bot sends, and the `errors` object of its 400 "Invalid Form Body" answer.

Each check names the offending field by its JSON path, as Discord does:
``{"embeds": {"0": {"title": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": ...}]}}}}``;
discord.py flattens that into the text of its HTTPException, so a failing test names the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]
Path = tuple[str | int, ...]

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
EMBED_TOTAL = 6000
ACTION_ROWS = 5
ROW_BUTTONS = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100
PLACEHOLDER = 150
TEXT_INPUT_PLACEHOLDER = 100
MODAL_TITLE = 45
MODAL_COMPONENTS = 5
TEXT_INPUT_LABEL = 45
TEXT_INPUT_VALUE = 4000
ATTACHMENTS = 10
V2_COMPONENTS = 40  # messages flagged IS_COMPONENTS_V2 count every component, nested ones included
IS_COMPONENTS_V2 = 1 << 15

ACTION_ROW, BUTTON, TEXT_INPUT, LABEL = 1, 2, 4, 18
SELECTS = {3, 5, 6, 7, 8}
STRING_SELECT = 3


@dataclass(frozen=True)
class Upload:
    """One file of a multipart body: its form field (`files[0]`), name, bytes and declared type."""

    field: str
    filename: str
    data: bytes
    content_type: str


class FormErrors:
    """Discord's nested `errors` object, built one offending path at a time."""

    def __init__(self) -> None:
        self.tree: Json = {}

    def __bool__(self) -> bool:
        return bool(self.tree)

    def add(self, path: Path, code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: Path, value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def paths(self) -> list[str]:
        """Every offending path, dotted (`embeds.0.title`), for assertions and reports."""
        found: list[str] = []

        def walk(node: Json, prefix: str) -> None:
            for key, value in node.items():
                if key == "_errors":
                    found.append(prefix)
                else:
                    walk(value, f"{prefix}.{key}" if prefix else key)

        walk(self.tree, "")
        return found


def check_message(body: Json, uploads: Iterable[Upload], *, prefix: Path = (), flags: int = 0) -> FormErrors:
    """A message body (create, edit, interaction response data, follow-up), with its files; `flags`: the
    edited message's, used when the body does not say."""
    errors = FormErrors()
    errors.max_length((*prefix, "content"), body.get("content"), CONTENT)
    _check_embeds(errors, prefix, list(body.get("embeds") or []))
    components = list(body.get("components") or [])
    if int(body.get("flags") or flags) & IS_COMPONENTS_V2:
        if _count(components) > V2_COMPONENTS:
            errors.add((*prefix, "components"), "BASE_TYPE_MAX_LENGTH", f"Must be {V2_COMPONENTS} or fewer.")
        _check_components(errors, (*prefix, "components"), components)
    else:
        errors.max_length((*prefix, "components"), components, ACTION_ROWS)
        for i, row in enumerate(components):
            _check_row(errors, (*prefix, "components", i), row)
    files = list(uploads)
    errors.max_length((*prefix, "attachments"), list(body.get("attachments") or files), ATTACHMENTS)
    return errors


def too_big(uploads: Iterable[Upload], size_limit: int) -> Upload | None:
    """The first file over the size limit: Discord refuses the whole request with 413, code 40005."""
    return next((u for u in uploads if len(u.data) > size_limit), None)


def check_modal(data: Json, *, prefix: Path = ("data",)) -> FormErrors:
    """A modal (interaction callback type 9): title, custom id, at most five fields, short labels."""
    errors = FormErrors()
    errors.max_length((*prefix, "title"), data.get("title"), MODAL_TITLE)
    errors.max_length((*prefix, "custom_id"), data.get("custom_id"), CUSTOM_ID)
    components = list(data.get("components") or [])
    errors.max_length((*prefix, "components"), components, MODAL_COMPONENTS)
    for i, comp in enumerate(components):
        path = (*prefix, "components", i)
        if comp.get("type") == LABEL:
            errors.max_length((*path, "label"), comp.get("label"), TEXT_INPUT_LABEL)
            _check_components(errors, path, [comp.get("component") or {}], key="component")
        else:
            _check_components(errors, (*path, "components"), list(comp.get("components") or []))
    return errors


def _check_embeds(errors: FormErrors, prefix: Path, embeds: list[Json]) -> None:
    errors.max_length((*prefix, "embeds"), embeds, EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        path = (*prefix, "embeds", i)
        errors.max_length((*path, "title"), embed.get("title"), EMBED_TITLE)
        errors.max_length((*path, "description"), embed.get("description"), EMBED_DESCRIPTION)
        fields = list(embed.get("fields") or [])
        errors.max_length((*path, "fields"), fields, EMBED_FIELDS)
        for j, fld in enumerate(fields):
            for key, limit in (("name", FIELD_NAME), ("value", FIELD_VALUE)):
                if not str(fld.get(key) or "").strip():  # Discord refuses an empty or blank one
                    errors.add((*path, "fields", j, key), "BASE_TYPE_REQUIRED", "This field is required")
                errors.max_length((*path, "fields", j, key), fld.get(key), limit)
        footer, author = embed.get("footer") or {}, embed.get("author") or {}
        errors.max_length((*path, "footer", "text"), footer.get("text"), FOOTER_TEXT)
        errors.max_length((*path, "author", "name"), author.get("name"), AUTHOR_NAME)
        texts = [embed.get("title"), embed.get("description"), footer.get("text"), author.get("name")]
        texts += [f.get(k) for f in fields for k in ("name", "value")]
        total += sum(len(str(t)) for t in texts if t)
    if total > EMBED_TOTAL:
        errors.add(
            (*prefix, "embeds"),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL}",
        )


def _check_row(errors: FormErrors, path: Path, row: Json) -> None:
    inner = list(row.get("components") or [])
    if row.get("type") != ACTION_ROW:
        errors.add((*path, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).')
        return
    if any(c.get("type") in SELECTS for c in inner) and len(inner) > 1:
        errors.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select menu fills its row.")
    errors.max_length((*path, "components"), inner, ROW_BUTTONS)
    _check_components(errors, (*path, "components"), inner)


def _check_components(
    errors: FormErrors, path: Path, components: list[Json], *, key: str | None = None
) -> None:
    for i, comp in enumerate(components):
        here: Path = (*path, key) if key else (*path, i)
        errors.max_length((*here, "custom_id"), comp.get("custom_id"), CUSTOM_ID)
        kind = comp.get("type")
        if kind == BUTTON:
            errors.max_length((*here, "label"), comp.get("label"), BUTTON_LABEL)
        elif kind in SELECTS:
            options = list(comp.get("options") or [])
            errors.max_length((*here, "options"), options, SELECT_OPTIONS)
            errors.max_length((*here, "placeholder"), comp.get("placeholder"), PLACEHOLDER)
            for j, option in enumerate(options):
                for name in ("label", "value", "description"):
                    errors.max_length((*here, "options", j, name), option.get(name), SELECT_OPTION_TEXT)
            least, most = comp.get("min_values", 1), comp.get("max_values", 1)
            if not 0 <= least <= most <= SELECT_OPTIONS or (kind == STRING_SELECT and most > len(options)):
                errors.add(
                    (*here, "max_values"),
                    "BASE_TYPE_BAD_INT",
                    "min_values and max_values must be within 0-25, and max_values no more than the options.",
                )
        elif kind == TEXT_INPUT:
            errors.max_length((*here, "label"), comp.get("label"), TEXT_INPUT_LABEL)
            errors.max_length((*here, "value"), comp.get("value"), TEXT_INPUT_VALUE)
            errors.max_length((*here, "placeholder"), comp.get("placeholder"), TEXT_INPUT_PLACEHOLDER)
        nested = list(comp.get("components") or [])
        if nested:
            _check_components(errors, (*here, "components"), nested)
        for extra in ("accessory", "component"):
            if extra in comp:
                _check_components(errors, here, [comp[extra]], key=extra)


def _count(components: list[Json]) -> int:
    total = 0
    for comp in components:
        total += 1 + _count(list(comp.get("components") or []))
        total += sum(_count([comp[k]]) for k in ("accessory", "component") if k in comp)
    return total
