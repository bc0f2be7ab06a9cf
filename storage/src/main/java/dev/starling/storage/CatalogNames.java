package dev.starling.storage;

/**
 * How clients see the catalog's names: one catalog, {@value #CATALOG}; a table named
 * {@code ssb.lineorder} is table {@code lineorder} of schema {@code ssb}, an unqualified one
 * belongs to the empty schema. Flight SQL's metadata, {@code information_schema}, SHOW TABLES and
 * SQL name resolution all split names here.
 */
public final class CatalogNames {
    /** The one catalog's name. */
    public static final String CATALOG = "starling";
    /** The schema of the catalog's description, which no table or view of the user's may be in. */
    public static final String INFORMATION_SCHEMA = "information_schema";
    /** The tables of {@link #INFORMATION_SCHEMA}. */
    public static final java.util.List<String> INFORMATION_SCHEMA_TABLES = java.util.List.of("schemata", "tables", "columns",
            "views");

    private CatalogNames() { }

    /** Whether {@code qualified} (schema.name, in lower case) is one of {@link #INFORMATION_SCHEMA}'s tables. */
    public static boolean isInformationSchemaTable(String qualified) {
        return qualified.startsWith(INFORMATION_SCHEMA + ".")
                && INFORMATION_SCHEMA_TABLES.contains(qualified.substring(INFORMATION_SCHEMA.length() + 1));
    }

    /** The schema of the table named {@code tableName} ("" when unqualified). */
    public static String schemaOf(String tableName) {
        int dot = tableName.indexOf('.');
        return dot < 0 ? "" : tableName.substring(0, dot);
    }

    /** The name of the table named {@code tableName} within its schema. */
    public static String tableOf(String tableName) {
        return tableName.substring(tableName.indexOf('.') + 1);
    }
}
