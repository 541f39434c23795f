"""Discord's rules for registering application commands, and for the choices an autocomplete answers.

A bulk overwrite (`PUT …/commands`) that breaks one rule is refused whole, with 400 "Invalid Form Body"
(code 50035) naming the field, so no command of the application works until it is fixed; a test that
synced against a lenient fake would pass and the bot would have no commands on real Discord.

Chat-input commands (type 1), their subcommands and options (Discord's documentation, "Application
Commands"): names match ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and are lowercase where a
lowercase form exists, localized names too; descriptions are 1-100 characters, localized ones too;
at most 25 options and 25 choices (names 1-100 characters, string values at most 100); required options
before optional ones; sibling names unique; localization keys among Discord's locales (``en-US``, not
``en``); and a command's name, description and choice values, with their longest localization, at most
4000 characters in all. Python's `re` has no ``\\p{…}``: the name check reads `unicodedata` categories,
and the two scripts by their Unicode blocks.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from fakediscord.limits import FormErrors, Path

Json = dict[str, Any]

LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no",
        "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN",
        "ja", "zh-TW", "ko",
    }
)  # fmt: skip
NAME_LENGTH = 32
TEXT_LENGTH = 100  # descriptions, choice names and string choice values
OPTIONS = 25
CHOICES = 25
COMMAND_CHARACTERS = 4000
COMMANDS = 100  # chat-input commands per application (or per guild)
CHAT_INPUT = 1
SUBCOMMAND, GROUP = 1, 2
# \p{sc=Deva} and \p{sc=Thai}, by block: Devanagari (less its two dandas, which are Common) and its
# Extended block; Thai (less the baht sign).
_SCRIPTS = ((0x0900, 0x0963), (0x0966, 0x097F), (0xA8E0, 0xA8FF), (0x0E01, 0x0E3A), (0x0E40, 0x0E5B))


def _name_character(c: str) -> bool:
    if c in "-_" or unicodedata.category(c)[0] in "LN":
        return True
    return any(low <= ord(c) <= high for low, high in _SCRIPTS)


def name_ok(name: Any) -> bool:
    """A chat-input name Discord takes: 1-32 allowed characters, lowercase where that exists."""
    return (
        isinstance(name, str)
        and 1 <= len(name) <= NAME_LENGTH
        and all(_name_character(c) for c in name)
        and name == name.lower()
    )


def _text_ok(text: Any) -> bool:
    return isinstance(text, str) and 1 <= len(text) <= TEXT_LENGTH


def check_commands(commands: Any, *, prefix: Path = ()) -> FormErrors:
    """Every rule the list of commands breaks (empty when Discord would take it); paths start at `prefix`
    and then the command's index, as in Discord's answer to a bulk overwrite."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add(prefix, "BASE_TYPE_ARRAY", "Must be an array.")
        return errors
    chat = [c for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT]
    if len(chat) > COMMANDS:
        errors.add(prefix, "BASE_TYPE_MAX_LENGTH", f"Must be {COMMANDS} or fewer chat-input commands.")
    _unique(errors, prefix, chat)
    for i, command in enumerate(commands):
        check_command(errors, command, (*prefix, i))
    return errors


def check_command(errors: FormErrors, command: Json, path: Path) -> None:
    """One command (a bulk overwrite's item, or the body of a single create)."""
    if command.get("type", CHAT_INPUT) != CHAT_INPUT:  # user and message commands: free names, no text
        if not isinstance(command.get("name"), str) or not 1 <= len(command["name"]) <= NAME_LENGTH:
            errors.add((*path, "name"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {NAME_LENGTH}.")
        return
    _check_item(errors, command, path)
    size = _size(command)
    if size > COMMAND_CHARACTERS:
        errors.add(
            path,
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({COMMAND_CHARACTERS}): {size} characters",
        )


def check_choices(data: Json, *, prefix: Path = ("data",)) -> FormErrors:
    """An autocomplete's answer (callback type 8): at most 25 choices, names and values 1-100 characters."""
    errors = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list):
        errors.add((*prefix, "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        return errors
    errors.max_length((*prefix, "choices"), choices, CHOICES)
    for i, choice in enumerate(choices):
        path = (*prefix, "choices", i)
        if not _text_ok(choice.get("name")):
            errors.add((*path, "name"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {TEXT_LENGTH}.")
        value = choice.get("value")
        if isinstance(value, str) and not _text_ok(value):
            errors.add((*path, "value"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {TEXT_LENGTH}.")
    return errors


def _check_item(errors: FormErrors, item: Json, path: Path) -> None:
    """A command, subcommand group, subcommand or option: name, description, localizations, options."""
    if not name_ok(item.get("name")):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    if not _text_ok(item.get("description")):
        errors.add((*path, "description"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {TEXT_LENGTH}.")
    _localizations(errors, item, "name", path, name_ok, "APPLICATION_COMMAND_INVALID_NAME")
    _localizations(errors, item, "description", path, _text_ok, "BASE_TYPE_BAD_LENGTH")
    options = list(item.get("options") or [])
    errors.max_length((*path, "options"), options, OPTIONS)
    _unique(errors, (*path, "options"), options)
    optional_seen = False
    for j, option in enumerate(options):
        if option.get("type") not in (SUBCOMMAND, GROUP):
            if not option.get("required"):
                optional_seen = True
            elif optional_seen:
                errors.add(
                    (*path, "options", j, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        _check_item(errors, option, (*path, "options", j))
    choices = list(item.get("choices") or [])
    errors.max_length((*path, "choices"), choices, CHOICES)
    for j, choice in enumerate(choices):
        here = (*path, "choices", j)
        if not _text_ok(choice.get("name")):
            errors.add((*here, "name"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {TEXT_LENGTH}.")
        _localizations(errors, choice, "name", here, _text_ok, "BASE_TYPE_BAD_LENGTH")
        value = choice.get("value")
        if isinstance(value, str) and not _text_ok(value):
            errors.add((*here, "value"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {TEXT_LENGTH}.")


def _localizations(errors: FormErrors, item: Json, key: str, path: Path, ok: Any, code: str) -> None:
    for locale, text in (item.get(f"{key}_localizations") or {}).items():
        here = (*path, f"{key}_localizations", locale)
        if locale not in LOCALES:
            errors.add(here, "ENUM_TYPE_COERCE", f'Value "{locale}" is not a valid enum value.')
        elif not ok(text):
            errors.add(here, code, f"Invalid {key} for locale {locale}")


def _unique(errors: FormErrors, path: Path, siblings: list[Json]) -> None:
    """Sibling names repeat neither as sent nor in any locale."""
    locales = {loc for s in siblings for loc in s.get("name_localizations") or {}}
    for locale in (None, *sorted(locales)):
        names = [
            s.get("name")
            if locale is None
            else (s.get("name_localizations") or {}).get(locale, s.get("name"))
            for s in siblings
        ]
        if len(set(names)) != len(names):
            where = "" if locale is None else f" in {locale}"
            errors.add(path, "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Names repeat{where}: {names}")


def _longest(item: Json, key: str) -> int:
    texts = [item.get(key) or "", *(item.get(f"{key}_localizations") or {}).values()]
    return max(len(str(t)) for t in texts)


def _size(item: Json) -> int:
    """Characters Discord counts toward a command's 4000: names, descriptions and choice values (the
    longest localization of each), of the command and everything in it."""
    total = _longest(item, "name") + _longest(item, "description")
    total += sum(_size(option) for option in item.get("options") or [])
    total += sum(_longest(c, "name") + len(str(c.get("value"))) for c in item.get("choices") or [])
    return total
