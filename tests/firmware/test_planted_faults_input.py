"""Files and input against faults once planted and passed by every other test: a link
where a file is replaced, an input file over 1 MiB, lists nested too deeply, a huge
negative integer, true/false in a numeric option."""

from __future__ import annotations

import json

import pytest

from firmware.config import check_config
from firmware.config_schema import schema, with_value
from firmware.input_file import MAX_BYTES, InputFileError, read_input_bytes
from firmware.safe_files import UnsafeFile, replace_file
from uno_core.documents import MAX_DEPTH, DocumentError, load_document


def test_replace_file_refuses_a_link_and_leaves_it_and_its_target_alone(tmp_path):
    target = tmp_path / "elsewhere.json"
    target.write_text("theirs")
    link = tmp_path / "seats.json"
    link.symlink_to(target)
    with pytest.raises(UnsafeFile, match="symbolic link"):
        replace_file(link, b"ours")
    assert link.is_symlink() and target.read_text() == "theirs"
    assert not (tmp_path / "seats.json.tmp").exists()


def test_an_input_file_one_byte_over_1_mib_is_refused_not_cut(tmp_path):
    path = tmp_path / "scenario.toml"
    path.write_bytes(b"#" * MAX_BYTES)
    assert len(read_input_bytes(path)) == MAX_BYTES  # exactly 1 MiB is read whole
    path.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(InputFileError, match="larger than 1024 KiB"):
        read_input_bytes(path)


@pytest.mark.parametrize("fmt, text", [
    ("json", '{"a": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}"),
    ("toml", "a = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)),
], ids=["json", "toml"])
def test_lists_inside_lists_count_toward_the_nesting_limit(fmt, text):
    with pytest.raises(DocumentError, match="nested too deeply") as refused:
        load_document(text, fmt)
    assert refused.value.syntax
    load_document(text.replace("[", "", 2).replace("]", "", 2), fmt)  # at the limit


@pytest.mark.parametrize("value", [-(1 << 64), -(10 ** 40), 1 << 64])
def test_a_huge_integer_is_refused_whatever_its_sign(value):
    with pytest.raises(DocumentError, match="too large for any field") as refused:
        load_document(json.dumps({"table": {"seed": value}}), "json")
    assert refused.value.where == "table.seed"
    assert load_document(json.dumps({"seed": -(1 << 63)}), "json") == {"seed": -(1 << 63)}


@pytest.fixture(scope="module")
def every_option(tmp_path_factory):
    return schema(tmp_path_factory.mktemp("schema"))


@pytest.mark.parametrize("literal", ["true", "false"])
def test_true_and_false_are_not_numbers_in_any_numeric_option(every_option, tmp_path,
                                                                literal):
    path = tmp_path / "config.toml"
    taken = []
    for text, option in every_option:
        path.write_text(with_value(text, option.key, literal))
        if not [e for e in check_config(path) if e.key == option.key]:
            taken.append(option.key)
    assert taken == []
