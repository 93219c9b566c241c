"""A documented limit on one field of a message or a request body, carried by the model that reads the field
and refused with the limit's own code.

A plain pydantic constraint (``max_length``) is refused as any malformed field is: ``invalid_message`` on a
socket, ``invalid_request`` over HTTP. A client one character over a limit could not tell that from a broken
message, and a socket counted it towards slowing its reads. A field declared ``Annotated[str, AtMost(...)]``
is refused with the code of its limit (``comment_too_long``, ``bad_info``, ``tree_too_deep``...), from the
same number and with the same code as the service that checks the limit again where it takes effect (the tree
of variations, for one). :func:`refusal` reads that code back from a validation error's list, for the socket
parser (``app/protocol.py``) and the API's error handler (``app/api/errors.py``) alike.

Lengths are Python's: characters (code points) of a text, whatever their script or their size in UTF-8;
items of a list; entries of a dict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Sized

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, ErrorDetails, PydanticCustomError, core_schema

_MARK = "limit"  # in the error's context: the error is a limit's refusal, its type the limit's code
_SCHEMA_KEYS = {
    "string": ("minLength", "maxLength"),
    "array": ("minItems", "maxItems"),
    "object": ("minProperties", "maxProperties"),
}


@dataclass(frozen=True)
class AtMost:
    """At most ``limit`` (and at least ``at_least``) characters, items or entries; otherwise refused with
    ``code`` and ``message`` (which says the limit)."""

    limit: int
    code: str
    message: str
    at_least: int = 0

    def check(self, value: Sized) -> Any:
        if not self.at_least <= len(value) <= self.limit:
            # The message is used as it is: braces in it are not a template.
            raise PydanticCustomError(self.code, "{text}", {"text": self.message, _MARK: self.code})
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        json_schema = handler.resolve_ref_schema(handler(schema))
        keys = _SCHEMA_KEYS.get(json_schema.get("type", ""))
        if keys is not None:
            if self.at_least:
                json_schema[keys[0]] = self.at_least
            json_schema[keys[1]] = self.limit
        return json_schema


def refusal(errors: Sequence[ErrorDetails]) -> ErrorDetails | None:
    """The first error when every error is a limit's refusal (its ``type`` is the limit's code, its ``msg`` says
    the limit); None when anything else is wrong too: a message malformed besides is malformed
    (``invalid_message``, ``invalid_request``)."""
    if not errors or not all(_MARK in (error.get("ctx") or {}) for error in errors):
        return None
    return errors[0]
