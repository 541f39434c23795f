"""One multipart body for a message with files: the parts discord.py prepared, read back intact."""

from __future__ import annotations

import email.parser
import email.policy
import io
import json

import discord
from discord.http import handle_message_parameters

from bot import multipart

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8  # any bytes, CR LF and boundary-like runs included


def read_back(body: bytes, content_type: str) -> list[tuple[str, str | None, str | None, bytes]]:
    """(name, filename, content type, bytes) of each part, as a standard MIME parser reads them."""
    parsed = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    assert parsed.is_multipart()
    return [
        (
            str(part.get_param("name", header="content-disposition")),
            part.get_filename(),
            part.get_content_type() if part.get("content-type") else None,
            part.get_payload(decode=True),
        )
        for part in parsed.iter_parts()
    ]


def test_a_dm_with_its_picture_is_the_payload_then_the_file() -> None:
    file = discord.File(io.BytesIO(PNG), filename="carte.png")
    with handle_message_parameters(content="Le tue carte: 7♥ 8♥", files=[file]) as params:
        assert params.multipart is not None
        payload = multipart.encode(params.multipart)
    assert payload is not None and payload.content_type.startswith("multipart/form-data; boundary=")
    parts = read_back(payload._value, payload.headers["Content-Type"])
    assert [(p[0], p[1]) for p in parts] == [("payload_json", None), ("files[0]", "carte.png")]
    message = json.loads(parts[0][3])
    assert message["content"] == "Le tue carte: 7♥ 8♥"
    assert message["attachments"] == [{"id": 0, "filename": "carte.png"}]
    assert parts[1][3] == PNG, "the picture arrives byte for byte"


def test_parts_it_cannot_write_safely_are_left_to_discord_py() -> None:
    assert multipart.encode([{"name": 'files"[0]', "value": "x"}]) is None
    assert multipart.encode([{"name": "files[0]", "value": io.BufferedReader(io.BytesIO(PNG))}]) is None
    unsafe = {"name": "files[0]", "value": io.BytesIO(PNG), "filename": 'a"; name="x.png'}
    assert multipart.encode([unsafe]) is None
