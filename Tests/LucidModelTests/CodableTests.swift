import Foundation
import Testing
@testable import LucidModel
import LucidTestSupport

/// The JSON shapes of the domain values.
@Suite struct CodableTests {
    // MARK: Creature

    @Test func unicornEncodesKindAndColor() throws {
        #expect(try json(Creature.unicorn(.pink)) == #"{"color":"pink","kind":"unicorn"}"#)
    }

    @Test func sharkEncodesOnlyItsKind() throws {
        #expect(try json(Creature.shark) == #"{"kind":"shark"}"#)
        #expect(try json(Creature.crusty) == #"{"kind":"crusty"}"#)
        #expect(try json(Creature.dragon) == #"{"kind":"dragon"}"#)
    }

    @Test func creaturesDecodeFromTheirJSON() throws {
        #expect(try decode(Creature.self, #"{"kind":"unicorn","color":"pink"}"#) == .unicorn(.pink))
        #expect(try decode(Creature.self, #"{"kind":"shark"}"#) == .shark)
        #expect(try decode(Creature.self, #"{"kind":"shark","color":null}"#) == .shark)
    }

    @Test func everyCreatureRoundTrips() throws {
        for creature in Creature.allCases {
            #expect(try roundTripped(creature) == creature)
        }
    }

    @Test(arguments: [
        #"{"kind":"unicorn"}"#,
        #"{"kind":"unicorn","color":null}"#,
        #"{"kind":"shark","color":"pink"}"#,
        #"{"kind":"dragon","color":"white"}"#,
        #"{"kind":"unicorn","color":"green"}"#,
        #"{"kind":"griffin"}"#,
        #"{"color":"pink"}"#,
        #""shark""#,
    ])
    func invalidCreatureJSONFailsToDecode(text: String) {
        #expect(throws: DecodingError.self) { try decode(Creature.self, text) }
    }

    // MARK: Effect

    @Test func effectsEncodeAsStrings() throws {
        #expect(try json(Effect.fireBreathing) == #""fireBreathing""#)
        #expect(try json(Effect.allCases) == #"["fireBreathing","laserFocus","magic","fireflies","rain","snow"]"#)
    }

