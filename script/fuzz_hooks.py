"""schemathesis hooks for script/fuzz (loaded through SCHEMATHESIS_HOOKS).

openapi.yaml describes `GET /openapi.yaml` as YAML *text*: `application/yaml` with
`type: string`, the document as the bytes it is. schemathesis parses every YAML media type
into data before validating it, and the parsed document is an object, not a string. This
registers, for the YAML media types, a deserializer that keeps the text, so the response is
checked against what the description says it is.
"""

import schemathesis
from schemathesis.core.media_types import YAML_MEDIA_TYPES


@schemathesis.deserializer(*YAML_MEDIA_TYPES)
def yaml_as_text(_context, response):
    return response.content.decode(response.encoding or "utf-8")
