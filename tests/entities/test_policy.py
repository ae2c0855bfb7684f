import pytest

from emprivacy.entities.policy import (
    DEFAULT_POLICIES,
    EntityPolicy,
    allowed_policies,
    parse_entity_policies,
    placeholder,
    warn_entities_kept,
)
from emprivacy.exceptions import PrivacyLeakWarning


def test_defaults_privatise_names_and_places_and_hide_the_rest():
    p = EntityPolicy()
    assert p.epsilon == 1.0
    assert p.policy("PERSON") == p.policy("LOCATION") == "privatise"
    assert p.policy("ORG") == p.policy("PHONE") == p.policy("DATE") == "placeholder"
    assert p.policy("SOMETHING_ELSE") == "placeholder"
    assert p.kept == () and p.privatised == ("PERSON", "LOCATION")
    assert set(DEFAULT_POLICIES) <= set(p.policies)


def test_overrides_and_description():
    p = EntityPolicy(epsilon=0.5, policies={"PERSON": "placeholder", "ORG": "keep"})
    assert p.policy("PERSON") == "placeholder" and p.kept == ("ORG",)
    assert "PERSON=placeholder" in p.describe() and "ORG=keep" in p.describe()
    # capitalised words still privatise within the person list
    assert p.privatised == ("PERSON", "LOCATION")
    q = EntityPolicy(policies={"PERSON": "placeholder", "LOCATION": "keep",
                               "PROPER_NOUN": "placeholder"})
    assert q.privatised == ()


@pytest.mark.parametrize("epsilon", [0, -1.0, float("nan")])
def test_bad_entity_epsilon(epsilon):
    with pytest.raises(ValueError, match="epsilon must be a finite number > 0"):
        EntityPolicy(epsilon=epsilon)


def test_policies_must_be_a_mapping():
    with pytest.raises(TypeError, match="policies must be a mapping"):
        EntityPolicy(policies=["PERSON=keep"])


def test_parse():
    assert parse_entity_policies([" person = Placeholder ", "ORG=keep"]) == {
        "PERSON": "placeholder", "ORG": "keep"}


@pytest.mark.parametrize("pair, message", [
    ("PERSON", "TYPE=POLICY"),
    ("=keep", "TYPE=POLICY"),
    ("ANIMAL=keep", "entity type must be one of"),
    ("PERSON=hide", "entity policy of PERSON must be one of 'privatise', 'placeholder', "
                    "'keep'; got 'hide'"),
    ("ORG=privatise", "no public sub-vocabulary"),
    ("IBAN=keep", "always a placeholder"),
])
def test_parse_errors(pair, message):
    with pytest.raises(ValueError, match=message):
        parse_entity_policies([pair])


def test_parse_refuses_repeats_and_a_lone_string():
    with pytest.raises(ValueError, match="given twice"):
        parse_entity_policies(["ORG=keep", "org=placeholder"])
    with pytest.raises(TypeError, match="single str"):
        parse_entity_policies("ORG=keep")


def test_allowed_and_placeholders():
    assert allowed_policies("PROPER_NOUN") == ("privatise", "placeholder", "keep")
    assert placeholder("PHONE") == "[PHONE]" and placeholder("PROPER_NOUN") == "[NAME]"


def test_keep_warns_with_types_only():
    with pytest.warns(PrivacyLeakWarning, match="type LOCATION, ORG are released as written"):
        warn_entities_kept(["ORG", "LOCATION"])
