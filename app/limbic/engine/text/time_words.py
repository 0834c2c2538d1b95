"""The words of time expressions in English and Spanish, lower-cased and accent-folded.

The tables time_expressions.py reads: month and weekday names, small numbers written as words, the units
of "two weeks ago", the words that put a bare month, year or weekday into a time context, and the words
that make a text worth parsing at all. Spanish words are stored without accents ("ano" for "año",
"miercoles"), as the recogniser compares them folded.
"""

from __future__ import annotations

MONTHS: dict[str, int] = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12,
    "enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8,
    "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12,
}
SPANISH_MONTHS = frozenset(w for w, _ in list(MONTHS.items())[12:])
# Abbreviations count only next to a day or a year: "mar" is the sea, "dec" a prefix, "ago" a word of its own.
MONTH_ABBREVIATIONS: dict[str, int] = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
    "oct": 10, "nov": 11, "dec": 12, "ene": 1, "abr": 4, "dic": 12,
}
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December")

WEEKDAYS: dict[str, int] = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
    "lunes": 0, "martes": 1, "miercoles": 2, "jueves": 3, "viernes": 4, "sabado": 5, "domingo": 6,
}

NUMBER_WORDS: dict[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "un": 1, "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
    "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12,
}

UNITS: dict[str, str] = {
    "day": "day", "days": "day", "dia": "day", "dias": "day",
    "week": "week", "weeks": "week", "semana": "week", "semanas": "week",
    "month": "month", "months": "month", "mes": "month", "meses": "month",
    "year": "year", "years": "year", "ano": "year", "anos": "year",
    "weekend": "weekend", "weekends": "weekend", "finde": "weekend",
}

# "the past years" is no period: after "last", "this" or an article only the singular counts.
PLURAL_UNITS = frozenset({"days", "dias", "weeks", "semanas", "months", "meses", "years", "anos", "weekends"})

TODAY = frozenset({"today", "hoy"})
YESTERDAY = frozenset({"yesterday", "ayer"})
BEFORE_YESTERDAY = frozenset({"anteayer", "antier"})
LAST = frozenset({"last", "past", "previous"})
THIS = frozenset({"this", "esta", "este"})
PASADO = frozenset({"pasado", "pasada", "anterior"})
ARTICLES = frozenset({"the", "el", "la"})

# Which bare names a word before them makes a time: "in March", "en 2023", "on Friday", "el viernes".
# "may" as a month needs "in"/"during" or a day or year beside it: "before may" is as often the verb.
LEAD_CONTEXT: dict[str, frozenset[str]] = {
    "in": frozenset({"month", "may", "year"}),
    "during": frozenset({"month", "may", "year"}),
    "on": frozenset({"weekday"}),
    "en": frozenset({"month", "year"}),
    "durante": frozenset({"month", "year"}),
    "de": frozenset({"month_es"}),
    "del": frozenset({"year"}),
    "el": frozenset({"weekday"}),
    "the": frozenset(),
}
# "before X", "desde X"...: each with the side of X the interval keeps.
OPERATORS: dict[tuple[str, ...], str] = {
    ("before",): "before", ("prior", "to"): "before", ("antes", "de"): "before", ("antes", "del"): "before",
    ("after",): "after", ("despues", "de"): "after", ("despues", "del"): "after",
    ("since",): "since", ("desde",): "since",
    ("until",): "until", ("till",): "until", ("hasta",): "until",
}
OPERATOR_CONTEXT = frozenset({"month", "year", "weekday", "month_es"})
# The two ends of "between X and Y", "entre X y Y", "from X to Y", "desde X hasta Y", "del X al Y".
BETWEEN: dict[str, frozenset[str]] = {
    "between": frozenset({"and"}), "entre": frozenset({"y", "e"}), "desde": frozenset({"hasta"}),
    "from": frozenset({"to", "until", "till", "through"}), "del": frozenset({"al"}),
}
# "two weeks before June 2023", "el fin de semana antes del 10 de abril": a period counted from a date.
ANCHOR_CONNECTORS: dict[tuple[str, ...], str] = {
    ("before",): "before", ("prior", "to"): "before", ("antes", "de"): "before", ("antes", "del"): "before",
    ("after",): "after", ("despues", "de"): "after", ("despues", "del"): "after",
}
AGO = frozenset({"ago"})
HACE = frozenset({"hace"})
OF = frozenset({"of", "de", "del"})

# A four-digit number followed by one of these counts things, not years: "in 2048 tokens".
QUANTITY_WORDS = frozenset("""
tokens token dimensions dims bytes kb mb gb tb ms px pixels words items rows lines users people patients
cases units entities samples points times records files characters chars bits calls queries results
documents docs mg kg km cm mm hz mhz ghz steps epochs participants subjects cells genes x
""".split())

# Words that tell a Spanish text from an English one: only ambiguous numeric dates (06/07/2023) need it.
SPANISH_MARKERS = frozenset("""
de el la los las que en y del con por para se es lo paso hace hoy ayer semana mes ano esta este
una fue cuando donde como al su sus nos
""".split())
ENGLISH_MARKERS = frozenset("""
the of in on and what did is was to with for when where how we i you it at from this last ago week month
year did do
""".split())

# A text none of whose words is here, and that holds no digit, holds no time expression.
TRIGGERS = frozenset(MONTHS) | frozenset(MONTH_ABBREVIATIONS) | frozenset(WEEKDAYS) | frozenset(UNITS) \
    | TODAY | YESTERDAY | BEFORE_YESTERDAY | frozenset({"ago", "hace"})

# Every word the grammar reads: a word outside this set is never taken into an expression.
VOCABULARY = TRIGGERS | frozenset(NUMBER_WORDS) | LAST | THIS | PASADO | ARTICLES | frozenset(LEAD_CONTEXT) \
    | {w for key in OPERATORS for w in key} | frozenset(BETWEEN) | {w for v in BETWEEN.values() for w in v} \
    | {w for key in ANCHOR_CONNECTORS for w in key} | OF | {"fin", "year", "ano", "ultimo", "ultima"}