    @Test func effectSetsEncodeInDeclarationOrder() {
        #expect(Set<Effect>([.snow, .fireBreathing, .magic, .laserFocus]).inDeclarationOrder
            == [.fireBreathing, .laserFocus, .magic, .snow])
        #expect(Set(Effect.allCases.reversed()).inDeclarationOrder == Effect.allCases)
        #expect(Set<Effect>().inDeclarationOrder == [])
        #expect(Effect.allCases.sorted() == Effect.allCases)
    }

    // MARK: Dream

    let dream = Dream(
        id: Fixture.id(1), description: "a pink unicorn in the snow", creature: .unicorn(.pink),
        effects: [.snow, .fireBreathing, .magic], numberOfCreatures: 2, dreamtOn: Day("2026-11-21"),
        createdAt: Fixture.time(), updatedAt: Fixture.time(90))

    @Test func dreamEncodesEveryFieldWithEffectsInDeclarationOrder() throws {
        #expect(try json(dream) == """
            {"createdAt":"2026-11-22T04:17:26.123Z","creature":{"color":"pink","kind":"unicorn"},\
            "description":"a pink unicorn in the snow","dreamtOn":"2026-11-21",\
            "effects":["fireBreathing","magic","snow"],"id":"00000000-0000-0000-0000-000000000001",\
            "lucid":false,"numberOfCreatures":2,"tags":[],"updatedAt":"2026-11-22T04:18:56.123Z"}
            """)
    }

    @Test func dreamEncodesLucidAndTagsInTheirOrder() throws {
        var tagged = dream
        tagged.lucid = true
        tagged.tags = ["Teeth falling out", "água", "🦄"]
        let text = try json(tagged)
        #expect(text.contains(#""lucid":true"#) && text.contains(#""tags":["Teeth falling out","água","🦄"]"#))
        #expect(try roundTripped(tagged) == tagged)
    }

    /// Dreams stored before `lucid` and `tags` existed (in old versions' actions, in shares)
    /// have neither: they read back as not lucid and without tags.
    @Test func aDreamWithoutLucidAndTagsDecodesAsNotLucidWithoutTags() throws {
        let old = """
            {"createdAt":"2026-11-22T04:17:26.123Z","creature":{"color":"pink","kind":"unicorn"},\
            "description":"a pink unicorn in the snow","dreamtOn":"2026-11-21",\
            "effects":["fireBreathing","magic","snow"],"id":"00000000-0000-0000-0000-000000000001",\
            "numberOfCreatures":2,"updatedAt":"2026-11-22T04:18:56.123Z"}
            """
        #expect(try decode(Dream.self, old) == dream)
        #expect(try decode(Action.self, #"{"type":"addDream","dream":\#(old)}"#) == .addDream(dream))
        #expect(dream.lucid == false && dream.tags == [])
    }

    @Test func dreamRoundTrips() throws {
        #expect(try roundTripped(dream) == dream)
        var journal = RandomJournal(seed: 42)
        for _ in 0..<200 {
            let random = journal.dream()
            #expect(try roundTripped(random) == random)
        }
    }

    @Test func dreamDecodesDuplicateEffectsAsOneAndEncodesThemOnce() throws {
        var text = try json(dream)
        text = text.replacingOccurrences(
            of: #"["fireBreathing","magic","snow"]"#, with: #"["snow","magic","snow","fireBreathing","magic"]"#)
        let decoded = try decode(Dream.self, text)
        #expect(decoded == dream)
        #expect(try json(decoded).contains(#""effects":["fireBreathing","magic","snow"]"#))
    }

    @Test func dreamWithUnknownEffectFailsToDecode() throws {
        let text = try json(dream).replacingOccurrences(of: #""magic""#, with: #""glitter""#)
        #expect(throws: DecodingError.self) { try decode(Dream.self, text) }
    }

    @Test func dreamDefaultsDreamtOnToTheUTCDayOfCreationAndUpdatedAtToCreatedAt() throws {
        let late = try #require(Timestamp(rfc3339: "2026-11-22T23:59:59.999Z"))
        let made = Dream(id: Fixture.id(3), description: "x", creature: .crusty, createdAt: late)
        #expect(made.dreamtOn == Day("2026-11-22"))
        #expect(made.updatedAt == late)
        #expect(made.numberOfCreatures == 1)
        #expect(made.effects == [])
    }

    // MARK: Model

    @Test func emptyModelEncodesTheDefaultFavorite() throws {
        #expect(try json(Model.empty) == #"{"dreams":[],"favoriteCreature":{"color":"yellow","kind":"unicorn"}}"#)
    }

    @Test func modelRoundTrips() throws {
        #expect(try roundTripped(Fixture.model) == Fixture.model)
    }

    // MARK: Action

    static let actions: [Action] = [
        .addDream(Fixture.dream(1)),
        .addDream(Fixture.dream(2, creature: .unicorn(.white)), index: 0),
        .updateDream(id: Fixture.id(1), changes: DreamChanges(), at: Fixture.time(5)),
        .updateDream(id: Fixture.id(1), changes: DreamChanges(description: "x"), at: Fixture.time(5)),
        .updateDream(
            id: Fixture.id(1),
            changes: DreamChanges(
                description: "y", creature: .unicorn(.yellow), effects: [.rain, .fireflies],
                numberOfCreatures: 7, dreamtOn: Day("2024-02-29")),
            at: Fixture.time(6)),
        .updateDream(id: Fixture.id(2), changes: DreamChanges(effects: []), at: Fixture.time(7)),
        .updateDream(id: Fixture.id(2), changes: DreamChanges(lucid: true, tags: ["Shark", "teeth"]), at: Fixture.time(8)),
        .updateDream(id: Fixture.id(2), changes: DreamChanges(lucid: false, tags: []), at: Fixture.time(9)),
        .deleteDream(id: Fixture.id(3)),
        .moveDream(id: Fixture.id(4), toIndex: 2),
        .setFavoriteCreature(.dragon),
        .setFavoriteCreature(.unicorn(.pink)),
    ]

    @Test(arguments: actions)
    func actionRoundTrips(action: Action) throws {
        #expect(try roundTripped(action) == action)
    }

    @Test func randomActionsRoundTrip() throws {
        var random = RandomJournal(seed: 7)
        var model = Model.empty
        for _ in 0..<300 {
            let action = random.action(for: model)
            #expect(try roundTripped(action) == action)
            model = try model.reduced(by: action)
        }
    }

    @Test func moveDreamJSON() throws {
        #expect(try json(Action.moveDream(id: Fixture.id(4), toIndex: 2))
            == #"{"id":"00000000-0000-0000-0000-000000000004","toIndex":2,"type":"moveDream"}"#)
    }

    @Test func deleteDreamJSON() throws {
        #expect(try json(Action.deleteDream(id: Fixture.id(3)))
            == #"{"id":"00000000-0000-0000-0000-000000000003","type":"deleteDream"}"#)
    }

    @Test func setFavoriteCreatureJSON() throws {
        #expect(try json(Action.setFavoriteCreature(.shark)) == #"{"creature":{"kind":"shark"},"type":"setFavoriteCreature"}"#)
    }

    @Test func updateDreamJSONCarriesChangedFieldsFlat() throws {
        let action = Action.updateDream(
            id: Fixture.id(1), changes: DreamChanges(creature: .crusty, effects: [.snow, .magic]), at: Fixture.time())
        #expect(try json(action) == """
            {"creature":{"kind":"crusty"},"effects":["magic","snow"],"id":"00000000-0000-0000-0000-000000000001",\
            "type":"updateDream","updatedAt":"2026-11-22T04:17:26.123Z"}
            """)
    }

    @Test func updateDreamJSONCarriesLucidAndTagsOnlyWhenChanged() throws {
        let action = Action.updateDream(
            id: Fixture.id(1), changes: DreamChanges(lucid: false, tags: ["Shark"]), at: Fixture.time())
        #expect(try json(action) == """
            {"id":"00000000-0000-0000-0000-000000000001","lucid":false,"tags":["Shark"],\
            "type":"updateDream","updatedAt":"2026-11-22T04:17:26.123Z"}
            """)
        let empty = Action.updateDream(id: Fixture.id(1), changes: DreamChanges(tags: []), at: Fixture.time())
        #expect(try json(empty).contains(#""tags":[]"#) && !(try json(empty).contains("lucid")))
    }

    @Test func addDreamJSONOmitsAMissingIndex() throws {
        let dreamJSON = try json(Fixture.dream(1))
        #expect(try json(Action.addDream(Fixture.dream(1))) == #"{"dream":\#(dreamJSON),"type":"addDream"}"#)
        #expect(try json(Action.addDream(Fixture.dream(1), index: 0)) == #"{"dream":\#(dreamJSON),"index":0,"type":"addDream"}"#)
    }

    @Test func actionTypeNamesTheCase() {
        #expect(Self.actions.map(\.type) == [
            "addDream", "addDream", "updateDream", "updateDream", "updateDream", "updateDream", "updateDream", "updateDream",
            "deleteDream", "moveDream", "setFavoriteCreature", "setFavoriteCreature",
        ])
    }

    @Test(arguments: [
        #"{"type":"renameDream","id":"00000000-0000-0000-0000-000000000001"}"#,
        #"{"id":"00000000-0000-0000-0000-000000000001"}"#,
        #"{"type":"deleteDream"}"#,
        #"{"type":"deleteDream","id":"not-a-uuid"}"#,
        #"{"type":"moveDream","id":"00000000-0000-0000-0000-000000000001"}"#,
        #"{"type":"updateDream","id":"00000000-0000-0000-0000-000000000001"}"#,
        #"{"type":"setFavoriteCreature","creature":{"kind":"unicorn"}}"#,
    ])
    func malformedActionFailsToDecode(text: String) {
        #expect(throws: DecodingError.self) { try decode(Action.self, text) }
    }

    // MARK: ModelDiff

    @Test func emptyDiffWritesTheFourLists() throws {
        #expect(try json(ModelDiff()) == #"{"deleted":[],"inserted":[],"moved":[],"updated":[]}"#)
    }

    @Test func diffRoundTrips() throws {
        var diff = ModelDiff()
        diff.inserted = [ModelDiff.Insertion(index: 0, dream: Fixture.dream(5))]
        diff.updated = [Fixture.dream(2)]
        diff.deleted = [Fixture.id(3)]
        diff.moved = [ModelDiff.Move(id: Fixture.id(4), toIndex: 1)]
        diff.favoriteCreature = .unicorn(.white)
        #expect(try roundTripped(diff) == diff)
        #expect(try roundTripped(ModelDiff()) == ModelDiff())
        #expect(try json(ModelDiff.Move(id: Fixture.id(4), toIndex: 1))
            == #"{"id":"00000000-0000-0000-0000-000000000004","toIndex":1}"#)
    }

    // MARK: FieldError

    @Test func fieldErrorJSON() throws {
        #expect(try json(FieldError(pointer: "/dream/description", detail: "d"))
            == #"{"detail":"d","pointer":"/dream/description"}"#)
    }
}
