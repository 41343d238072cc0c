"""Field kinds shared by several messages, with their limits."""

from .wire_types import FieldError, Int, OneOf, Str, TemplateValues

SEATS = ("B", "Y")

SEAT = OneOf(SEATS)
TABLE_ID = Str(64)
NAME = Str(32)
"""A user's display name."""
TOKEN = Str(128)
CODE = Str(64)
"""An error or refusal code (see the error registry); receivers accept codes they do not know."""
TEXT = Str(1000, min_len=0)
"""Free text for humans: reasons and error messages."""
CHAT_TEXT = Str(500)
ACTION_TEXT = Str(256)
"""An action in canonical action notation."""
ACTION_ID = Str(64)
PURPOSE = Str(64)
EVENT_NUMBER = Int(0)
"""A per-table event sequence number; events count from 1, 0 means "none yet"."""
TEMPLATE = Str(500)
"""A refusal's or an error's English str.format template (action_refused, error and refused: `template`)."""
TEMPLATE_VALUES = TemplateValues(16, 32, 200)
"""Its values (`values`)."""


def fit_template(template: str | None, values: dict | None) -> tuple[str | None, dict | None]:
    """A template and its values as a message may carry them: a string value longer than the limit (a long typed
    text, a long list of candidates) cut to it, its last character "…", so that the reader can still translate the
    sentence; (None, None) when the template is None or would still break a limit (the reader then shows the
    message alone, as it does without them)."""
    if template is None:
        return None, None
    if values:
        limit = TEMPLATE_VALUES.value_len
        values = {key: value[:limit - 1] + "…" if type(value) is str and len(value) > limit else value
                  for key, value in values.items()}
    try:
        TEMPLATE.check(template, "template")
        TEMPLATE_VALUES.check(values or {}, "values")
    except FieldError:
        return None, None
    return template, values or None
