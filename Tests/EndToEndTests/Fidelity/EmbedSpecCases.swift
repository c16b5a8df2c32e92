/// Embedded resources from PostgREST's `QuerySpec.hs` ("requesting parents and children",
/// "aliased embeds", "ordering embeded entities"), `EmbedDisambiguationSpec.hs` (`!hint`),
/// `RangeSpec.hs` (limits on embeds) and `InsertSpec.hs` (embeds after an insert).
enum EmbedSpecCases {
    static let query = "QuerySpec.hs"
    static let disambiguation = "EmbedDisambiguationSpec.hs"

    static let cases: [FidelityCase] = [
        .get(
            query, "requesting parents and children",
            "projects?id=eq.1&select=id, name, clients(*), tasks(id, name)",
            json:
                #"[{"id":1,"name":"Windows 7","clients":{"id":1,"name":"Microsoft"},"tasks":[{"id":1,"name":"Design w7"},{"id":2,"name":"Code w7"}]}]"#
        ),
        .get(
            query, "requesting parent and renaming primary key",
            "projects?select=name,client:clients(clientId:id,name)",
            json: #"""
                [{"name":"Windows 7","client":{"name": "Microsoft", "clientId": 1}},
                {"name":"Windows 10","client":{"name": "Microsoft", "clientId": 1}},
                {"name":"IOS","client":{"name": "Apple", "clientId": 2}},
                {"name":"OSX","client":{"name": "Apple", "clientId": 2}},{"name":"Orphan","client":null}]
                """#),
        .get(
            query, "requesting parents and children while renaming them",
            "projects?id=eq.1&select=myId:id, name, project_client:clients(*), project_tasks:tasks(id, name)",
            json:
                #"[{"myId":1,"name":"Windows 7","project_client":{"id":1,"name":"Microsoft"},"project_tasks":[{"id":1,"name":"Design w7"},{"id":2,"name":"Code w7"}]}]"#
        ),
        .get(
            query, "rows with missing parents are included", "projects?id=in.(1,5)&select=id,clients(id)",
            json: #"[{"id":1,"clients":{"id":1}},{"id":5,"clients":null}]"#),
        .get(
            query, "rows with no children return [] instead of null",
            "projects?id=in.(5)&select=id,tasks(id)",
            json: #"[{"id":5,"tasks":[]}]"#),
        .get(
            query, "requesting children 2 levels", "clients?id=eq.1&select=id,projects(id,tasks(id))",
            json:
                #"[{"id":1,"projects":[{"id":1,"tasks":[{"id":1},{"id":2}]},{"id":2,"tasks":[{"id":3},{"id":4}]}]}]"#
        ),
        .get(
            query, "requesting many<->many relation with rename",
            "tasks?id=eq.1&select=id,theUsers:users(id)",
            json: #"[{"id":1,"theUsers":[{"id":1},{"id":3}]}]"#),
        .get(
            query, "requesting many<->many relation reverse", "users?select=id,tasks(id)",
            json:
                #"[{"id":1,"tasks":[{"id":1},{"id":2},{"id":3},{"id":4}]},{"id":2,"tasks":[{"id":5},{"id":6},{"id":7}]},{"id":3,"tasks":[{"id":1},{"id":5}]}]"#
        ),
        .get(
            query, "matches filtering nested items",
            "clients?select=id,projects(id,tasks(id,name))&projects.tasks.name=like.Design*",
            json:
                #"[{"id":1,"projects":[{"id":1,"tasks":[{"id":1,"name":"Design w7"}]},{"id":2,"tasks":[{"id":3,"name":"Design w10"}]}]},{"id":2,"projects":[{"id":3,"tasks":[{"id":5,"name":"Design IOS"}]},{"id":4,"tasks":[{"id":7,"name":"Design OSX"}]}]}]"#
        ),
        .get(
            query, "ordering embeded entities",
            "projects?id=eq.1&select=id, name, tasks(id, name)&tasks.order=name.asc",
            json:
                #"[{"id":1,"name":"Windows 7","tasks":[{"id":2,"name":"Code w7"},{"id":1,"name":"Design w7"}]}]"#
        ),
        .get(
            query, "aliased embeds work with many to many relation",
            "users?select=id,designTasks:tasks(id,name),codeTasks:tasks(id,name)&designTasks.name=like.*Design*&codeTasks.name=like.*Code*",
            json: #"""
                [{"id":1,"designTasks":[{"id":1,"name":"Design w7"},{"id":3,"name":"Design w10"}],
                "codeTasks":[{"id":2,"name":"Code w7"},{"id":4,"name":"Code w10"}]},
                {"id":2,"designTasks":[{"id":5,"name":"Design IOS"},{"id":7,"name":"Design OSX"}],"codeTasks":[{"id":6,"name":"Code IOS"}]},
                {"id":3,"designTasks":[{"id":1,"name":"Design w7"},{"id":5,"name":"Design IOS"}],"codeTasks":[]}]
                """#),
        .get(
            query, "empty embed works on a many-to-one relationship",
            "projects?select=id,name,clients!inner()&clients.id=eq.2",
            json: #"[{"id":3,"name":"IOS"},{"id":4,"name":"OSX"}]"#),
        .get(
            disambiguation, "can specify table!column",
            "message?select=id,body,sender:person!sender(name),recipient:person!recipient(name)&id=lt.4",
            json: #"""
                [{"id":1,"body":"Hello Jane","sender":{"name":"John"},"recipient":{"name":"Jane"}},
                {"id":2,"body":"Hi John","sender":{"name":"Jane"},"recipient":{"name":"John"}},
                {"id":3,"body":"How are you doing?","sender":{"name":"John"},"recipient":{"name":"Jane"}}]
                """#),
        .get(
            disambiguation, "can embed by column and select the column at the same time, if aliased",
            "projects?id=in.(1,3)&select=id,name,client_id,client:client_id(id,name)",
            json:
                #"[{"id":1,"name":"Windows 7","client_id":1,"client":{"id":1,"name":"Microsoft"}},{"id":3,"name":"IOS","client_id":2,"client":{"id":2,"name":"Apple"}}]"#
        ),
        .get(
            "RangeSpec.hs", "limit works on all levels",
            "clients?select=id,projects(id,tasks(id))&order=id.asc&limit=1&projects.order=id.asc&projects.limit=2&projects.tasks.order=id.asc&projects.tasks.limit=1",
            json: #"[{"id":1,"projects":[{"id":1,"tasks":[{"id":1}]},{"id":2,"tasks":[{"id":3}]}]}]"#,
            expect: ["Content-Range": "0-0/*"]),
        .get(
            "AndOrParamsSpec.hs", "can do logic on the second level",
            "entities?child_entities.or=(id.eq.1,name.eq.child entity 2)&select=id,child_entities(id)",
            json:
                #"[{"id": 1, "child_entities": [ { "id": 1 }, { "id": 2 } ] }, { "id": 2, "child_entities": []},{"id": 3, "child_entities": []}, {"id": 4, "child_entities": []}]"#
        ),
        .send(
            "InsertSpec.hs", "includes related data after insert", .post,
            "projects?select=id,name,clients(id,name)",
            headers: ["Prefer": "return=representation, count=exact"],
            payload: #"{"id":6,"name":"New Project","client_id":2}"#, status: 201,
            json: #"[{"id":6,"name":"New Project","clients":{"id":2,"name":"Apple"}}]"#,
            expect: ["Location": nil, "Content-Range": "*/1"]),
        .send(
            "DeleteSpec.hs", "can embed (parent) entities", .delete,
            "tasks?id=eq.8&select=id,name,project:projects(id)",
            headers: ["Prefer": "return=representation"], status: 200,
            json: #"[{"id":8,"name":"Code OSX","project":{"id":4}}]"#, expect: ["Content-Range": "*/*"]),
    ]
}
