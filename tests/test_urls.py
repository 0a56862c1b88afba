"""The page's own percent-encoding and HTML escaping agree with the standard library's (which the page does not
import at start, to save its import time in WebAssembly)."""

from __future__ import annotations

import html
import urllib.parse

from cardtable_web import urls
from cardtable_web.html import esc
from hypothesis import given, settings
from hypothesis import strategies as st

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
QUERYISH = st.text(st.sampled_from("ab=&+%2E4fFzé €;#?/ \"{}"), max_size=40)
SAFE = ".,:{}[]\""


@settings(max_examples=400, deadline=None)
@given(TEXT, st.sampled_from(["", "/", SAFE]))
def test_quote_is_the_standard_quote(text: str, safe: str) -> None:
    assert urls.quote(text, safe) == urllib.parse.quote(text, safe=safe)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), max_size=5))
def test_urlencode_is_the_standard_urlencode(fields: list[tuple[str, str]]) -> None:
    assert urls.urlencode(fields, SAFE) == urllib.parse.urlencode(fields, quote_via=urllib.parse.quote, safe=SAFE)


@settings(max_examples=600, deadline=None)
@given(st.one_of(QUERYISH, TEXT))
def test_parse_qsl_is_the_standard_parse_qsl(query: str) -> None:
    assert urls.parse_qsl(query) == urllib.parse.parse_qsl(query, keep_blank_values=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), max_size=5))
def test_what_is_encoded_reads_back(fields: list[tuple[str, str]]) -> None:
    assert urls.parse_qsl(urls.urlencode(fields, SAFE)) == fields


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_esc_is_the_standard_escape(text: str) -> None:
    assert esc(text) == html.escape(text, quote=True)
