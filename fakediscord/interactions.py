"""What a user does to the bot (slash command, button, select, modal) and what comes back (`Reply`).

Payloads mirror what Discord sends discord.py 2.7.1. Where Discord's own client would stop a user (a
missing required option, a value outside the choices, a disabled button, a command hidden by
`default_member_permissions`), these helpers raise instead of sending, so a test cannot pass by asking
for something no real user could do.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fakediscord.model import (
    BOT_PERMISSIONS,
    EPHEMERAL,
    FakeChannel,
    FakeMessage,
    FakeUser,
    Json,
    find_component,
    walk_components,
)

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
BUTTON, TEXT_INPUT = 2, 4
SELECT_TYPES = {3, 5, 6, 7, 8}


class CommandHidden(AssertionError):
    """Discord would not offer this command to this user here, so no interaction can be sent."""


@dataclass
class InteractionRecord:
    """One interaction the fake sent, and everything the bot did with its token."""

    id: int
    token: str
    type: int  # 2 slash, 3 component, 4 autocomplete, 5 modal submit
    user: FakeUser
    channel: FakeChannel
    payload: Json
    source_message_id: int | None = None  # the message holding the clicked component
    callback_type: int | None = None
    callback_data: Json = field(default_factory=dict)
    callback_with_response: bool = False  # whether the answer asked for its message back
    original_id: int | None = None  # the message @original refers to
    followup_ids: list[int] = field(default_factory=list)
    edited_ids: list[int] = field(default_factory=list)
    posted_from: int = 0  # messages with a larger id were created after the interaction was sent
    # `fake.clock()` (time.perf_counter() unless a test swaps it) when the INTERACTION_CREATE frame went
    # out and when the first callback POST arrived (bench/bench_discord.py measures the bot's latency
    # between the two; the answer deadline is checked on them).
    sent_at: float | None = None
    answered_at: float | None = None
    refused: int | None = None  # the status of the last initial response Discord refused (404: too late)
    answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)


class Reply:
    """The bot's answer to one interaction, read live from the fake (later edits show up here too)."""

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self.fake = fake
        self.record = record

    @property
    def callback_type(self) -> int | None:
        return self.record.callback_type

    @property
    def data(self) -> Json:
        """The callback's `data` exactly as the bot sent it."""
        return self.record.callback_data

    @property
    def choices(self) -> list[Json]:
        """An autocomplete's answer: the choices offered, as sent (`name`, `value`)."""
        return list(self.record.callback_data.get("choices") or [])

    @property
    def deferred(self) -> bool:
        return self.record.callback_type in (5, 6)

    @property
    def modal(self) -> Json | None:
        return self.record.callback_data if self.record.callback_type == 9 else None

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake.store[i] for i in self.record.followup_ids]

    @property
    def message(self) -> FakeMessage | None:
        """The message the answer created (response or follow-up) or, for an update, the one it edited."""
        rec = self.record
        if rec.callback_type in (4, 5) and rec.original_id is not None:
            return self.fake.store[rec.original_id]
        if rec.followup_ids:
            return self.fake.store[rec.followup_ids[0]]
        if rec.edited_ids:
            return self.fake.store[rec.edited_ids[-1]]
        return None

    @property
    def posted(self) -> list[FakeMessage]:
        """Other messages the bot created meanwhile: channel posts and DMs."""
        own = {self.record.original_id, *self.record.followup_ids}
        return [m for i, m in sorted(self.fake.store.items()) if i > self.record.posted_from and i not in own]

    @property
    def content(self) -> str:
        msg = self.message
        return msg.content if msg is not None else str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[Json]:
        msg = self.message
        return msg.embeds if msg is not None else list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[Json]:
        msg = self.message
        if msg is not None:
            return msg.components
        return list(walk_components(list(self.data.get("components") or [])))

    def component(self, *, label: str | None = None, custom_id: str | None = None) -> Json:
        return find_component(self.components, label=label, custom_id=custom_id, where="the reply")

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        if msg is not None:
            return msg.ephemeral
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    def text(self) -> str:
        msg = self.message
        return msg.text() if msg is not None else str(self.data.get("content") or "")

    def __repr__(self) -> str:
        return f"<Reply type={self.callback_type} ephemeral={self.ephemeral} content={self.content[:60]!r}>"


