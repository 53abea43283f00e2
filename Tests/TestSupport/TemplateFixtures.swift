import Models

extension Fixtures {
    /// The template objects of a contract-shaped `{"templates": [...]}` file under `Fixtures/templates/`.
    public static func templateObjects(_ name: String) throws -> [JSONValue] {
        let document = try json("templates/\(name)")
        return document["templates"]?.arrayValue ?? []
    }

    /// The first template of a file under `Fixtures/templates/`, decoded, with every problem Models found.
    public static func template(_ name: String) throws -> Result<Template, SchemaErrors> {
        let objects = try templateObjects(name)
        guard let first = objects.first else {
            return .failure(SchemaErrors([SchemaProblem(message: "\(name) holds no templates")]))
        }
        return Template.decode(first)
    }
}
