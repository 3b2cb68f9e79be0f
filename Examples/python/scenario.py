"""A script writer's view of Lucid: drives a live server through the client that
openapi-python-client generated from openapi.yaml, and nothing else.

Usage: python scenario.py BASE_URL   (the generated package `lucid_client` on sys.path)

Every answer must parse into the generated model its status documents, and no model may
carry a field the spec does not describe: where the server and openapi.yaml disagree,
this fails.
"""

import re
import sys
import uuid
from datetime import datetime, timezone

import attrs

from lucid_client import AuthenticatedClient, Client
from lucid_client.api.accounts import create_user, get_me
from lucid_client.api.dreams import create_dream, get_dream, list_dreams, search_dreams, update_dream
from lucid_client.api.journal import apply_actions, export_journal, import_journal
from lucid_client.api.versions import get_changes, get_history, get_version, redo, undo
from lucid_client.models import (
    ActionBatch,
    AddDreamAction,
    ChangeItem,
    DayOneExport,
    DayOneEntry,
    DayOneImport,
    DeleteDreamAction,
    Dream,
    DreamPage,
    DreamPatch,
    Effect,
    ExportJournalFormat,
    ExportJournalHistory,
    FieldError,
    History,
    ImportResult,
    LucidExport,
    Model,
    NewDream,
    NewUser,
    PlainCreature,
    PlainCreatureKind,
    Problem,
    ProblemType,
    RecordedImportDreams,
    Registration,
    SearchPage,
    UndoItem,
    Unicorn,
    UnicornColor,
    User,
    VersionedDiff,
)
from lucid_client.types import Unset