def _convert(option: Json, value: Any, resolved: Json, fake: FakeDiscord) -> Any:
    """One option value as Discord's client would send it, refusing what the client would refuse."""
    name, kind = option["name"], option["type"]
    if kind == STRING:
        if not isinstance(value, str):
            raise TypeError(f"option {name!r} is a string, got {value!r}")
        if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise ValueError(f"option {name!r}: length of {value!r} is outside Discord's limits")
    elif kind == INTEGER:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"option {name!r} is an integer, got {value!r}")
    elif kind == NUMBER:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise TypeError(f"option {name!r} is a number, got {value!r}")
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise TypeError(f"option {name!r} is a boolean, got {value!r}")
    elif kind in (USER, MENTIONABLE):
        if isinstance(value, str) and value in fake.users:  # by name (the control API sends names)
            value = fake.users[value]
        if not isinstance(value, FakeUser):
            raise TypeError(f"option {name!r} takes a FakeUser (harness.user(...)), got {value!r}")
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        member = value.member_payload()
        del member["user"]
        resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    elif kind == CHANNEL:
        channel = fake.channel(value) if isinstance(value, str) else value
        if not isinstance(channel, FakeChannel):
            raise TypeError(f"option {name!r} takes a channel name or FakeChannel, got {value!r}")
        data = channel.payload(owner_id=fake.bot_user.id) | {"permissions": str(BOT_PERMISSIONS)}
        resolved.setdefault("channels", {})[str(channel.id)] = data
        return str(channel.id)
    else:
        raise NotImplementedError(f"option {name!r}: the fake does not send option type {kind} yet")
    if kind in (INTEGER, NUMBER) and not (
        option.get("min_value", float("-inf")) <= value <= option.get("max_value", float("inf"))
    ):
        raise ValueError(
            f"option {name!r}: {value!r} is outside [{option.get('min_value')}, {option.get('max_value')}]"
        )
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        by_name = [c["value"] for c in choices if c["name"] == value]
        if not by_name:
            shown = [(c["name"], c["value"]) for c in choices]
            raise ValueError(f"option {name!r}: {value!r} is not one of the choices {shown}")
        value = by_name[0]
    return value


def build_command_data(
    fake: FakeDiscord,
    command: Json,
    path: list[str],
    given: dict[str, Any],
    guild_id: int | None,
    *,
    focused: str | None = None,
) -> Json:
    """`data` of a type-2 interaction: nested subcommand options typed from the synced command. With
    `focused`, of a type-4 (autocomplete) one: that option is being typed, its text sent as is and marked
    `focused`; it must have `autocomplete`, and required options may still be missing."""
    top: list[Json] = []
    current, node = top, command
    for token in path:
        subs = [o for o in node.get("options") or [] if o["type"] in (SUBCOMMAND, GROUP)]
        sub = next((o for o in subs if o["name"] == token), None)
        if sub is None:
            raise CommandHidden(
                f"/{command['name']} has no subcommand {token!r}; it has {[o['name'] for o in subs]}"
            )
        frame: Json = {"name": token, "type": sub["type"], "options": []}
        current.append(frame)
        current, node = frame["options"], sub
    params = list(node.get("options") or [])
    if any(o["type"] in (SUBCOMMAND, GROUP) for o in params):
        raise CommandHidden(f"incomplete command path {path!r}: choose one of {[o['name'] for o in params]}")
    unknown = set(given) - {o["name"] for o in params}
    if unknown:
        raise TypeError(f"unknown options {sorted(unknown)}; the command takes {[o['name'] for o in params]}")
    resolved: Json = {}
    if focused is not None:
        option = next((o for o in params if o["name"] == focused), None)
        if option is None or focused not in given:
            raise TypeError(
                f"the focused option {focused!r} must be one of the options given: {sorted(given)}"
            )
        if not option.get("autocomplete"):
            raise CommandHidden(f"option {focused!r} has no autocomplete: Discord would not ask the bot")
        if not isinstance(given[focused], str):
            raise TypeError(
                f"the focused option {focused!r} takes the text typed so far, got {given[focused]!r}"
            )
    for option in params:
        if focused is not None and option["name"] == focused:
            typed = {"name": focused, "type": option["type"], "value": given[focused], "focused": True}
            current.append(typed)
        elif option["name"] in given:
            value = _convert(option, given[option["name"]], resolved, fake)
            current.append({"name": option["name"], "type": option["type"], "value": value})
        elif option.get("required") and focused is None:
            raise TypeError(f"missing required option {option['name']!r}")
    data: Json = {"id": command["id"], "name": command["name"], "type": 1, "options": top}
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if resolved:
        data["resolved"] = resolved
    return data


