/// The field types every jqc knows (docs/field-types.md), in the order it lists them.
public enum BuiltInFieldTypes {
    /// One value of each built-in type.
    public static let all: [any FieldType] = [
        TextField(), EmailField(), TextareaField(), NumberField(), DateField(),
        CheckboxField(), CheckboxGroupField(), RadioField(), SelectField(),
        RatingField(), PassFailField(), SignatureField(), ImageField(), TableField(),
        SectionField(), LabelField(),
    ]
}
