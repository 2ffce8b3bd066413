"""camelCase identifiers on the full-text side (vaultmem/identifiers.py)."""

from __future__ import annotations

import time

from vaultmem.identifiers import camel_words, identifier_parts, with_identifier_words


def test_an_identifier_of_code_is_followed_by_its_words() -> None:
    assert with_identifier_words("affinity:\n  enablePodAntiAffinity: true") == (
        "affinity:\n  enablePodAntiAffinity enable Pod Anti Affinity: true")
    assert with_identifier_words("'class' : 'NetworkTopologyStrategy',") == (
        "'class' : 'NetworkTopologyStrategy Network Topology Strategy',")
    assert identifier_parts("serverAltDNSNames") == ["server", "Alt", "DNS", "Names"]
    assert identifier_parts("XMLHttpRequest") == ["XML", "Http", "Request"]
    assert with_identifier_words("spec.nodeAffinityRules=<x>") == "spec.nodeAffinityRules node Affinity Rules=<x>"
    # Its words once per text: repeated in a manifest, the identifier does not count them again each time.
    assert with_identifier_words("- NetworkTopologyStrategy\n- NetworkTopologyStrategy") == (
        "- NetworkTopologyStrategy Network Topology Strategy\n- NetworkTopologyStrategy")


def test_a_name_of_two_capitalised_words_and_other_words_stay_whole() -> None:
    # Split, JavaScript would answer "java", GitHub "git" and PostgreSQL "sql".
    for text in ("JavaScript", "GitHub", "PostgreSQL", "DaemonSet", "iPhone", "devDependencies", "macOS", "ECONNREFUSED",
                 "wal_segment_size", "my_fieldName", "cnpg-controllerManager", "plain prose here"):
        assert with_identifier_words(text) == text, text
    assert camel_words("DaemonSet") == ["Daemon", "Set"]  # a query word typed so still asks for its words
    assert camel_words("ECONNREFUSED") is None


def test_a_pasted_blob_of_letters_is_read_in_linear_time() -> None:
    started = time.thread_time()
    for blob in ("aB" * 50_000 + "_", "A" * 100_000 + "_", "Ab" * 50_000 + "-", "a" + "B" * 100_000 + "c_"):
        with_identifier_words(blob)
    assert time.thread_time() - started < 1.0