def _modal_answer(
    components: list[Json], values: dict[str, Any], used: set[str], label: str | None = None
) -> list[Json]:
    answers: list[Json] = []
    for comp in components:
        kind = comp.get("type")
        if kind == 1:
            answers.append(
                {"type": 1, "components": _modal_answer(comp.get("components") or [], values, used)}
            )
        elif kind == 18:
            inner = _modal_answer([comp["component"]], values, used, comp.get("label"))
            answers.append({"type": 18, "id": comp.get("id", 0), "component": inner[0]})
        elif "custom_id" in comp:
            keys = [k for k in (comp["custom_id"], comp.get("label"), label) if k in values]
            answer: Json = {"type": kind, "id": comp.get("id", 0), "custom_id": comp["custom_id"]}
            if kind == TEXT_INPUT:
                if keys:
                    value = str(values[keys[0]])
                    used.add(keys[0])
                else:
                    value = str(comp.get("value") or "")
                    if comp.get("required", True) and not value:
                        raise ValueError(f"the modal field {comp['custom_id']!r} is required")
                if value and not comp.get("min_length", 0) <= len(value) <= comp.get("max_length", 4000):
                    raise ValueError(
                        f"modal field {comp['custom_id']!r}: length of {value!r} is outside limits"
                    )
                answer["value"] = value
            else:
                chosen = values[keys[0]] if keys else []
                if keys:
                    used.add(keys[0])
                answer["values"] = [str(v) for v in chosen]
            answers.append(answer)
        else:
            answers.append({"type": kind, "id": comp.get("id", 0)})
    return answers