def strict(value, where="answer"):
    """Fails if any generated model in `value` kept a field the spec does not describe."""
    if attrs.has(type(value)):
        extra = getattr(value, "additional_properties", {})
        assert not extra, f"{where}: fields the spec does not describe: {sorted(extra)}"
        for field in attrs.fields(type(value)):
            if field.name != "additional_properties":
                strict(getattr(value, field.name), f"{where}.{field.name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            strict(item, f"{where}[{index}]")


def expect(response, status, model):
    """The parsed answer, after checking its status and that it parsed into `model`."""
    assert response.status_code == status, f"expected {status}, got {response.status_code}: {response.content!r}"
    parsed = response.parsed
    assert isinstance(parsed, model), f"{status} did not parse into {model.__name__}: {parsed!r} from {response.content!r}"
    strict(parsed, model.__name__)
    return parsed


def expect_problem(response, status, problem_type):
    """The typed problem of an error answer."""
    problem = expect(response, status, Problem)
    assert problem.type_ == problem_type, f"expected {problem_type}, got {problem.type_}: {problem.detail}"
    assert problem.status == status and problem.request_id
    return problem


def main(base_url):
    sent_types = []

    def record(request):
        sent_types.append((request.method, request.url.path, request.headers.get("content-type")))

    hooks = {"event_hooks": {"request": [record]}}
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True, httpx_args=hooks)
    username = f"py-{uuid.uuid4().hex[:12]}"

    # Register, and a second registration of the name: 409 username-taken.
    registration = expect(
        create_user.sync_detailed(client=anonymous, body=NewUser(username=username, password="correct horse battery")),
        201, Registration)
    assert registration.user.username == username
    expect_problem(
        create_user.sync_detailed(client=anonymous, body=NewUser(username=username, password="another horse battery")),
        409, ProblemType.USERNAME_TAKEN)
    # Without a token: 401.
    expect_problem(get_me.sync_detailed(client=anonymous), 401, ProblemType.UNAUTHORIZED)

    client = AuthenticatedClient(
        base_url=base_url, token=registration.token, raise_on_unexpected_status=True, httpx_args=hooks)
    assert expect(get_me.sync_detailed(client=client), 200, User).username == username

    # Add a dream, and list it.
    added = create_dream.sync_detailed(client=client, body=NewDream(
        description="Flying over a violet sea", creature=Unicorn(kind="unicorn", color=UnicornColor.PINK),
        effects=[Effect.MAGIC]))
    dream = expect(added, 201, Dream)
    # The version, then whose journal it is.
    assert re.fullmatch(r'"1-[0-9a-f]{8}"', added.headers["ETag"]), added.headers["ETag"]
    page = expect(list_dreams.sync_detailed(client=client, limit=20), 200, DreamPage)
    assert [item.id for item in page.items] == [dream.id] and page.version == 1

    # A merge patch, sent as application/merge-patch+json, at the version it read.
    patched = expect(update_dream.sync_detailed(
        dream.id, client=client, body=DreamPatch(description="Flying over a violet sea, slowly"), if_match='"1"'),
        200, Dream)
    assert patched.description == "Flying over a violet sea, slowly" and patched.creature.color == UnicornColor.PINK
    assert ("PATCH", f"/v1/dreams/{dream.id}", "application/merge-patch+json") in sent_types, sent_types

    # Undo takes the patch back, redo puts it again.
    undone = expect(undo.sync_detailed(client=client), 200, VersionedDiff)
    assert undone.version == 3 and undone.diff.updated[0].description == "Flying over a violet sea"
    redone = expect(redo.sync_detailed(client=client), 200, VersionedDiff)
    assert redone.version == 4 and redone.diff.updated[0].description == "Flying over a violet sea, slowly"

    # History, a version read back whole, and the changes since a version.
    history = expect(get_history.sync_detailed(client=client), 200, History)
    assert [item.version for item in history.items] == [4, 3, 2, 1]
    assert isinstance(history.items[1], UndoItem) and isinstance(history.items[3], ChangeItem)
    first = expect(get_version.sync_detailed(1, client=client), 200, Model)
    assert first.version == 1 and first.dreams[0].description == "Flying over a violet sea"
    changes = expect(get_changes.sync_detailed(client=client, since=1), 200, VersionedDiff)
    assert changes.version == 4 and changes.diff.updated[0].description == "Flying over a violet sea, slowly"

    # A batch at the current version is one new version; at an old one it is 412.
    second = NewDream(description="A shark that sings", creature=PlainCreature(kind=PlainCreatureKind.SHARK))
    batch = ActionBatch(actions=[AddDreamAction(type_="addDream", dream=second), DeleteDreamAction(type_="deleteDream", id=dream.id)])
    applied = expect(apply_actions.sync_detailed(client=client, body=batch, if_match='"4"'), 200, VersionedDiff)
    assert applied.version == 5 and applied.diff.deleted == [dream.id]
    expect_problem(apply_actions.sync_detailed(client=client, body=batch, if_match='"4"'), 412, ProblemType.PRECONDITION_FAILED)

    # Search: the words found marked in the snippet; a bad filter is 400 naming it.
    found = expect(search_dreams.sync_detailed(client=client, q="SING", limit=10), 200, SearchPage)
    assert found.version == 5 and found.total == 1 and found.next_cursor is None
    snippet = found.items[0].snippet
    assert [segment.text for segment in snippet] == ["A shark that ", "sings"], snippet
    assert isinstance(snippet[0].match, Unset) and snippet[1].match is True, snippet
    expect_problem(search_dreams.sync_detailed(client=client, month_day="02-30"), 400, ProblemType.BAD_REQUEST)

    # The whole journal to take away: Lucid's JSON with every version, and Day One's JSON.
    exported = expect(export_journal.sync_detailed(client=client, history=ExportJournalHistory.TRUE), 200, LucidExport)
    assert exported.version == 5 and [d.description for d in exported.dreams] == ["A shark that sings"]
    assert [item.version for item in exported.history] == [1, 2, 3, 4, 5]
    day_one = expect(export_journal.sync_detailed(client=client, format_=ExportJournalFormat.DAYONE), 200, DayOneExport)
    assert [(entry.text, entry.tags, entry.starred) for entry in day_one.entries] == [("A shark that sings", ["Creature: Shark"], False)]

    # A dream that is not there: 404. A dream without a description: 422 naming the field.
    expect_problem(get_dream.sync_detailed(uuid.uuid4(), client=client), 404, ProblemType.NOT_FOUND)
    invalid = expect_problem(
        create_dream.sync_detailed(client=client, body=NewDream(description=" ", creature=PlainCreature(kind=PlainCreatureKind.DRAGON))),
        422, ProblemType.VALIDATION_FAILED)
    assert not isinstance(invalid.errors, Unset)
    assert [(error.pointer, type(error)) for error in invalid.errors] == [("/description", FieldError)], invalid.errors

    # A Day One file in as one version, seen in history; one undo takes it back.
    entry = DayOneEntry(
        uuid="5C1A2E7F0B9D4C36A8E1F2D3C4B5A697", creation_date=datetime(2023, 3, 4, 6, 12, 40, tzinfo=timezone.utc),
        text="# Over the harbour", starred=True, time_zone="Europe/Paris")
    imported = expect(import_journal.sync_detailed(client=client, body=DayOneImport(entries=[entry])), 200, ImportResult)
    assert (imported.version, imported.added, imported.skipped) == (6, 1, 0), imported
    change = expect(get_history.sync_detailed(client=client, limit=1), 200, History).items[0]
    assert isinstance(change, ChangeItem) and isinstance(change.actions[0], RecordedImportDreams), change
    assert change.actions[0].dreams[0].lucid and str(change.actions[0].dreams[0].dreamt_on) == "2023-03-04"
    undone = expect(undo.sync_detailed(client=client), 200, VersionedDiff)
    assert undone.version == 7 and undone.diff.deleted == [uuid.UUID("5c1a2e7f-0b9d-4c36-a8e1-f2d3c4b5a697")], undone

    # Every request went out as its operation says, and nothing failed to parse.
    print(f"python client: {len(sent_types)} requests, every answer typed")


if __name__ == "__main__":
    main(sys.argv[1])
