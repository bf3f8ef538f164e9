"""verify: `fairdeck fair verify --format json` of a transcript as a dict,
and its refusals in keyword words."""

import json
import pathlib
import re
import subprocess

import pytest

import fairdeck

REPO = pathlib.Path(__file__).resolve().parents[3]


def version_2():
    """The spec's version-2 "hold'em, 2 seats" transcript, as text."""
    doc = (REPO / "docs" / "fair-dealing.md").read_text()
    block = next(b for b in doc.split("```json\n") if b.startswith('{"vector": "hold\'em, 2 seats"'))
    return json.dumps(json.loads(block.split("```")[0])["transcript"])


def test_a_version_2_verdict_is_the_clis(fairdeck_bin, tmp_path):
    text = version_2()
    commitment = json.loads(text)["commitment"]
    lock = fairdeck.verify(text)["lock"]
    got = fairdeck.verify(text, commitment=commitment, lock=lock, seat="ann", seed="a", played="0")
    assert got["verdict"] == "valid" and got["differences"] == []
    path = tmp_path / "t.json"
    path.write_text(text)
    args = ["fair", "verify", path, "--commitment", commitment, "--lock", lock]
    args += ["--seat", "ann", "--seed", "a", "--played", "0", "--format", "json"]
    done = subprocess.run([fairdeck_bin, *map(str, args)], capture_output=True, text=True, check=True)
    assert got == json.loads(done.stdout)


def test_advice_names_keywords_not_flags():
    got = fairdeck.verify(version_2())
    assert got["verdict"] == "self-consistent-only"
    assert "give it with commitment=" in got["message"]
    assert "--" not in json.dumps(got)


def test_a_tampered_transcript_is_invalid_not_an_error():
    doc = json.loads(version_2())
    doc["deals"][0]["piles"][0]["cards"] = ["AS", "AH"]
    got = fairdeck.verify(json.dumps(doc))
    assert got["verdict"] == "invalid" and got["differences"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"key": "{}"}, "key= reads a seat's own cards of a version 3 (hidden hands) transcript"),
        ({"commitment": "zz"}, "commitment=: "),
        ({"played": "3-1"}, 'played= "3-1": at most'),
        ({"seat": "ann"}, "seat= needs seed="),
        ({"seat_keys": ["x"]}, "seat_keys=: expected SEAT=FINGERPRINT"),
    ],
)
def test_refusals_name_the_keyword(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        fairdeck.verify(version_2(), **kwargs)


def test_text_that_is_no_transcript_is_refused():
    with pytest.raises(ValueError, match="verify takes the JSON transcript") as e:
        fairdeck.verify("plain text")
    assert "--" not in str(e.value)
