"""schemathesis hooks for script/fuzz (loaded through SCHEMATHESIS_HOOKS).

openapi.yaml describes `GET /openapi.yaml` as YAML *text*: `application/yaml` with
`type: string`, the document as the bytes it is. schemathesis parses every YAML media type
into data before validating it, and the parsed document is an object, not a string. This
registers, for the YAML media types, a deserializer that keeps the text, so the response is
checked against what the description says it is.

Long polls (`GET /v1/changes?wait=`) are capped at a second, so the run spends its time on
requests rather than on waits; the request timeout still covers a full minute's wait.

The run's own session must survive (its token authenticates every request): sign-out is
excluded, but `DELETE /v1/sessions/{id}` is fuzzed, and the stateful phase can carry the id
`GET /v1/sessions` lists into it. So a request about to revoke the run's own session
(`LUCID_FUZZ_SESSION_ID`, as sent or percent-encoded, in any case) is sent for a random id
instead: it still exercises the route (a `404`), and the spare session the script opened
gives the run a real one to revoke (a `204`).

Nor may the run delete its own account (`DELETE /v1/me` with the account's password,
`LUCID_FUZZ_PASSWORD`): schemathesis cannot guess a random 32-character password, but a
request that carries it anyway (say, from an example or a future link) is sent with another
password, which still exercises the route (a `403`).

It also shields the run from a CPython 3.11 bug: hypothesis describes each filtered
strategy by parsing the source of its lambda with `ast.parse`, which on 3.11 can raise
`SystemError: AST constructor recursion depth mismatch` depending on how deep the stack
is at that moment. The description is only a name for reports, so a failure to make it
falls back to a plain one instead of ending the test case as a runtime error.
"""

import os
import urllib.parse
import uuid

import schemathesis
from hypothesis.internal import lambda_sources
from schemathesis.core.media_types import YAML_MEDIA_TYPES

_describe_lambda = lambda_sources.lambda_description


def _lambda_description_or_plain(f):
    try:
        return _describe_lambda(f)
    except SystemError:
        return "lambda"


lambda_sources.lambda_description = _lambda_description_or_plain


@schemathesis.deserializer(*YAML_MEDIA_TYPES)
def yaml_as_text(_context, response):
    return response.content.decode(response.encoding or "utf-8")


@schemathesis.hook
def map_query(_context, query):
    if isinstance(query, dict) and isinstance(query.get("wait"), int) and query["wait"] > 1:
        query["wait"] = 1
    return query


_own_session = os.environ.get("LUCID_FUZZ_SESSION_ID", "").lower()
_own_password = os.environ.get("LUCID_FUZZ_PASSWORD", "")


@schemathesis.hook
def before_call(context, case, **kwargs):
    label = case.operation.label
    if label == "DELETE /v1/sessions/{id}" and _own_session:
        parameters = case.path_parameters or {}
        value = parameters.get("id")
        if isinstance(value, str) and urllib.parse.unquote(value).lower() == _own_session:
            parameters["id"] = str(uuid.uuid4())
            case.path_parameters = parameters
    elif label == "DELETE /v1/me" and _own_password:
        body = case.body
        if isinstance(body, dict) and body.get("password") == _own_password:
            case.body = dict(body, password="not " + body["password"])
