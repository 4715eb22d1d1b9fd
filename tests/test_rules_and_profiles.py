"""Rule settings, game profiles and strict YAML."""

from __future__ import annotations

from fractions import Fraction

import pytest

from machine import yamlio
from machine.games.blackjack.rules import Rules
from machine.games.rules import RulesError
from machine.profiles import load_profile


def test_the_random_blackjack_profile_holds_the_spec_settings():
    r = load_profile("random-blackjack").rules
    assert r == Rules()  # the dataclass defaults are Random Blackjack's
    assert (r.decks, r.hole_card, r.dealer_hits_soft_17, r.blackjack_pays) == (6, False, False, Fraction(3, 2))
    assert r.double_hard == {9, 10, 11} and r.double_soft == {19, 20, 21}
    assert (r.max_splits_and_doubles, r.max_hands, r.resplit_aces, r.three_sevens_bonus) == (3, 4, True, 1)
    assert (r.min_bet, r.max_bet, r.bet_step) == (2, 500, 2)


def test_the_casino_profile_is_data_on_the_same_engine():
    p = load_profile("casino-blackjack")
    assert p.engine == "blackjack"
    assert p.rules.hole_card and p.rules.double_hard is None and p.rules.max_hands == 2
    assert not p.rules.double_makes_aces_hard and p.rules.three_sevens_bonus == 0


def test_overrides_apply_on_top_of_the_profile():
    r = load_profile("random-blackjack", {"decks": 2, "blackjack_pays": "6:5", "double_hard": "any"}).rules
    assert (r.decks, r.blackjack_pays, r.double_hard) == (2, Fraction(6, 5), None)


def test_every_bad_setting_is_reported_at_once():
    with pytest.raises(RulesError) as err:
        Rules.from_dict({"decks": "six", "surrender": "sometimes", "max_hands": 0, "colour": "red"})
    probs = err.value.problems
    assert len(probs) == 4
    assert "decks: must be a whole number, not 'six'" in probs
    assert "surrender: must be one of none, late, early, not 'sometimes'" in probs
    assert "max_hands: must be 1 to 16, not 0" in probs
    assert any(p.startswith("colour: unknown setting") for p in probs)


def test_rules_round_trip_through_plain_data():
    r = Rules(blackjack_pays=Fraction(6, 5), insurance_pays=Fraction(1, 3), double_hard=None, max_splits_and_doubles=None)
    assert Rules.from_dict(r.to_dict()) == r


def test_yaml_refuses_yes_no_as_booleans_and_duplicate_keys():
    assert yamlio.loads("a: no\nb: true\nc: 012") == {"a": "no", "b": True, "c": "012"}
    with pytest.raises(yamlio.YamlError, match=r"^f.yaml:3: duplicate key 'a' \(first on line 1\)"):
        yamlio.loads("a: 1\nb: 2\na: 3\n", "f.yaml")


def test_a_profile_file_with_a_bad_setting_is_named(tmp_path, monkeypatch):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "house.yaml").write_text("game: house\nrules:\n  decks: 12\n")
    monkeypatch.setenv("CABINET_CONFIG", str(tmp_path))
    with pytest.raises(RulesError, match=r"house.yaml: rules: decks: must be 0 to 8, not 12"):
        load_profile("house")
