import FieldTypes
