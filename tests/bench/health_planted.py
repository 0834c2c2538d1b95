"""Planted duplicates and hard negatives for the health benchmark, on top of a synthetic graph.

Five kinds of planted pair (what assistants actually write twice): case or accents, an
abbreviation, another word order, another language, the same observations under another name.
Hard negatives are related but distinct: a thing and a job about it, two people with the same
first name, a project and its repository. Every planted entity reads like a real one (no index
suffix), so names alone do not give the answer away.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

import numpy as np

from limbic.engine.formats.jsonl import EntityRecord, RelationRecord

FIRST = ["José", "Inés", "Tomás", "Ramón", "Léa", "Chloé", "Björn", "Zoë", "Íñigo", "Renée", "Andrés", "Begoña",
         "Joaquín", "Agustín", "Maël", "Søren", "Dvořák", "Raúl", "Mónica", "Sebastián"]
LAST = ["Martínez", "Gómez", "Pérez", "Núñez", "Müller", "Sánchez", "Jiménez", "Hernández", "Álvarez", "Gutiérrez",
        "Fernández", "Ibáñez", "Løvaas", "Šimek", "Çelik", "Rodríguez", "Domínguez", "Vázquez", "Muñoz", "Ortíz"]
ROLES = ["backend engineer", "designer", "accountant", "landlord", "dentist", "product manager", "piano teacher",
         "climbing partner", "neighbour", "mentor", "recruiter", "physiotherapist"]
ABBREVIATIONS = [
    ("Customer Relationship Management", "CRM", "Tool"), ("Kubernetes cluster", "K8s cluster", "Service"),
    ("Human Resources department", "HR dept", "Organization"), ("Quality Assurance team", "QA team", "Organization"),
    ("Continuous Integration pipeline", "CI pipeline", "Service"), ("Machine Learning reading group", "ML reading group", "Meeting"),
    ("Postgres database", "PG DB", "Service"), ("Engineering department", "Eng dept", "Organization"),
    ("International office", "Intl office", "Place"), ("New York City trip", "NYC trip", "Meeting"),
    ("Production environment", "Prod env", "Service"), ("Development environment", "Dev env", "Service"),
]
ORDERED = [("Weekly planning meeting", "Meeting planning weekly"), ("Quarterly budget review", "Budget review quarterly"),
           ("Garden irrigation system", "Irrigation system garden"), ("Kitchen renovation plan", "Renovation plan kitchen")]
TRANSLATED = [
    ("Nightly backup", "Copia de seguridad nocturna", "Task",
     ["Runs every night at 02:00 and copies the photo library to the external disk",
      "Keeps thirty daily snapshots and deletes older ones"],
     ["Se ejecuta cada noche a las 02:00 y copia la fototeca al disco externo",
      "Guarda treinta copias diarias y borra las más antiguas"]),
    ("Weekly team meeting", "Reunión semanal del equipo", "Meeting",
     ["Every Monday at ten, the whole team reviews the week's priorities"],
     ["Cada lunes a las diez, todo el equipo repasa las prioridades de la semana"]),
    ("Grocery list", "Lista de la compra", "Document",
     ["Milk, eggs, bread and olive oil for the weekend", "Shared with the family on the phone"],
     ["Leche, huevos, pan y aceite de oliva para el fin de semana", "Compartida con la familia en el móvil"]),
    ("Tax return", "Declaración de la renta", "Task",
     ["Due at the end of June; the accountant prepares the draft", "Needs the mortgage interest certificate"],
     ["Vence a finales de junio; la gestora prepara el borrador", "Necesita el certificado de intereses de la hipoteca"]),
    ("Dentist appointment", "Cita con el dentista", "Meeting",
     ["Cleaning and check-up on Thursday afternoon at the clinic near the station"],
     ["Limpieza y revisión el jueves por la tarde en la clínica junto a la estación"]),
    ("Summer holiday", "Vacaciones de verano", "Meeting",
     ["Two weeks in August by the sea with the children", "Flights booked, hotel still to book"],
     ["Dos semanas en agosto junto al mar con los niños", "Vuelos reservados, falta reservar el hotel"]),
    ("Car insurance", "Seguro del coche", "Document",
     ["Renews every March; comprehensive cover with a 300 euro excess"],
     ["Se renueva cada marzo; cobertura a todo riesgo con una franquicia de 300 euros"]),
    ("Monthly budget", "Presupuesto mensual", "Document",
     ["Rent, food, transport and savings planned for each month"],
     ["Alquiler, comida, transporte y ahorro previstos para cada mes"]),
    ("Password manager", "Gestor de contraseñas", "Tool",
     ["Holds every account's password; the vault syncs between laptop and phone"],
     ["Guarda las contraseñas de todas las cuentas; la bóveda se sincroniza entre portátil y móvil"]),
    ("Running club", "Club de corredores", "Organization",
     ["Meets on Saturday mornings at the park for a ten kilometre run"],
     ["Se reúne los sábados por la mañana en el parque para correr diez kilómetros"]),
    ("Birthday party", "Fiesta de cumpleaños", "Meeting",
     ["Surprise party for Marta at the flat, friends bring the cake"],
     ["Fiesta sorpresa para Marta en el piso, los amigos traen la tarta"]),
    ("Home office", "Despacho en casa", "Place",
     ["Second bedroom with the standing desk and the big monitor"],
     ["El segundo dormitorio con el escritorio elevable y el monitor grande"]),
]
SAME_OBS = [
    ("Home server", "Raspberry Pi in the closet", "Device"), ("Team wiki", "Confluence space", "Tool"),
    ("Family doctor", "Dr. Alvarez at the health centre", "Person"), ("Bike", "Red road bicycle", "Thing"),
    ("Main laptop", "ThinkPad X1", "Device"), ("Savings account", "Orange bank deposit", "Document"),
    ("Book club", "Thursday readers", "Organization"), ("Music lessons", "Piano with Renée", "Task"),
    ("Flat in Valencia", "Ruzafa apartment", "Place"), ("Side project", "Tide Clock app", "Project"),
    ("Work phone", "Pixel 8 from the office", "Device"), ("Gym membership", "Climbing wall pass", "Document"),
]
THINGS = ["Postgres", "Redis", "Kafka", "Nginx", "Grafana", "Jenkins", "Elasticsearch", "RabbitMQ", "Prometheus",
          "Terraform", "Vault", "Airflow"]
JOBS = ["backup job", "migration", "monitoring", "upgrade plan", "dashboard", "alert rules"]
PROJECTS = ["Aurora", "Borealis", "Cobalt", "Driftwood", "Ember", "Falcon", "Glacier", "Kestrel", "Lantern", "Meridian",
            "Nimbus", "Orchid", "Pioneer", "Quartz", "Sequoia"]
FACTS = ["started in {m}", "owned by the platform team", "reviewed every {d}", "documented in the wiki",
         "costs about {n} euros a month", "discussed at the last retro", "has an open question about access",
         "linked from the onboarding guide", "runs on the shared cluster", "needs a decision before {m}"]
MONTHS = ["January", "March", "May", "July", "September", "November"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]


@dataclass
class Planted:
    """The extra records and the truth: planted pairs by kind, hard negative pairs."""

    entities: list[EntityRecord] = field(default_factory=list)
    relations: list[RelationRecord] = field(default_factory=list)
    pairs: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, name, name)
    negatives: list[tuple[str, str, str]] = field(default_factory=list)


def _plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _fact(rng: np.random.Generator, subject: str) -> str:
    f = str(rng.choice(FACTS)).format(m=rng.choice(MONTHS), d=rng.choice(DAYS), n=int(rng.integers(5, 500)))
    return f"{subject} {f}"


class _Builder:
    def __init__(self, rng: np.random.Generator, anchors: list[str]) -> None:
        self.rng, self.anchors, self.out = rng, anchors, Planted()

    def entity(self, name: str, etype: str, obs: list[str]) -> None:
        self.out.entities.append(EntityRecord(0, name, etype, obs))

    def relate(self, a: str, b: str, rtype: str) -> None:
        self.out.relations.append(RelationRecord(0, a, b, rtype))

    def shared_anchor(self, *names: str, k: int = 1) -> None:
        """Both ends of a pair related to the same existing entities (what a duplicate usually has)."""
        for anchor in self.rng.choice(self.anchors, size=k, replace=False):
            for n in names:
                self.relate(n, str(anchor), "mentions")


def plant(anchors: list[str], seed: int = 24) -> Planted:
    """Sixty planted pairs (five kinds) and sixty hard negatives, related to some of ``anchors``."""
    rng = np.random.default_rng(seed)
    b = _Builder(rng, anchors)
    people = [(f, l) for f in FIRST for l in LAST]
    rng.shuffle(people)
    used = iter(people)
    for i in range(12):  # case / accents
        f, l = next(used)
        a, dup = f"{f} {l}", (_plain(f"{f} {l}") if i % 3 else _plain(f"{f} {l}").lower())
        role = ROLES[i % len(ROLES)]
        b.entity(a, "Person", [f"{a.split()[0]} is the {role} we met through work", _fact(rng, a)])
        b.entity(dup, "Person", [f"Works as {role}", _fact(rng, dup)])
        b.shared_anchor(a, dup)
        b.out.pairs.append(("case/accents", a, dup))
    for long_, short, etype in ABBREVIATIONS:
        b.entity(long_, etype, [_fact(rng, long_), _fact(rng, long_)])
        b.entity(short, etype, [_fact(rng, short)])
        b.shared_anchor(long_, short)
        b.out.pairs.append(("abbreviation", long_, short))
    for i in range(12):  # word order
        if i < 8:
            f, l = next(used)
            a, dup = f"{f} {l}", f"{l}, {f}"
            etype = "Person"
        else:
            a, dup = ORDERED[i - 8]
            etype = "Task"
        b.entity(a, etype, [_fact(rng, a), _fact(rng, a)])
        b.entity(dup, etype, [_fact(rng, dup)])
        b.shared_anchor(a, dup)
        b.out.pairs.append(("word order", a, dup))
    for en, es, etype, obs_en, obs_es in TRANSLATED:
        b.entity(en, etype, obs_en)
        b.entity(es, etype, obs_es)
        b.shared_anchor(en, es)
        b.out.pairs.append(("other language", en, es))
    for a, dup, etype in SAME_OBS:
        obs = [_fact(rng, a) for _ in range(3)]
        b.entity(a, etype, obs)
        b.entity(dup, etype, [obs[0], obs[1].lower(), obs[2] + "."])
        b.out.pairs.append(("same observations", a, dup))
    _negatives(b, used)
    return b.out


def _negatives(b: _Builder, people) -> None:
    rng = b.rng
    for i, thing in enumerate(THINGS):  # a thing and a job about it
        job = f"{thing} {JOBS[i % len(JOBS)]}"
        b.entity(thing, "Tool", [f"{thing} is used by the platform team", _fact(rng, thing)])
        b.entity(job, "Task", [f"The {JOBS[i % len(JOBS)]} for {thing}", _fact(rng, job)])
        if i % 2:
            b.relate(job, thing, "depends_on")
        b.shared_anchor(thing, job)
        b.out.negatives.append(("thing and job", thing, job))
    firsts = {}
    for f, l in people:
        firsts.setdefault(f, []).append(l)
    count = 0
    for f, lasts in firsts.items():  # two people with the same first name
        for j in range(0, len(lasts) - 1, 2):
            if j > 2 or count >= 26:
                break
            a, c = f"{f} {lasts[j]}", f"{f} {lasts[j + 1]}"
            b.entity(a, "Person", [f"{f} is a {ROLES[count % len(ROLES)]}", _fact(rng, a)])
            b.entity(c, "Person", [f"{f} is a {ROLES[(count + 5) % len(ROLES)]}", _fact(rng, c)])
            if count % 2:
                b.shared_anchor(a, c)
            b.out.negatives.append(("same first name", a, c))
            count += 1
    for i, p in enumerate(PROJECTS):  # a project and its repository
        repo = f"{p} repository"
        b.entity(p, "Project", [f"{p} is the project to rebuild the booking flow", _fact(rng, p)])
        b.entity(repo, "Repository", [f"Git repository of {p} on the company server", _fact(rng, repo)])
        if i % 2:
            b.relate(repo, p, "part_of")
        b.shared_anchor(p, repo)
        b.out.negatives.append(("project and repository", p, repo))


def plant_sample(names: set[str]) -> Planted:
    """A few planted pairs on the sample graph's own entities (two per kind), for the small benchmark."""
    rng = np.random.default_rng(3)
    b = _Builder(rng, sorted(names))
    rows = [
        ("case/accents", "Tomás Ferreira", "tomas ferreira", "Person", ["Colleague from the Harbor team"]),
        ("case/accents", "Dr. Iñaki Beltrán", "Dr. Inaki Beltran", "Person", ["Doctor at the health centre"]),
        ("abbreviation", "Harbor API", "Harbor Application Programming Interface", "Project", ["The public API of Harbor"]),
        ("abbreviation", "Postgres 16", "PG 16", "Tool", ["Database of the ledger"]),
        ("word order", "Marta Quintero", "Quintero, Marta", "Person", ["Owner of the graph"]),
        ("word order", "Ana Ruiz", "Ruiz, Ana", "Person", ["Design lead"]),
        ("other language", "Running", "Correr", "Habit", ["Salir a correr tres veces por semana"]),
        ("other language", "Learning Portuguese", "Aprender portugués", "Goal", ["Clases de portugués los martes"]),
    ]
    for kind, a, dup, etype, obs in rows:
        if a in names:
            b.entity(dup, etype, obs)
            b.out.pairs.append((kind, a, dup))
    negatives = [
        ("thing and decision", "Postgres 16", "Decision: use Postgres 16 for the Harbor ledger"),
        ("project and release", "Harbor API", "Harbor v2.8.1"), ("project and infrastructure", "Harbor API", "harbor-prod"),
        ("tool and decision", "restic", "Decision: nightly backups with restic"),
        ("two sessions", "Session 2026-04-02", "Session 2026-04-09"), ("two tickets", "HAR-2291", "HAR-2310"),
    ]
    b.out.negatives = [n for n in negatives if n[1] in names and n[2] in names]
    return b.out
