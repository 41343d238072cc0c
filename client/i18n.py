"""The client's language: English, French, German, Italian or Spanish, with gettext catalogues.

The texts of the client (screens, help, its own refusals and notices, rule-family names, the command line's help)
are English in the code, marked for translation:

- `_("...")` where the text is used: it is translated into the language in use at that moment;
- `N_("...")` where the text is defined ahead of its use (a module-level table): it only marks the text for
  extraction and returns it unchanged; the code that shows it passes it through `_()` then;
- `ngettext(singular, plural, n)` where the text depends on a count.

A text with values names them (`_("{figure} moves to {square}").format(figure=..., square=...)`), so that a
translation may put them in its own order; a test checks that every translation keeps exactly the names of its
English text.

What stays English on purpose: what a player types (the commands and the game notation, `move bTH a1`, are a
language of their own, the same in every language, as chess notation is), rule IDs, and the server's own
sentences (a chat line; a refusal's detail unless it comes as a template the catalogue translates, see
`state.Refusal`). The rules reference that `help RULE` quotes is English.

The catalogues: `locale/LANG/LC_MESSAGES/dt-client.po` (what translators edit) compiled into `dt-client.mo` (what
gettext reads). Babel extracts and compiles them (see docs/translating.md); the .mo files are committed so that an
install needs no build step, and a test checks they match their .po files.

The language is chosen by `dt-client --lang LANG`, else by the environment as gettext reads it (LANGUAGE, then
LC_ALL, LC_MESSAGES, LANG: `fr_FR.UTF-8` gives French), else English.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "dt-client"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = {"en": "English", "fr": "Français", "de": "Deutsch", "it": "Italiano", "es": "Español"}
"""The languages the client speaks, by code, each named in itself (as a language menu shows them)."""
DEFAULT = "en"
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables gettext reads, in its order."""

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT


def N_(message: str) -> str:
    """Marks `message` for translation where it is defined; `_()` translates it where it is shown."""
    return message


def _(message: str) -> str:
    """`message` in the language in use."""
    return _translations.gettext(message)


def translated(message: str) -> str | None:
    """`message` in the language in use if its catalogue has a translation of it, else None (English, or a text
    the catalogue does not know or has left untranslated)."""
    text = _translations.gettext(message)
    return None if text == message else text


def pgettext(context: str, message: str) -> str:
    """`message` as the catalogue translates it in `context` (a word the games use for different things), else as
    `_` does."""
    text = _translations.pgettext(context, message)
    return _(message) if text == message else text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or the plural form for `n`, in the language in use (each language has its own plural rule)."""
    return _translations.ngettext(singular, plural, n)


def language() -> str:
    """The code of the language in use."""
    return _language


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The first language of the environment the client speaks (`fr_FR.UTF-8` -> fr, `de:en` -> de), as gettext
    reads it, else English. `C` and `POSIX` are English."""
    environ = os.environ if environ is None else environ
    for variable in ENVIRONMENT:
        value = environ.get(variable)
        if value:  # the first variable set decides, as for Python's gettext
            return next((code for part in value.split(":") if (code := normalise(part))), DEFAULT)
    return DEFAULT


def normalise(code: str) -> str | None:
    """`fr`, `FR`, `fr_FR.UTF-8`, `fr-CA` -> fr; None if the client does not speak it."""
    base = code.replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return base if base in LANGUAGES else None


def use(code: str | None = None) -> str:
    """Speak `code` (a code of LANGUAGES, or None for the environment's language) from now on; returns the code in
    use. A language whose catalogue is missing falls back to English (the texts in the code)."""
    global _translations, _language
    chosen = normalise(code) if code else from_environment()
    if chosen is None:
        raise ValueError(f"unknown language {code!r}: one of {', '.join(LANGUAGES)}")
    if chosen == DEFAULT:
        _translations = gettext.NullTranslations()
    else:
        _translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[chosen], fallback=True)
    _language = chosen
    return chosen
