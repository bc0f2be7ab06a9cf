package dev.starling.engine.data;

import dev.starling.storage.Catalog;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableSchema;
import java.util.function.BinaryOperator;

/**
 * The tables and views a data statement names in a session whose schema is {@code schema} ({@code
 * SET schema}; "" for none), as queries read them: an unqualified name that the schema has a
 * table or view of is that one, any other the default schema's; what CREATE makes under an
 * unqualified name goes into the schema, and GENERATE without SCHEMA too. A view's query is kept
 * with the session's names written out ({@code viewQuery}), so that any session reads it alike.
 */
public record SessionNames(Catalog catalog, String schema, BinaryOperator<String> viewQuery) {

    /** {@code statement} with the names it gives written as the catalog holds them. */
    public DataStatement qualify(DataStatement statement) {
        if (schema.isEmpty()) {
            return statement;
        }
        return switch (statement) {
            case DataStatement.CreateTable c -> new DataStatement.CreateTable(created(c.schema()), c.ifNotExists());
            case DataStatement.DropTable d -> new DataStatement.DropTable(existing(d.table()), d.ifExists());
            case DataStatement.CreateView v -> new DataStatement.CreateView(made(v.view()), v.columns(),
                    viewQuery.apply(v.query(), schema), v.orReplace());
            case DataStatement.DropView d -> new DataStatement.DropView(existing(d.view()), d.ifExists());
            case DataStatement.Insert i -> new DataStatement.Insert(existing(i.table()), i.columns(), i.query());
            case DataStatement.Load l -> new DataStatement.Load(existing(l.table()), l.file(), l.format());
            case DataStatement.SetGpuResident r -> new DataStatement.SetGpuResident(existing(r.table()), r.resident());
            case DataStatement.AnalyzeConflicts a -> new DataStatement.AnalyzeConflicts(existing(a.table()), a.column(),
                    a.mode(), a.window(), a.budget());
            case DataStatement.Describe d -> new DataStatement.Describe(existing(d.table()));
            case DataStatement.Generate g -> g.schema().isEmpty()
                    ? new DataStatement.Generate(g.benchmark(), g.scaleFactor(), schema) : g;
            // a COPY's query is planned with the session's settings, its schema among them
            case DataStatement.CopyTo c -> c;
            case DataStatement.SetOption o -> o;
            case DataStatement.ShowTables s -> s;
            case DataStatement.ShowSchemas s -> s;
            case DataStatement.GrantRole g -> g;
        };
    }

    /** The table or view {@code name} means: the schema's where it has one so named, else as written. */
    public String existing(String name) {
        if (schema.isEmpty() || name.indexOf('.') >= 0) {
            return name;
        }
        String inSchema = schema + "." + name;
        return catalog.table(inSchema).isPresent() || catalog.view(inSchema).isPresent() ? inSchema : name;
    }

    /**
     * The table an upload that makes it where it is missing writes: the one {@link #existing} finds,
     * else the one it makes in the schema.
     */
    public String target(String name) {
        String found = existing(name);
        // a qualified name is found as written, and made so
        return schema.isEmpty() || !found.equals(name) || catalog.table(name).isPresent() ? found : made(name);
    }

    /** The name a table or view made as {@code name} gets: in the schema unless qualified. */
    private String made(String name) {
        return name.indexOf('.') >= 0 ? name : schema + "." + name;
    }

    private TableSchema created(TableSchema table) {
        return new TableSchema(made(table.name()), table.columns(), table.primaryKey(), table.foreignKeys().stream()
                .map(fk -> new ForeignKey(fk.columns(), existing(fk.referencedTable()), fk.referencedColumns()))
                .toList());
    }
}
