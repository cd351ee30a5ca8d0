"""The API's JSON bodies, bounded by the number of keys before they are parsed.

A body may be up to ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MB): room for 200,000 short keys, each an unknown field
the schema then names in its refusal, 3.5 s of CPU for one request. A form is held to
``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields (Django's own bound, 1,000); a JSON body is held to as many keys, counted
over its bytes before it is parsed (``more_keys_than``: it stops at the first key past the bound), so that such a
body is a quick 400.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.parser import Parser

#: where a key's ':' or a string may start
_COLON_OR_QUOTE = re.compile(rb'[":]')
#: the rest of a JSON string after its opening quote, escapes included (possessive: never read twice)
_REST_OF_STRING = re.compile(rb'(?:[^"\\]++|\\.)*+"', re.DOTALL)
_COLON = ord(":")


class TooManyKeys(ValueError):
    """A JSON body with more keys than the API reads; the message says how many it may hold."""


def more_keys_than(body: bytes, limit: int) -> bool:
    """Whether the JSON text ``body`` holds more than ``limit`` keys (a ':' outside strings each; for text that is
    not JSON an answer the parser's own refusal makes moot). Linear, each byte read at most twice: every ':' of
    the body counted at once (a body with no more is done), else its strings skipped and its other colons
    counted in order until ``limit`` + 1 keys are seen (an unterminated string ends the count: not JSON)."""
    if body.count(b":") <= limit:
        return False  # ':' in strings are the only others
    keys, at = 0, 0
    while (found := _COLON_OR_QUOTE.search(body, at)) is not None:
        if body[found.start()] == _COLON:
            keys += 1
            if keys > limit:
                return True
            at = found.end()
        else:
            rest = _REST_OF_STRING.match(body, found.end())
            if rest is None:
                return False
            at = rest.end()
    return False


class BoundedParser(Parser):
    """ninja's JSON parser (``json.loads``), refusing a body of more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` keys
    before parsing it. ninja turns the refusal into a 400, which the API's errors answer with this message."""

    def parse_body(self, request: HttpRequest) -> Any:
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        if limit is not None and more_keys_than(request.body, limit):
            raise TooManyKeys(
                f"the JSON body holds more than {limit:,} keys, the most the API reads: no request needs that many"
            )
        return super().parse_body(request)
