/// More embedded resources: `QuerySpec.hs` (many-to-many, composite keys, aliases, embed
/// filters, order and limits, PGRST108), `EmbedDisambiguationSpec.hs` (constraint and column
/// hints, self references, the 300 for an ambiguous embed, PGRST200), `EmbedInnerJoinSpec.hs`
/// (`!inner`, `!left`, counts) and `AggregateFunctionsSpec.hs` (`(count)`).
enum EmbedMoreSpecCases {
    static let query = "QuerySpec.hs"
    static let disambiguation = "EmbedDisambiguationSpec.hs"
    static let inner = "EmbedInnerJoinSpec.hs"

    /// A case of several reads, each with its status, body and headers.
    private static func reads(
        _ spec: String, _ name: String, _ steps: [(path: String, json: String, expect: [String: String?])]
    ) -> FidelityCase {
        FidelityCase(
            spec: spec, name: name,
            steps: steps.map {
                FidelityStep(
                    method: .get, path: $0.path, status: 200, expectedBody: .json($0.json),
                    expectedHeaders: $0.expect)
            })
    }

    /// A HEAD counting rows, answering `range`.
    private static func head(_ spec: String, _ name: String, _ path: String, range: String) -> FidelityCase {
        FidelityCase(
            spec: spec, name: name,
            steps: [
                FidelityStep(
                    method: .head, path: path, headers: ["Prefer": "count=exact"], status: 200,
                    expectedBody: .empty,
                    expectedHeaders: ["Content-Range": range])
            ])
    }

    static let cases: [FidelityCase] = queryCases + disambiguationCases + innerCases

