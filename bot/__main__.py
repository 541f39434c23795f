"""``python -m bot``: load ``.env`` and start the bot."""

from __future__ import annotations

import os
import sys

from dotenv import load_dotenv

NO_TOKEN = (
    "Manca DISCORD_TOKEN. Crea un'applicazione su https://discord.com/developers/applications, "
    "apri la scheda «Bot», premi «Reset Token», copia il token e scrivilo nel file .env "
    "nella cartella del progetto come DISCORD_TOKEN=il-tuo-token (vedi .env.example)."
)


def main() -> int:
    load_dotenv()
    if not os.environ.get("DISCORD_TOKEN", "").strip():
        print(NO_TOKEN, file=sys.stderr)
        return 2
    print("Il bot non è ancora pronto.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
