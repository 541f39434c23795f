"""The game's components: Discord's JSON built directly, and custom ids read back by their kind."""

from __future__ import annotations

from bot import views
from engine.cards import hand_order, parse_cards
from tests.engine.table_helpers import make_table

BUTTON, MENU, MODAL = 2, 3, 5  # Discord's component type of a button, a string select; modal submit


def test_a_button_id_is_read_only_from_a_button_and_a_menu_id_only_from_a_menu() -> None:
    button = views.custom_id(7, 3, "a:passo", 4)
    menu = views.custom_id(7, 3, "scarta", 0)
    modal = views.custom_id(7, 3, "m:apro", 12)
    assert (button, menu, modal) == ("tv:7:3.4:a:passo", "tv:7:3.0:scarta", "tv:7:3.12:m:apro")
    clicked = views.parse_component(3, {"custom_id": button, "component_type": BUTTON})
    assert clicked == views.Target(7, 3, "a:passo", 4)
    chosen = views.parse_component(3, {"custom_id": menu, "component_type": MENU})
    assert chosen == views.Target(7, 3, "scarta", 0)
    assert views.parse_component(MODAL, {"custom_id": modal}) == views.Target(7, 3, "m:apro", 12)
    cards = views.parse_component(3, {"custom_id": "tv:7:3:carte", "component_type": BUTTON})
    assert cards == views.Target(7, 3, "carte") and cards.turn is None and not cards.says_a_word
    # The same ids from the wrong kind of component, or no kind at all: nothing to act on.
    assert views.parse_component(3, {"custom_id": button, "component_type": MENU}) is None
    assert views.parse_component(3, {"custom_id": menu, "component_type": BUTTON}) is None
    assert views.parse_component(3, {"custom_id": modal, "component_type": BUTTON}) is None
    assert views.parse_component(MODAL, {"custom_id": button}) is None
    assert views.parse_component(3, {"custom_id": button}) is None


def test_the_table_buttons_are_the_legal_words_then_the_cards_each_bound_to_table_and_hand() -> None:
    table = make_table("italiana", players=2)
    table.start_hand()
    hand = table.hand_number
    components = views.table_view(table.public_view(), table.legal_actions(), table_id=9, turn=2)
    assert components.is_finished() and not components.has_components_v2()
    words, others = components.to_components()
    assert words["type"] == others["type"] == 1
    expected = [f"tv:9:{hand}.2:a:{legal.kind.value}" for legal in table.legal_actions()]
    assert [c["custom_id"] for c in words["components"]] == expected
    cards = [(c["label"], c["custom_id"]) for c in others["components"]]
    assert cards == [("Le mie carte", f"tv:9:{hand}:carte")]
    assert components.children == words["components"] + others["components"]


def test_between_hands_the_only_button_deals_the_next_hand_unless_a_tournament_deals() -> None:
    table = make_table("italiana", players=2)
    (row,) = views.table_view(table.public_view(), (), table_id=4, turn=0).to_components()
    assert [(c["label"], c["custom_id"]) for c in row["components"]] == [("Prossima mano", "tv:4:0:inizia")]
    assert views.table_view(table.public_view(), (), table_id=4, turn=0, can_deal=False).to_components() == []


def test_the_draw_menu_offers_the_players_own_cards_in_hand_order() -> None:
    cards = parse_cards("7h Ah 9c 7c Kd")
    (row,) = views.discard_view(cards, 4, table_id=2, hand=5, turn=3).to_components()
    (menu,) = row["components"]
    assert menu["type"] == MENU and menu["custom_id"] == "tv:2:5.3:scarta"
    assert (menu["min_values"], menu["max_values"]) == (1, 4)
    assert [o["value"] for o in menu["options"]] == [str(c.code) for c in hand_order(cards)]
