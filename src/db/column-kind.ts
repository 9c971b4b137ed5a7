/**
 * How a column is stored. Kinds mirror Ironic's SQLAlchemy types: JsonEncodedDict/List are TEXT
 * holding JSON, Boolean is tinyint 0/1, DateTime is naive UTC.
 */
export type ColumnKind = 'int' | 'str' | 'bool' | 'datetime' | 'dict' | 'list';
