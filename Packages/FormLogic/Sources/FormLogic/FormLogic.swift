import FieldTypes
import Models

/// The logic of one template, compiled once: every field's `visible_when`,
/// `required_when` and `calculate` parsed, the fields they read resolved
/// into a dependency graph, and an evaluation order (dependencies first).
///
/// A pure value shared by `jqc` and `jqc-server`: `evaluate` gives which
/// fields are visible and required and what each calculated field holds;
/// `updating` re-evaluates only what depends on one changed answer.
/// Malformed logic never traps: such a field is shown as unsupported.
public struct FormLogic: Sendable {
    /// The form this logic belongs to.
    public let schema: FormSchema
    let registry: FieldTypeRegistry
    let types: [any FieldType]
    /// Each field's type's operators and answerability, asked once.
    let operators: [Set<LogicOperator>]
    let answerable: [Bool]
    let rules: [FieldRules]
    /// Field id to position in `schema.fields`.
    let positions: [FieldID: Int]
    /// For each field, the heading whose `visible_when` covers it.
    let sections: [Int?]
    /// Positions in evaluation order: a field after every field its visibility or calculation reads.
    let order: [Int]
    /// For each field, the fields whose visibility, requirement or calculation read it.
    let dependents: [[Int]]
    /// Fields whose visibility or calculation depend on themselves (refused by lint).
    let cyclic: [[Int]]

    /// Compiles the logic of `schema`, resolving each field's type in `registry`.
    public init(schema: FormSchema, registry: FieldTypeRegistry) {
        self.schema = schema
        self.registry = registry
        let fields = schema.fields
        types = fields.map(registry.resolve)
        operators = types.map(\.logicOperators)
        answerable = types.map(\.isAnswerable)
        rules = fields.map(FieldRules.init)
        var positions: [FieldID: Int] = [:]
        for (i, field) in fields.enumerated() where positions[field.id] == nil { positions[field.id] = i }
        self.positions = positions

        var sections: [Int?] = Array(repeating: nil, count: fields.count)
        var heading: Int?
        for i in fields.indices {
            if types[i].startsSection { heading = i } else { sections[i] = heading }
        }
        self.sections = sections

        // Edges: what a field's visibility or value reads, and what its requirement reads.
        var reads: [[Int]] = Array(repeating: [], count: fields.count)
        var dependents: [Set<Int>] = Array(repeating: [], count: fields.count)
        for i in fields.indices {
            let rule = rules[i]
            var evaluated = Set<Int>()
            if let section = sections[i] { evaluated.insert(section) }
            if rule.unsupported == nil {
                let refs = (rule.visibleWhen?.fieldReferences ?? []) + (rule.calculate?.fieldReferences ?? [])
                evaluated.formUnion(refs.compactMap { positions[$0] })
                for j in (rule.requiredWhen?.fieldReferences ?? []).compactMap({ positions[$0] }) {
                    dependents[j].insert(i)
                }
            }
            reads[i] = evaluated.sorted()
            for j in evaluated { dependents[j].insert(i) }
        }
        self.dependents = dependents.map { $0.sorted() }
        (order, cyclic) = Self.orderAndCycles(reads)
    }

    /// Kahn's algorithm (ties in form order) for the order, Tarjan's for the
    /// cycles; fields in a cycle come last, in form order.
    private static func orderAndCycles(_ reads: [[Int]]) -> ([Int], [[Int]]) {
        let n = reads.count
        var pending = reads.map(\.count)
        var readers: [[Int]] = Array(repeating: [], count: n)
        for i in 0..<n { for j in reads[i] { readers[j].append(i) } }
        var ready = (0..<n).filter { pending[$0] == 0 }
        var order: [Int] = []
        order.reserveCapacity(n)
        var cursor = 0
        while cursor < ready.count {
            let i = ready[cursor]
            cursor += 1
            order.append(i)
            for reader in readers[i] {
                pending[reader] -= 1
                if pending[reader] == 0 { ready.append(reader) }
            }
        }
        guard order.count < n else { return (order, []) }
        let placed = Set(order)
        order += (0..<n).filter { !placed.contains($0) }
        return (order, stronglyConnected(reads).filter { $0.count > 1 || reads[$0[0]].contains($0[0]) })
    }

    /// Tarjan's strongly connected components, each sorted in form order.
    private static func stronglyConnected(_ reads: [[Int]]) -> [[Int]] {
        let n = reads.count
        var index = Array(repeating: -1, count: n), low = Array(repeating: 0, count: n)
        var onStack = Array(repeating: false, count: n), stack: [Int] = [], next = 0
        var components: [[Int]] = []
        for root in 0..<n where index[root] < 0 {
            // Iterative depth-first search: (node, next edge to follow).
            var work: [(Int, Int)] = [(root, 0)]
            index[root] = next; low[root] = next; next += 1
            stack.append(root); onStack[root] = true
            while let (v, edge) = work.last {
                if edge < reads[v].count {
                    work[work.count - 1].1 += 1
                    let w = reads[v][edge]
                    if index[w] < 0 {
                        index[w] = next; low[w] = next; next += 1
                        stack.append(w); onStack[w] = true
                        work.append((w, 0))
                    } else if onStack[w] {
                        low[v] = min(low[v], index[w])
                    }
                    continue
                }
                work.removeLast()
                if let (parent, _) = work.last { low[parent] = min(low[parent], low[v]) }
                if low[v] == index[v] {
                    var component: [Int] = []
                    while let w = stack.popLast() {
                        onStack[w] = false
                        component.append(w)
                        if w == v { break }
                    }
                    components.append(component.sorted())
                }
            }
        }
        return components.sorted { $0[0] < $1[0] }
    }

    /// True when no field of the form has a logic key.
    public var isEmpty: Bool { rules.allSatisfy(\.isEmpty) }

    /// The ids of fields with `calculate` that this build can evaluate.
    public var calculatedFields: [FieldID] {
        schema.fields.indices.filter { rules[$0].calculate != nil && rules[$0].unsupported == nil }.map {
            schema.fields[$0].id
        }
    }

    /// True when the field's answer is computed; a person never types it.
    public func isCalculated(_ id: FieldID) -> Bool {
        positions[id].map { rules[$0].calculate != nil } ?? false
    }

    /// Why this build cannot evaluate the field's logic, or nil.
    public func unsupportedReason(_ id: FieldID) -> String? {
        positions[id].flatMap { rules[$0].unsupported }
    }
}
