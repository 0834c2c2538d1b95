"""Words that carry no information on their own, in the languages people write their notes in.

On a graph of a few hundred entities IDF cannot tell "when" from "dentist": both are rare. These
short lists (articles, pronouns, prepositions, conjunctions, auxiliaries, question words) keep such
words from deciding the full-text branch. They are compared accent-folded and lower-cased, as
FTS5's unicode61 tokenizer sees them ("qué" and "que" are one word to it).

A word that is common in one language but means something in English is left out of every list
("die", "war", "man", "hat", "mit", "son", "era", "ton", "dove", "todo", "dos"...): losing a real word costs
more than keeping a common one.
"""

from __future__ import annotations

import unicodedata

_ENGLISH = """
a about above after again against all am an and any are aren't as at be because been before being
below between both but by can could did do does doing don during each few for from further had
has have having he her here hers herself him himself his how i if in into is it its itself just let
me more most my myself no nor not of on once only or other ought our ours ourselves over own
same she should so some such than that the their theirs them themselves then there these they this
those through to too under until upon very was we were what when where which while who whom whose
why will with would you your yours yourself yourselves also yet via per
"""
_SPANISH = """
a al algo algun alguna algunas alguno algunos ante antes asi aun cada como con contra cual cuales
cuando cuanto de del desde donde el ella ellas ellos en entre eran es esa esas ese eso esos
esta estaba estan estar estas este esto estos fue fueron ha hay haber habia han hasta la las
le les lo los mas me mi mis mucho muy nada ni no nos nosotros o os otra otras otro otros para pero
poco por porque que quien quienes se sea ser si sido sobre su sus tambien te tiene tienen todos
tu tus un una unas uno unos usted ustedes vosotros y ya yo
"""
_PORTUGUESE = """
a ao aos as ate com como da das de dela dele deles depois do e ela elas ele eles em entre
essa essas esse esses esta estas este estes foi foram ha isso isto ja lhe lhes mais mas me mesmo
meu minha muito na nao nas nem no nos nossa nosso num numa o os ou para pela pelas pelo pelos por qual
quando que quem se sem ser seu seus sua suas tambem te tem teu tu tua um uma umas uns voce voces
"""
_FRENCH = """
a afin au aux avec avoir ce ceci cela celle celles celui ces cet cette comme comment d dans de
des donc du elle elles en est et etait etre il ils j je l la le les leur leurs lui m ma mais me
meme mes moi mon n ne nos notre nous on ont ou par pas peu plus pour pourquoi qu quand que quel
quelle quelles quels qui s sa sans se ses si sont sur t ta te tes toi tous tout tu un une
vos votre vous y
"""
_GERMAN = """
aber alle als am an auch auf aus bei bis bist da damit dann das dass dem denn der des dich dir
doch du ein eine einem einen einer eines er es fur hatte ich ihm ihn ihr ihre im in ist ja jede
jeder kann kein keine mich mir nach nicht noch nur ob oder ohne sehr sein seine sich sind so
uber um und uns unser vom von vor wann warum wenn wer werden wie wieder wir wird wo zu zum zur
"""
_ITALIAN = """
a agli al alla alle allo anche che coi con cosa cui da dai dal dalla dalle degli
dei del della delle dello di e gli ha hanno i il in la le lei lo loro lui ma
mi mio nei nel nella nelle noi non o per perche piu quale quando quello questa questo se si sono su
sua sui sul sulla suo tra tu tutti tutto un una uno voi
"""

LANGUAGES = ("en", "es", "pt", "fr", "de", "it")


def fold(word: str) -> str:
    """Lower case without accents: how FTS5's unicode61 tokenizer compares words."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _words(*blocks: str) -> frozenset[str]:
    out: set[str] = set()
    for block in blocks:
        for word in block.split():
            # Contractions reach FTS5 as separate tokens ("aren't" -> "aren", "t"): keep the stem.
            out.add(fold(word.split("'")[0]))
    return frozenset(out)


STOPWORDS = _words(_ENGLISH, _SPANISH, _PORTUGUESE, _FRENCH, _GERMAN, _ITALIAN)
# Each language's list alone (folded): what tells one language's text from another's.
BY_LANGUAGE = dict(zip(LANGUAGES, (_words(b) for b in (_ENGLISH, _SPANISH, _PORTUGUESE, _FRENCH, _GERMAN, _ITALIAN))))


def is_stopword(token: str) -> bool:
    """True for a word that says nothing on its own in any of the supported languages."""
    return fold(token) in STOPWORDS


def content_terms(terms: list[str]) -> list[str]:
    """The terms that carry information; all of them when every one is common ("the who")."""
    kept = [t for t in terms if not is_stopword(t)]
    return kept or list(terms)