    static let queryCases: [FidelityCase] = [
        .get(
            query, "requesting many<->many relation", "tasks?select=id,users(id)",
            json:
                #"[{"id":1,"users":[{"id":1},{"id":3}]},{"id":2,"users":[{"id":1}]},{"id":3,"users":[{"id":1}]},{"id":4,"users":[{"id":1}]},{"id":5,"users":[{"id":2},{"id":3}]},{"id":6,"users":[{"id":2}]},{"id":7,"users":[{"id":2}]},{"id":8,"users":[]}]"#
        ),
        .get(
            query, "requesting parents and filtering parent columns",
            "projects?id=eq.1&select=id, name, clients(id)",
            json: #"[{"id":1,"name":"Windows 7","clients":{"id":1}}]"#),
        .get(
            query, "requesting parent and specifying/renaming one key of the composite primary key",
            "comments?select=*,users_tasks(userId:user_id)",
            json:
                #"[{"id":1,"commenter_id":1,"user_id":2,"task_id":6,"content":"Needs to be delivered ASAP","users_tasks":{"userId": 2}}]"#
        ),
        .get(
            query, "requesting children with composite key",
            "users_tasks?user_id=eq.2&task_id=eq.6&select=*, comments(content)",
            json: #"[{"user_id":2,"task_id":6,"comments":[{"content":"Needs to be delivered ASAP"}]}]"#),
        .get(
            query, "ordering embeded entities with alias",
            "projects?id=eq.1&select=id, name, the_tasks:tasks(id, name)&the_tasks.order=name.asc",
            json:
                #"[{"id":1,"name":"Windows 7","the_tasks":[{"id":2,"name":"Code w7"},{"id":1,"name":"Design w7"}]}]"#
        ),
        .get(
            query, "ordering embeded entities, two levels",
            "projects?id=eq.1&select=id, name, tasks(id, name, users(id, name))&tasks.order=name.asc&tasks.users.order=name.desc",
            json:
                #"[{"id":1,"name":"Windows 7","tasks":[{"id":2,"name":"Code w7","users":[{"id":1,"name":"Angela Martin"}]},{"id":1,"name":"Design w7","users":[{"id":3,"name":"Dwight Schrute"},{"id":1,"name":"Angela Martin"}]}]}]"#
        ),
        .get(
            query, "ordering embeded parents does not break things",
            "projects?id=eq.1&select=id, name, clients(id, name)&clients.order=name.asc",
            json: #"[{"id":1,"name":"Windows 7","clients":{"id":1,"name":"Microsoft"}}]"#),
        .get(
            query, "filters, orders and limits aliased embeded entities using the target name",
            "projects?id=eq.1&select=id, name, the_tasks:tasks(id, name)&tasks.name=like.Code*&tasks.order=name.asc&tasks.limit=1",
            json: #"[{"id":1,"name":"Windows 7","the_tasks":[{"id":2,"name":"Code w7"}]}]"#),
        .get(
            query, "aliased embeds works with child relation",
            "space?select=id,zones:zone(id,name),stores:zone(id,name)&zones.zone_type_id=eq.2&stores.zone_type_id=eq.3",
            json:
                #"[{"id":1,"zones":[{"id":1,"name":"zone 1"},{"id":2,"name":"zone 2"}],"stores":[{"id":3,"name":"store 3"},{"id":4,"name":"store 4"}]}]"#
        ),
        .get(
            query, "aliased embeds works with an aliased child plus non aliased child",
            "projects?select=id,name,designTasks:tasks(name,users(id,name))&designTasks.name=like.*Design*&designTasks.users.id=in.(1,2)",
            json: #"""
                [{"id":1,"name":"Windows 7","designTasks":[{"name":"Design w7","users":[{"id":1,"name":"Angela Martin"}]}]},
                {"id":2,"name":"Windows 10","designTasks":[{"name":"Design w10","users":[{"id":1,"name":"Angela Martin"}]}]},
                {"id":3,"name":"IOS","designTasks":[{"name":"Design IOS","users":[{"id":2,"name":"Michael Scott"}]}]},
                {"id":4,"name":"OSX","designTasks":[{"name":"Design OSX","users":[{"id":2,"name":"Michael Scott"}]}]},
                {"id":5,"name":"Orphan","designTasks":[]}]
                """#),
        .get(
            query, "aliased embeds works with two aliased children embeds plus and/or",
            "entities?select=id,children:child_entities(id,gChildren:grandchild_entities(id))&children.and=(id.in.(1,2,3))&children.gChildren.or=(id.eq.1,id.eq.2)",
            json: #"""
                [{"id":1,"children":[{"id":1,"gChildren":[{"id":1},{"id":2}]},{"id":2,"gChildren":[]}]},
                {"id":2,"children":[{"id":3,"gChildren":[]}]},{"id":3,"children":[]},{"id":4,"children":[]}]
                """#),
        .get(
            query, "errs when the embedded resource doesn't exist and an embedded filter is applied to it",
            "clients?select=*&non_existent_projects.name=like.*NonExistent*", status: 400,
            json:
                #"{"hint":"Verify that 'non_existent_projects' is included in the 'select' query parameter.","details":null,"code":"PGRST108","message":"'non_existent_projects' is not an embedded resource in this request"}"#
        ),
        .get(
            query, "errs when the embedded resource doesn't exist (second level)",
            "clients?select=id,projects(id,tasks(id,name))&projects.tasks2.name=like.Design*", status: 400,
            json:
                #"{"hint":"Verify that 'tasks2' is included in the 'select' query parameter.","details":null,"code":"PGRST108","message":"'tasks2' is not an embedded resource in this request"}"#
        ),
        .get(
            "AggregateFunctionsSpec.hs", "returns the embedded count of another resource",
            "clients?select=name,projects(count)",
            json:
                #"[{"name":"Microsoft","projects":[{"count": 2}]}, {"name":"Apple","projects":[{"count": 2}]}]"#
        ),
    ]

    static let disambiguationCases: [FidelityCase] = [
        .get(
            disambiguation, "errs on an ambiguous embed that has a circular reference",
            "agents?select=*,departments(*)",
            status: 300,
            json: #"""
                {"details":[
                {"cardinality":"one-to-many","relationship":"departments_head_id_fkey using agents(id) and departments(head_id)","embedding":"agents with departments"},
                {"cardinality":"many-to-one","relationship":"agents_department_id_fkey using agents(department_id) and departments(id)","embedding":"agents with departments"}],
                "hint":"Try changing 'departments' to one of the following: 'departments!departments_head_id_fkey', 'departments!agents_department_id_fkey'. Find the desired relationship in the 'details' key.",
                "message":"Could not embed because more than one relationship was found for 'agents' and 'departments'","code":"PGRST201"}
                """#),
        .get(
            disambiguation, "can embed by FK name", "projects?id=in.(1,3)&select=id,name,client(id,name)",
            json:
                #"[{"id":1,"name":"Windows 7","client":{"id":1,"name":"Microsoft"}},{"id":3,"name":"IOS","client":{"id":2,"name":"Apple"}}]"#
        ),
        .get(
            disambiguation, "can embed by FK name and select the FK column at the same time",
            "projects?id=in.(1,3)&select=id,name,client_id,client(id,name)",
            json:
                #"[{"id":1,"name":"Windows 7","client_id":1,"client":{"id":1,"name":"Microsoft"}},{"id":3,"name":"IOS","client_id":2,"client":{"id":2,"name":"Apple"}}]"#
        ),
        .get(
            disambiguation, "embeds by using two fks pointing to the same table",
            "orders?id=eq.1&select=id, name, billing(address), shipping(address)",
            json:
                #"[{"id":1,"name":"order 1","billing":{"address": "address 1"},"shipping":{"address": "address 2"}}]"#
        ),
        .get(
            disambiguation, "fails if the fk is not known",
            "message?select=id,sender:person!space(name)&id=lt.4",
            status: 400, body: .errorCode("PGRST200")),
        .get(
            disambiguation, "can request a parent with fk", "comments?select=content,user(name)",
            json: #"[{"content":"Needs to be delivered ASAP","user":{"name":"Angela Martin"}}]"#),
        .get(
            disambiguation, "can specify a table!fk hint and request children 2 levels",
            "clients?id=eq.1&select=id,projects:projects!client(id,tasks(id))",
            json:
                #"[{"id":1,"projects":[{"id":1,"tasks":[{"id":1},{"id":2}]},{"id":2,"tasks":[{"id":3},{"id":4}]}]}]"#
        ),
        .get(
            disambiguation, "can embed by column", "projects?id=in.(1,3)&select=id,name,client_id(id,name)",
            json:
                #"[{"id":1,"name":"Windows 7","client_id":{"id":1,"name":"Microsoft"}},{"id":3,"name":"IOS","client_id":{"id":2,"name":"Apple"}}]"#
        ),
        .get(
            disambiguation, "embeds by using two columns pointing to the same table",
            "orders?id=eq.1&select=id, name, billing_address_id(id), shipping_address_id(id)",
            json: #"[{"id":1,"name":"order 1","billing_address_id":{"id":1},"shipping_address_id":{"id":2}}]"#
        ),
        .get(
            disambiguation, "embeds by using a column and a fk pointing to the same table",
            "orders?id=eq.1&select=id, name, billing_address_id(id), shipping(id)",
            json: #"[{"id":1,"name":"order 1","billing_address_id":{"id":1},"shipping":{"id":2}}]"#),
        .get(
            disambiguation, "embeds parents recursively",
            "family_tree?id=in.(3,4)&select=id,parent(id,name,parent(*))&order=id",
            json: #"""
                [{"id":"3","parent":{"id":"1","name":"Parental Unit","parent":null}},
                {"id":"4","parent":{"id":"2","name":"Kid One","parent":{"id":"1","name":"Parental Unit","parent":null}}}]
                """#),
        .get(
            disambiguation, "embeds children recursively",
            "family_tree?id=eq.1&select=id,name, children:family_tree!parent(id,name,children:family_tree!parent(id,name))",
            json: #"""
                [{"id":"1","name":"Parental Unit","children":[
                {"id":"2","name":"Kid One","children":[{"id":"4","name":"Grandkid One"}]},
                {"id":"3","name":"Kid Two","children":[{"id":"5","name":"Grandkid Two"}]}]}]
                """#),
        .get(
            disambiguation, "embeds parent and then embeds children",
            "family_tree?id=eq.2&select=id,name,parent(id,name,children:family_tree!parent(id,name))",
            json: #"""
                [{"id":"2","name":"Kid One","parent":{"id":"1","name":"Parental Unit",
                "children":[{"id":"2","name":"Kid One"},{"id":"3","name":"Kid Two"}]}}]
                """#),
        .get(
            disambiguation, "two self reference foreign keys: embeds parents",
            "organizations?select=id,name,referee(id,name),auditor(id,name)&id=eq.3",
            json:
                #"[{"id":3,"name":"Acme","referee":{"id":1,"name":"Referee Org"},"auditor":{"id":2,"name":"Auditor Org"}}]"#
        ),
        reads(
            disambiguation, "two self reference foreign keys: embeds children",
            [
                (
                    "organizations?select=id,name,refereeds:organizations!referee(id,name)&id=eq.1",
                    #"[{"id":1,"name":"Referee Org","refereeds":[{"id":3,"name":"Acme"},{"id":4,"name":"Umbrella"}]}]"#,
                    [:]
                ),
                (
                    "organizations?select=id,name,auditees:organizations!auditor(id,name)&id=eq.2",
                    #"[{"id":2,"name":"Auditor Org","auditees":[{"id":3,"name":"Acme"},{"id":4,"name":"Umbrella"}]}]"#,
                    [:]
                ),
            ]),
        .get(
            disambiguation, "embeds other relations(manager) besides the self reference",
            "organizations?select=name,manager(name),auditees:organizations!auditor(name,manager(name),refereeds:organizations!referee(name,manager(name)))&id=eq.2",
            json: #"""
                [{"name":"Auditor Org","manager":{"name":"Auditor Manager"},"auditees":[
                {"name":"Acme","manager":{"name":"Acme Manager"},"refereeds":[
                {"name":"Cyberdyne","manager":{"name":"Cyberdyne Manager"}},{"name":"Oscorp","manager":{"name":"Oscorp Manager"}}]},
                {"name":"Umbrella","manager":{"name":"Umbrella Manager"},"refereeds":[]}]}]
                """#),
    ]

    static let innerCases: [FidelityCase] = [
        .get(
            inner, "ignores null embeddings while the default left join doesn't",
            "projects?select=id,clients!inner(id)",
            json:
                #"[{"id":1,"clients":{"id":1}},{"id":2,"clients":{"id":1}},{"id":3,"clients":{"id":2}},{"id":4,"clients":{"id":2}}]"#
        ),
        .get(
            inner, "the default left join keeps null embeddings (!left)",
            "projects?select=id,clients!left(id)",
            json:
                #"[{"id":1,"clients":{"id":1}},{"id":2,"clients":{"id":1}},{"id":3,"clients":{"id":2}},{"id":4,"clients":{"id":2}},{"id":5,"clients":null}]"#
        ),
        head(
            inner, "counts only the rows an inner embed keeps", "projects?select=id,clients!inner(id)",
            range: "0-3/4"),
        .get(
            inner, "filters source tables when the embedded table is filtered",
            "projects?select=id,clients!inner(id)&clients.id=eq.1",
            json: #"[{"id":1,"clients":{"id":1}},{"id":2,"clients":{"id":1}}]"#),
        head(
            inner, "counts source rows when the embedded table is filtered",
            "projects?select=id,clients!inner(id)&clients.id=eq.1", range: "0-1/2"),
        .get(
            inner, "filters source tables when a two levels below embedded table is filtered",
            "tasks?select=id,projects!inner(id,clients!inner(id))&projects.clients.id=eq.2",
            json: #"""
                [{"id":5,"projects":{"id":3,"clients":{"id":2}}},{"id":6,"projects":{"id":3,"clients":{"id":2}}},
                {"id":7,"projects":{"id":4,"clients":{"id":2}}},{"id":8,"projects":{"id":4,"clients":{"id":2}}}]
                """#),
        .get(
            inner, "only affects the source table rows if his direct embedding is an inner join",
            "tasks?select=id,projects(id,clients!inner(id))&projects.clients.id=eq.2&order=id",
            json: #"""
                [{"id":1,"projects":null},{"id":2,"projects":null},{"id":3,"projects":null},{"id":4,"projects":null},
                {"id":5,"projects":{"id":3,"clients":{"id":2}}},{"id":6,"projects":{"id":3,"clients":{"id":2}}},
                {"id":7,"projects":{"id":4,"clients":{"id":2}}},{"id":8,"projects":{"id":4,"clients":{"id":2}}}]
                """#),
        .get(
            inner, "ignores empty array embeddings while the default left join doesn't",
            "entities?select=id,child_entities!inner(id)",
            json:
                #"[{"id":1,"child_entities":[{"id":1},{"id":2},{"id":4},{"id":5}]},{"id":2,"child_entities":[{"id":3},{"id":6}]}]"#
        ),
        reads(
            "RelatedQueriesSpec.hs", "related conditions through null operator on embed: many-to-one",
            [
                (
                    "projects?select=name,clients()&clients=not.is.null",
                    #"[{"name":"Windows 7"},{"name":"Windows 10"},{"name":"IOS"},{"name":"OSX"}]"#, [:]
                ),
                ("projects?select=name,clients()&clients=is.null", #"[{"name":"Orphan"}]"#, [:]),
            ]),
        reads(
            "RelatedQueriesSpec.hs", "related conditions through null operator on embed: one-to-many",
            [
                (
                    "entities?select=name,child_entities()&child_entities=not.is.null",
                    #"[{"name":"entity 1"},{"name":"entity 2"}]"#, [:]
                ),
                (
                    "entities?select=name,childs:child_entities()&childs=is.null",
                    #"[{"name":"entity 3"},{"name":null}]"#, [:]
                ),
            ]),
    ]
}
