/// The field types every jqc knows (PRODUCT.md §5), in the order the product lists them.
public enum BuiltInFieldTypes {
    /// One value of each built-in type.
    public static let all: [any FieldType] = [
        TextField(), EmailField(), TextareaField(), NumberField(), DateField(),
        CheckboxField(), CheckboxGroupField(), RadioField(), SelectField(),
        RatingField(), PassFailField(), SignatureField(), ImageField(), TableField(),
        SectionField(), LabelField(),
    ]
}
