import Foundation

/// The tables, rows, grants and policies the ported cases read and write: a translation of the
/// parts of PostgREST's `test/spec/fixtures` (schema, data, privileges) they need, in `public`,
/// with PostgREST's anonymous role played by Supabase's `anon`.
enum FidelityFixture {
    /// The tables, functions, grants and policies, one statement per element (libpq runs one
    /// statement per call).
    static var schemaStatements: [String] { split(schema + grants) }

    /// The rows (and sequence positions), run again after each case that writes, once the
    /// tables are emptied.
    static var dataStatements: [String] { split(data) }

    private static func split(_ text: String) -> [String] {
        text.components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    private static let schema = """
        CREATE TYPE enum_menagerie_type AS ENUM ('foo', 'bar');
        CREATE TABLE items (id bigserial PRIMARY KEY);
        CREATE FUNCTION always_true(items) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT true $$;
        CREATE FUNCTION anti_id(items) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT $1.id * -1 $$;
        CREATE FUNCTION is_first(items) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT $1.id = 1 $$;
        CREATE TABLE complex_items (
            id bigint NOT NULL, name text, settings json, arr_data integer[],
            "field-with_sep" integer DEFAULT 1 NOT NULL);
        CREATE TABLE clients (id integer PRIMARY KEY, name text NOT NULL);
        CREATE TABLE projects (id integer PRIMARY KEY, name text NOT NULL, client_id integer REFERENCES clients(id));
        CREATE TABLE tasks (id integer PRIMARY KEY, name text NOT NULL, project_id integer REFERENCES projects(id));
        CREATE TABLE users (id integer PRIMARY KEY, name text NOT NULL);
        CREATE TABLE users_tasks (
            user_id integer NOT NULL REFERENCES users(id), task_id integer NOT NULL REFERENCES tasks(id),
            PRIMARY KEY (task_id, user_id));
        CREATE TABLE person (id integer PRIMARY KEY, name character varying NOT NULL);
        CREATE TABLE message (
            id integer PRIMARY KEY, body text NOT NULL DEFAULT '',
            sender bigint NOT NULL REFERENCES person(id), recipient bigint NOT NULL REFERENCES person(id));
        CREATE TABLE no_pk (a character varying, b character varying);
        CREATE TABLE simple_pk (k character varying PRIMARY KEY, extra character varying NOT NULL);
        CREATE TABLE compound_pk (k1 integer NOT NULL, k2 text NOT NULL, extra integer, PRIMARY KEY (k1, k2));
        CREATE TABLE articles (id integer PRIMARY KEY, body text, owner name NOT NULL DEFAULT current_user);
        CREATE TABLE employees (
            first_name text, last_name text, salary money, company text, occupation text,
            PRIMARY KEY (first_name, last_name));
        CREATE TABLE tiobe_pls (name text PRIMARY KEY, rank smallint);
        CREATE TABLE single_unique (unique_key integer UNIQUE NOT NULL, value text);
        CREATE TABLE compound_unique (key1 integer NOT NULL, key2 integer NOT NULL, value text, UNIQUE (key1, key2));
        CREATE TABLE only_pk (id integer PRIMARY KEY);
        CREATE TABLE surr_serial_upsert (id serial PRIMARY KEY, name text, extra text);
        CREATE TABLE menagerie (
            "integer" integer NOT NULL, double double precision NOT NULL, "varchar" character varying NOT NULL,
            "boolean" boolean NOT NULL, date date NOT NULL, money money NOT NULL, enum enum_menagerie_type NOT NULL);
        CREATE TABLE entities (id integer PRIMARY KEY, name text, arr integer[], text_search_vector tsvector);
        CREATE TABLE child_entities (id integer PRIMARY KEY, name text, parent_id integer REFERENCES entities(id));
        CREATE TABLE grandchild_entities (
            id integer PRIMARY KEY, name text, parent_id integer REFERENCES child_entities(id),
            or_starting_col text, and_starting_col text, jsonb_col jsonb);
        CREATE TABLE addresses (id int NOT NULL UNIQUE, address text NOT NULL);
        CREATE TABLE w_or_wo_comma_names (name text);
        CREATE TABLE chores (id int PRIMARY KEY, name text, done bool);
        CREATE TABLE nullable_integer (a integer);
        CREATE TABLE items_with_different_col_types (
            int_data integer, text_data text, bool_data bool, bin_data bytea, char_data character varying,
            date_data date, real_data real, time_data time);
        CREATE TABLE empty_string (id integer, string text);
        CREATE TABLE insertonly (v text NOT NULL);
        CREATE TABLE app_users (id integer PRIMARY KEY, email text UNIQUE NOT NULL, password text NOT NULL);
        CREATE TABLE empty_table (k character varying NOT NULL, extra character varying NOT NULL);
        CREATE TABLE json_table (data json);
        CREATE TABLE "withUnique" (uni text UNIQUE, extra text);
        CREATE TABLE auto_incrementing_pk (
            id serial PRIMARY KEY, nullable_string character varying,
            non_nullable_string character varying NOT NULL, inserted_at timestamptz DEFAULT now());
        CREATE TABLE rls_insertonly (id integer PRIMARY KEY, v text NOT NULL);
        ALTER TABLE rls_insertonly ENABLE ROW LEVEL SECURITY;
        CREATE POLICY insert_only ON rls_insertonly FOR INSERT TO anon WITH CHECK (true);
        ALTER TABLE projects RENAME CONSTRAINT projects_client_id_fkey TO client;
        ALTER TABLE tasks RENAME CONSTRAINT tasks_project_id_fkey TO project;
        CREATE TABLE comments (
            id integer PRIMARY KEY, commenter_id integer NOT NULL, user_id integer NOT NULL,
            task_id integer NOT NULL, content text NOT NULL);
        ALTER TABLE comments
            ADD CONSTRAINT "user" FOREIGN KEY (commenter_id) REFERENCES users(id),
            ADD CONSTRAINT comments_task_id_fkey FOREIGN KEY (task_id, user_id) REFERENCES users_tasks(task_id, user_id);
        CREATE TABLE orders (
            id int NOT NULL UNIQUE, name text NOT NULL, billing_address_id int REFERENCES addresses(id),
            shipping_address_id int REFERENCES addresses(id));
        ALTER TABLE orders RENAME CONSTRAINT orders_billing_address_id_fkey TO billing;
        ALTER TABLE orders RENAME CONSTRAINT orders_shipping_address_id_fkey TO shipping;
        CREATE TABLE family_tree (id text NOT NULL PRIMARY KEY, name text NOT NULL, parent text);
        ALTER TABLE family_tree ADD CONSTRAINT pptr FOREIGN KEY (parent) REFERENCES family_tree(id);
        CREATE TABLE managers (id integer PRIMARY KEY, name text);
        CREATE TABLE organizations (
            id integer PRIMARY KEY, name text, referee integer REFERENCES organizations(id),
            auditor integer REFERENCES organizations(id), manager_id integer REFERENCES managers(id));
        ALTER TABLE organizations RENAME CONSTRAINT organizations_manager_id_fkey TO manager;
        CREATE TABLE space (id integer PRIMARY KEY, name text);
        CREATE TABLE zone (id integer PRIMARY KEY, name text, zone_type_id integer, space_id integer REFERENCES space(id));
        CREATE TABLE agents (id int PRIMARY KEY, name text, department_id int);
        CREATE TABLE departments (id int PRIMARY KEY, name text, head_id int REFERENCES agents(id));
        ALTER TABLE agents ADD CONSTRAINT agents_department_id_fkey FOREIGN KEY (department_id) REFERENCES departments(id);

        """

    private static let data = """
        INSERT INTO items SELECT generate_series(1, 15);
        SELECT setval('items_id_seq', 15, true);
        INSERT INTO complex_items VALUES
            (1, 'One', '{"foo":{"int":1,"bar":"baz"}}', '{1}'), (2, 'Two', '{"foo":{"int":1,"bar":"baz"}}', '{1,2}');
        INSERT INTO complex_items VALUES (3, 'Three', '{"foo":{"int":1,"bar":"baz"}}', '{1,2,3}', 3);
        INSERT INTO clients VALUES (1, 'Microsoft'), (2, 'Apple');
        INSERT INTO projects VALUES (1, 'Windows 7', 1), (2, 'Windows 10', 1), (3, 'IOS', 2), (4, 'OSX', 2), (5, 'Orphan', NULL);
        INSERT INTO tasks VALUES
            (1, 'Design w7', 1), (2, 'Code w7', 1), (3, 'Design w10', 2), (4, 'Code w10', 2),
            (5, 'Design IOS', 3), (6, 'Code IOS', 3), (7, 'Design OSX', 4), (8, 'Code OSX', 4);
        INSERT INTO users VALUES (1, 'Angela Martin'), (2, 'Michael Scott'), (3, 'Dwight Schrute');
        INSERT INTO users_tasks VALUES (1, 1), (1, 2), (1, 3), (1, 4), (2, 5), (2, 6), (2, 7), (3, 1), (3, 5);
        INSERT INTO person VALUES (1, 'John'), (2, 'Jane'), (3, 'Jake'), (4, 'Julie');
        INSERT INTO message VALUES
            (1, 'Hello Jane', 1, 2), (2, 'Hi John', 2, 1), (3, 'How are you doing?', 1, 2),
            (4, 'Hey Julie', 3, 4), (5, 'What''s up Jake', 4, 3);
        INSERT INTO no_pk VALUES (NULL, NULL), ('1', '0'), ('2', '0');
        INSERT INTO simple_pk VALUES ('xyyx', 'u'), ('xYYx', 'v');
        INSERT INTO articles VALUES
            (1, 'No… It''s a thing; it''s like a plan, but with more greatness.', 'diogo'),
            (2, 'Stop talking, brain thinking. Hush.', 'diogo'),
            (3, 'It''s a fez. I wear a fez now. Fezes are cool.', 'diogo');
        INSERT INTO employees VALUES
            ('Frances M.', 'Roe', '24000', 'One-Up Realty', 'Author'),
            ('Daniel B.', 'Lyon', '36000', 'Dubrow''s Cafeteria', 'Packer'),
            ('Edwin S.', 'Smith', '48000', 'Pro Garden Management', 'Marine biologist');
        INSERT INTO tiobe_pls VALUES ('Java', 1), ('C', 2), ('Python', 4);
        INSERT INTO single_unique (unique_key, value) VALUES (1, 'A');
        INSERT INTO compound_unique (key1, key2, value) VALUES (1, 1, 'A');
        INSERT INTO only_pk VALUES (1), (2);
        INSERT INTO surr_serial_upsert (name, extra) VALUES ('value', 'existing value');
        INSERT INTO entities VALUES
            (1, 'entity 1', '{1}', '''bar'':2 ''foo'':1'), (2, 'entity 2', '{1,2}', '''baz'':1 ''qux'':2'),
            (3, 'entity 3', '{1,2,3}', NULL), (4, NULL, NULL, NULL);
        INSERT INTO child_entities VALUES
            (1, 'child entity 1', 1), (2, 'child entity 2', 1), (3, 'child entity 3', 2),
            (4, 'child entity 4', 1), (5, 'child entity 5', 1), (6, 'child entity 6', 2);
        INSERT INTO grandchild_entities VALUES
            (1, 'grandchild entity 1', 1, NULL, NULL, NULL), (2, 'grandchild entity 2', 1, NULL, NULL, NULL),
            (3, 'grandchild entity 3', 2, NULL, NULL, NULL),
            (4, '(grandchild,entity,4)', 2, NULL, NULL, '{"a": {"b":"foo"}}'),
            (5, '(grandchild,entity,5)', 2, NULL, NULL, '{"b":"bar"}');
        INSERT INTO addresses VALUES (1, 'address 1'), (2, 'address 2'), (3, 'address 3'), (4, 'address 4');
        INSERT INTO w_or_wo_comma_names VALUES
            ('Hebdon, John'), ('Williams, Mary'), ('Smith, Joseph'), ('David White'), ('Larry Thompson'),
            ('Double O Seven(007)'), ('"'), ('Double"Quote"McGraw"'), ('\\'), ('/\\Slash/\\Beast/\\');
        INSERT INTO chores VALUES (1, 'take out the garbage', true), (2, 'do the laundry', false), (3, 'wash the dishes', NULL);
        INSERT INTO nullable_integer VALUES (NULL);
        INSERT INTO "withUnique" VALUES ('nodup', 'blah');
        INSERT INTO items_with_different_col_types VALUES (1, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
        INSERT INTO empty_string VALUES (1, '');
        INSERT INTO app_users VALUES (1, 'test@123.com', 'pass'), (2, 'abc@123.com', 'pass'), (3, 'def@123.com', 'pass');
        SELECT setval('auto_incrementing_pk_id_seq', 1, true);
        SELECT setval('surr_serial_upsert_id_seq', 1, true);
        INSERT INTO comments VALUES (1, 1, 2, 6, 'Needs to be delivered ASAP');
        INSERT INTO orders VALUES (1, 'order 1', 1, 2), (2, 'order 2', 3, 4);
        INSERT INTO family_tree VALUES
            ('1', 'Parental Unit', NULL), ('2', 'Kid One', '1'), ('3', 'Kid Two', '1'), ('4', 'Grandkid One', '2'),
            ('5', 'Grandkid Two', '3');
        INSERT INTO managers VALUES
            (1, 'Referee Manager'), (2, 'Auditor Manager'), (3, 'Acme Manager'), (4, 'Umbrella Manager'),
            (5, 'Cyberdyne Manager'), (6, 'Oscorp Manager');
        INSERT INTO organizations VALUES
            (1, 'Referee Org', NULL, NULL, 1), (2, 'Auditor Org', NULL, NULL, 2), (3, 'Acme', 1, 2, 3),
            (4, 'Umbrella', 1, 2, 4), (5, 'Cyberdyne', 3, 4, 5), (6, 'Oscorp', 3, 4, 6);
        INSERT INTO space VALUES (1, 'space 1');
        INSERT INTO zone VALUES (1, 'zone 1', 2, 1), (2, 'zone 2', 2, 1), (3, 'store 3', 3, 1), (4, 'store 4', 3, 1);
        INSERT INTO agents (id, name) VALUES (1, 'agent 1'), (2, 'agent 2'), (3, 'agent 3'), (4, 'agent 4');
        INSERT INTO departments (id, name, head_id) VALUES (1, 'dep 1', 1), (2, 'dep 3', 3);
        UPDATE agents SET department_id = 1 WHERE id IN (1, 2);
        UPDATE agents SET department_id = 2 WHERE id IN (3, 4);

        """

    /// PostgREST's `privileges.sql` for its anonymous role, given to `anon`.
    private static let grants = """
        GRANT ALL ON ALL TABLES IN SCHEMA public TO anon;
        GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO anon;
        REVOKE ALL ON insertonly, app_users FROM anon;
        GRANT INSERT ON insertonly TO anon;
        GRANT SELECT (id, email) ON app_users TO anon;
        GRANT INSERT, UPDATE, DELETE ON app_users TO anon;

        """
}