class UserActions:
    """The user-facing half of FakeDiscord: send an interaction, wait for the bot's answer."""

    # Provided by FakeDiscord.
    snow: Any
    app_id: int
    guild_id: int
    store: dict[int, FakeMessage]
    interactions: dict[str, InteractionRecord]

    def _fake(self) -> FakeDiscord:
        return self  # type: ignore[return-value]

    def _base(self, kind: int, user: FakeUser, channel: FakeChannel) -> InteractionRecord:
        fake = self._fake()
        iid = self.snow.next()
        token = f"token-{iid}"
        payload: Json = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": fake.rules.attachment_size_limit,
            "locale": "it",
            "app_permissions": str(BOT_PERMISSIONS),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.guild_id or self.guild_id)},
        }
        if channel.is_dm:
            payload.update(context=1, channel=channel.payload(), user=user.payload())
        else:
            payload.update(
                guild_id=str(channel.guild_id),
                guild_locale="it",
                context=0,
                channel=channel.payload(owner_id=fake.bot_user.id) | {"permissions": str(user.permissions)},
                member=user.member_payload(),
            )
        record = InteractionRecord(
            iid, token, kind, user, channel, payload, posted_from=max(self.store, default=0)
        )
        self.interactions[token] = record
        return record

    def open_interaction(
        self, user: FakeUser, channel: str | FakeChannel | None = None, *, kind: int = 2
    ) -> InteractionRecord:
        """An interaction as if Discord had just sent it, without sending it: for tests that answer it
        themselves through raw HTTP (`/interactions/{id}/{token}/callback`, then `/webhooks/...`)."""
        fake = self._fake()
        record = self._base(kind, user, self._where(channel, user))
        record.sent_at = fake.clock()
        return record

    async def _send(self, record: InteractionRecord, what: str, settle: bool = True) -> Reply:
        """Send the interaction and wait for the bot's callback; then, unless `settle` is False, until
        the whole bot is quiet. Without settling, several users can be driven at once (the benchmark):
        the wait is on this interaction alone, so it costs nothing while other interactions run."""
        fake = self._fake()
        record.sent_at = await fake.dispatch("INTERACTION_CREATE", record.payload)
        failure = f"the bot to answer {what} (no interaction callback: did the handler fail or never match?)"
        if not settle:
            try:
                await asyncio.wait_for(record.answered.wait(), fake.timeout)
            except TimeoutError:
                fake.raise_failures()
                raise AssertionError(f"timed out after {fake.timeout:g} s waiting for {failure}") from None
            fake.raise_failures()
            return Reply(fake, record)
        await fake.wait_for(lambda: record.callback_type is not None, failure)
        await fake.settle()
        return Reply(fake, record)

    def _where(self, channel: str | FakeChannel | None, user: FakeUser) -> FakeChannel:
        fake = self._fake()
        if channel == "dm":
            return fake.dm_channel(user)
        if channel is None:
            return next(iter(fake.channels.values()))
        return fake.channel(channel) if isinstance(channel, str) else channel

    async def slash(
        self,
        user: FakeUser,
        command: str,
        *,
        channel: str | FakeChannel | None = None,
        options: dict[str, Any] | None = None,
        settle: bool = True,
        **kwargs: Any,
    ) -> Reply:
        """Run `/command` ("tavolo nuovo": group and subcommand by name) as `user` in `channel` (name,
        FakeChannel or "dm"; default the first text channel). Options come as keywords or `options=`.
        `settle=False`: return at the callback, without waiting for the whole bot to be quiet."""
        fake = self._fake()
        where = self._where(channel, user)
        name, *path = command.split()
        cmd, guild_id = self._visible_command(user, where, name)
        given = dict(options or {}) | kwargs
        data = build_command_data(fake, cmd, path, given, guild_id)
        record = self._base(2, user, where)
        record.payload["data"] = data
        return await self._send(record, f"/{command} by {user.name}", settle)

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        *,
        channel: str | FakeChannel | None = None,
        focused: str | None = None,
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Reply:
        """`user` types in an option of `/command` that has an autocomplete: the bot gets an interaction
        of type 4 with the options so far, the `focused` one (default: the last given) holding the text
        typed. Returns once the bot answered (`reply.choices`) or Discord refused its answer
        (`reply.record.refused`, e.g. 404 past the deadline) and the bot is quiet. The fake checks the
        answer as Discord does: callback type 8, at most 25 choices, names and values 1-100 characters."""
        fake = self._fake()
        where = self._where(channel, user)
        name, *path = command.split()
        cmd, guild_id = self._visible_command(user, where, name)
        given = dict(options or {}) | kwargs
        if not given:
            raise TypeError("an autocomplete is for an option being typed: give it (e.g. nome='')")
        data = build_command_data(fake, cmd, path, given, guild_id, focused=focused or list(given)[-1])
        record = self._base(4, user, where)
        record.payload["data"] = data
        what = f"the autocomplete of /{command} for {user.name}"
        record.sent_at = await fake.dispatch("INTERACTION_CREATE", record.payload)
        await fake.wait_for(
            lambda: record.callback_type is not None or record.refused is not None,
            f"{what} (no callback: did the autocomplete fail?)",
        )
        await fake.settle()
        return Reply(fake, record)

    def _visible_command(self, user: FakeUser, where: FakeChannel, name: str) -> tuple[Json, int | None]:
        """The synced command `/name` as `user` sees it in `where`, and its guild id (None: global)."""
        fake = self._fake()
        guild_cmd = fake.guild_commands.get(where.guild_id or self.guild_id, {}).get(name)
        global_cmd = fake.global_commands.get(name)
        cmd = global_cmd if where.is_dm or guild_cmd is None else guild_cmd
        if cmd is None and guild_cmd is not None:
            raise CommandHidden(f"/{name} is a guild command: not available in DMs")
        if cmd is None:
            raise CommandHidden(f"/{name} is not synced (here: {[c['name'] for c in fake.synced_commands]})")
        if where.is_dm and 1 not in (cmd.get("contexts") or [0, 1, 2]):
            raise CommandHidden(f"/{name} is not available in DMs")
        needed = int(cmd.get("default_member_permissions") or 0)
        if not where.is_dm and needed & ~user.permissions:
            raise CommandHidden(f"Discord does not show /{name} to {user.name} (needs permissions {needed})")
        return cmd, where.guild_id if cmd is guild_cmd and not where.is_dm else None

    def _message_of(self, target: FakeMessage | Reply) -> FakeMessage:
        msg = target.message if isinstance(target, Reply) else target
        if msg is None:
            raise AssertionError(f"{target!r} has no message to interact with")
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted; nobody can click it")
        return msg

    def _component_interaction(self, user: FakeUser, msg: FakeMessage, data: Json) -> InteractionRecord:
        fake = self._fake()
        if msg.ephemeral_for is not None and msg.ephemeral_for != user.id:
            raise AssertionError(f"message {msg.id} is ephemeral for someone else; {user.name} cannot see it")
        channel = fake._channel_by_id(msg.channel_id)
        assert channel is not None
        record = self._base(3, user, channel)
        record.source_message_id = msg.id
        record.payload["message"] = copy.deepcopy(msg.payload)
        record.payload["data"] = data
        return record

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | Reply,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        settle: bool = True,
    ) -> Reply:
        """Press the button found by label (or custom_id) on the message as it is now."""
        msg = self._message_of(message)
        button = msg.component(label=label, custom_id=custom_id)
        if button.get("type") != BUTTON or "custom_id" not in button:
            raise AssertionError(f"{button} is not a button that sends an interaction")
        if button.get("disabled"):
            raise AssertionError(
                f"the button {button.get('label')!r} is disabled; Discord would not send a click"
            )
        record = self._component_interaction(
            user, msg, {"custom_id": button["custom_id"], "component_type": BUTTON}
        )
        return await self._send(
            record, f"{user.name} pressing {button.get('label') or button['custom_id']!r}", settle
        )

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | Reply,
        custom_id: str,
        values: list[Any],
        *,
        settle: bool = True,
    ) -> Reply:
        """Choose `values` in the select menu `custom_id` (option values; FakeUsers for a user select)."""
        msg = self._message_of(message)
        menu = msg.component(custom_id=custom_id)
        kind = menu.get("type")
        if kind not in SELECT_TYPES or menu.get("disabled"):
            raise AssertionError(f"{menu} is not an enabled select menu")
        if not menu.get("min_values", 1) <= len(values) <= menu.get("max_values", 1):
            raise ValueError(
                f"select {custom_id!r} takes {menu.get('min_values', 1)}..{menu.get('max_values', 1)} values"
            )
        data: Json = {"custom_id": custom_id, "component_type": kind}
        if kind == 3:
            allowed = [o["value"] for o in menu.get("options") or []]
            if any(v not in allowed for v in values):
                raise ValueError(f"select {custom_id!r}: {values} not all among {allowed}")
            data["values"] = list(values)
        else:
            resolved: Json = {}
            fake = self._fake()
            option = {"name": custom_id, "type": USER if kind == 5 else CHANNEL}
            data["values"] = [_convert(option, v, resolved, fake) for v in values]
            data["resolved"] = resolved
        record = self._component_interaction(user, msg, data)
        return await self._send(record, f"{user.name} choosing {values} in {custom_id!r}", settle)

    async def submit_modal(
        self, user: FakeUser, reply: Reply, values: dict[str, Any], *, settle: bool = True
    ) -> Reply:
        """Fill and submit the modal `reply` opened; fields by custom_id or label."""
        modal = reply.modal
        if modal is None:
            raise AssertionError(f"{reply!r} did not open a modal")
        if user.id != reply.record.user.id:
            raise AssertionError(f"the modal was shown to {reply.record.user.name}, not {user.name}")
        used: set[str] = set()
        components = _modal_answer(list(modal.get("components") or []), values, used)
        unknown = set(values) - used
        if unknown:
            raise TypeError(f"the modal {modal.get('custom_id')!r} has no fields {sorted(unknown)}")
        source = reply.record
        record = self._base(5, user, source.channel)
        record.payload["data"] = {"custom_id": modal["custom_id"], "components": components}
        if source.source_message_id is not None:
            msg = self.store[source.source_message_id]
            record.source_message_id = msg.id
            record.payload["message"] = copy.deepcopy(msg.payload)
        return await self._send(record, f"{user.name} submitting the modal {modal.get('title')!r}", settle)
