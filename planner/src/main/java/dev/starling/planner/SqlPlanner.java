package dev.starling.planner;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.planner.optimize.LogicalOptimizer;
import dev.starling.planner.rel.StarlingRel;
import dev.starling.planner.schema.CatalogSchema;
import dev.starling.planner.stats.StarlingMetadata;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.type.StarlingTypeFactory;
import dev.starling.planner.type.StarlingTypeSystem;
import dev.starling.storage.Catalog;
import dev.starling.storage.CatalogNames;
import dev.starling.planner.sql.StarlingOperators;
import dev.starling.planner.sql.StarlingTypeCoercion;
import dev.starling.planner.sql.StarlingValidator;
import dev.starling.planner.sql.ResultColumnNames;
import dev.starling.planner.sql.WideIntegerLiterals;
import dev.starling.planner.sql.ViewExpansion;
import dev.starling.exec.plan.Field;
import dev.starling.planner.type.TypeMapping;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.DataContexts;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;

/**
 * Plans SQL over a catalog: parse, validate, convert, optimize into the STARLING convention and
 * translate into the exec plan contract. Each call plans against the catalog's current tables and
 * keeps nothing between calls. Thread-safe.
 */
public final class SqlPlanner {
    /**
     * Lenient SQL, close to DuckDB's (GROUP BY alias or ordinal, {@code !=}, {@code %}), where CHAR
     * results of different lengths (CASE, UNION) become VARCHAR without padding.
     */
    private static final SqlConformance CONFORMANCE = new SqlDelegatingConformance(SqlConformanceEnum.LENIENT) {
        @Override
        public boolean shouldConvertRaggedUnionTypesToVarying() {
            return true;
        }
    };

    /**
     * Calcite's Planner takes the validator's conformance and name matching from a connection
     * config; the only way to give it a conformance that is not an enum constant is to override it.
     */
    private static final CalciteConnectionConfigImpl CONNECTION_CONFIG = new CalciteConnectionConfigImpl(properties()) {
        @Override
        public SqlConformance conformance() {
            return CONFORMANCE;
        }
    };

    private static Properties properties() {
        Properties p = new Properties();
        p.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        p.setProperty(CalciteConnectionProperty.CONFORMANCE.camelName(), SqlConformanceEnum.LENIENT.name());
        // NULLs sort last in both directions, as in DuckDB. The Planner's validator takes its NULL
        // order from this connection config and ignores the one of the validator config.
        p.setProperty(CalciteConnectionProperty.DEFAULT_NULL_COLLATION.camelName(), NullCollation.LAST.name());
        return p;
    }

    private final Catalog catalog;
    private final java.util.concurrent.atomic.AtomicLong optimizations = new java.util.concurrent.atomic.AtomicLong();

    public SqlPlanner(Catalog catalog) {
        this.catalog = catalog;
    }

    /**
     * A planned query: Calcite's physical plan (for diagnostics), the exec plan it translates to,
     * and the optimizer's row estimates for that plan's nodes.
     */
    public record Plan(RelNode physical, PlanNode plan, PlanEstimates estimates) { }

    /** {@code sql} planned, its unqualified names the default schema's. */
    public Plan plan(String sql) {
        return plan(sql, "");
    }

    /** {@code sql} planned, an unqualified name {@code schema}'s table or view where it has one of that name. */
    public Plan plan(String sql, String schema) {
        Optimized o = optimize(sql, schema);
        return translate(o.physical(), o.rowType());
    }

    /**
     * {@code sql}, whose parameter markers ({@code ?}) stand for values bound later, optimized once
     * into a physical plan with the markers in it: binding values then only puts them in and
     * translates ({@link PlanTemplate#bind}), with no parsing, validation or optimization.
     */
    public PlanTemplate template(String sql, String schema) {
        Optimized o = optimize(sql, schema);
        Signature signature = signature(o.rowType(), o.parameterRowType());
        return new PlanTemplate(o.physical(), o.rowType(), signature.fields(), signature.parameters());
    }

    /** How many statements Calcite has optimized: a plan cache hit and a bound template optimize none. */
    public long optimizations() {
        return optimizations.get();
    }

    /** A query optimized: its physical plan, its result's row type, and the types of its parameters. */
    private record Optimized(RelNode physical, RelDataType rowType, RelDataType parameterRowType) { }

    private Optimized optimize(String sql, String schema) {
        FrameworkConfig config = config();
        JavaTypeFactory types = new StarlingTypeFactory();
        SqlNode parsed = ViewExpansion.expand(ResultColumnNames.name(sql, WideIntegerLiterals.rewrite(parse(sql))),
                catalog, schema, SqlPlanner::parseView);
        if (!parsed.getKind().belongsTo(SqlKind.QUERY)) {
            throw StarlingSqlException.unsupported("statement " + parsed.getKind().sql
                    + " (only queries are supported)");
        }
        CalciteCatalogReader reader = catalogReader(config, types);
        SqlValidator validator = validator(config, reader, types);
        SqlNode validated = validate(validator, parsed);
        RelNode logical = logical(config, reader, validator, validated);
        // Every estimate from here on (join order, build sides) comes from the stored statistics.
        logical.getCluster().setMetadataProvider(StarlingMetadata.PROVIDER);
        logical.getCluster().invalidateMetadataQuery();
        optimizations.incrementAndGet();
        return new Optimized(physical(config, logical), validator.getValidatedNodeType(validated),
                validator.getParameterRowType(validated));
    }

    /** The exec plan of Calcite's physical plan {@code physical}, whose result has type {@code rowType}. */
    static Plan translate(RelNode physical, RelDataType rowType) {
        PlanTranslator translator = new PlanTranslator(physical.getCluster().getRexBuilder());
        PlanNode plan = translator.translateRoot(physical, rowType);
        return new Plan(physical, plan, translator.estimates());
    }

    /**
     * The logical plan of {@code validated}: converted, its types flattened and its correlated
     * subqueries decorrelated, in a cluster of its own whose planner is Volcano with Starling's
     * conventions. Starling's views are expanded before validation, so conversion meets none.
     */
    private static RelNode logical(FrameworkConfig config, CalciteCatalogReader reader, SqlValidator validator,
                                   SqlNode validated) {
        VolcanoPlanner volcano = new VolcanoPlanner(null, config.getContext());
        volcano.setExecutor(config.getExecutor());
        volcano.addRelTraitDef(ConventionTraitDef.INSTANCE);
        RelOptCluster cluster = RelOptCluster.create(volcano, new RexBuilder(reader.getTypeFactory()));
        SqlToRelConverter.Config conversion = config.getSqlToRelConverterConfig().withTrimUnusedFields(false);
        SqlToRelConverter converter = new SqlToRelConverter(NO_CALCITE_VIEWS, validator, reader, cluster,
                config.getConvertletTable(), conversion);
        RelRoot root = converter.convertQuery(validated, false, true);
        RelNode flat = converter.flattenTypes(root.rel, true);
        return RelDecorrelator.decorrelateQuery(root.withRel(flat).project(),
                conversion.getRelBuilderFactory().create(cluster, null));
    }

    /**
     * {@code logical} optimized into the STARLING convention by the program, its metadata cached
     * per planner run as Calcite's own planner does.
     */
    @SuppressWarnings("deprecation") // CachingRelMetadataProvider: what Calcite's Planner wraps the provider in
    private static RelNode physical(FrameworkConfig config, RelNode logical) {
        RelOptCluster cluster = logical.getCluster();
        cluster.setMetadataProvider(new org.apache.calcite.rel.metadata.CachingRelMetadataProvider(
                cluster.getMetadataProvider(), cluster.getPlanner()));
        return config.getPrograms().get(0).run(cluster.getPlanner(), logical,
                logical.getTraitSet().replace(StarlingRel.CONVENTION), List.of(), List.of());
    }

    /** Calcite's views would be expanded through this; Starling expands its own before validation. */
    private static final RelOptTable.ViewExpander NO_CALCITE_VIEWS = (rowType, queryString, schemaPath, viewPath) -> {
        throw new IllegalStateException("Starling's views are expanded before validation");
    };

    private static CalciteCatalogReader catalogReader(FrameworkConfig config, JavaTypeFactory types) {
        return new CalciteCatalogReader(CalciteSchema.from(config.getDefaultSchema()).root(), List.of(CatalogSchema.NAME),
                types, CONNECTION_CONFIG);
    }

    private static SqlValidator validator(FrameworkConfig config, CalciteCatalogReader reader, JavaTypeFactory types) {
        return new StarlingValidator(SqlOperatorTables.chain(config.getOperatorTable(), reader), reader, types,
                config.getSqlValidatorConfig().withDefaultNullCollation(CONNECTION_CONFIG.defaultNullCollation())
                        .withLenientOperatorLookup(CONNECTION_CONFIG.lenientOperatorLookup()));
    }

    /** A query's result columns and the types of its parameters ({@code ?}), as Calcite's validator infers them. */
    public record Signature(List<Field> fields, List<DataType> parameters) { }

    /**
     * Validates a query with parameter markers without planning it: its result columns, and the
     * type each {@code ?} must have, from the context it appears in; unqualified names as
     * {@link #plan(String, String)} reads them.
     */
    public Signature signature(String sql, String schema) {
        FrameworkConfig config = config();
        SqlNode parsed;
        try {
            parsed = ViewExpansion.expand(ResultColumnNames.name(sql,
                    WideIntegerLiterals.rewrite(SqlParser.create(sql, config.getParserConfig()).parseQuery())),
                    catalog, schema, SqlPlanner::parseView);
        } catch (SqlParseException e) {
            var pos = e.getPos();
            throw new StarlingSqlException(e.getMessage().lines().findFirst().orElse("syntax error")
                    .replaceAll(" at line \\d+, column \\d+\\.?$", ""),
                    pos == null ? 0 : pos.getLineNum(), pos == null ? 0 : pos.getColumnNum(), e);
        }
        JavaTypeFactory types = new StarlingTypeFactory();
        CalciteCatalogReader reader = catalogReader(config, types);
        SqlValidator validator = validator(config, reader, types);
        SqlNode validated = validate(validator, parsed);
        return signature(validator.getValidatedNodeType(validated), validator.getParameterRowType(validated));
    }

    /** The result columns of a query whose row type is {@code rowType}, and its markers' types, in Starling's types. */
    private static Signature signature(RelDataType rowType, RelDataType parameterRowType) {
        List<Field> fields = new ArrayList<>();
        for (RelDataTypeField f : rowType.getFieldList()) {
            fields.add(new Field(f.getName(), TypeMapping.toStarling(f.getType()), f.getType().isNullable()));
        }
        List<DataType> parameters = new ArrayList<>();
        for (RelDataTypeField p : parameterRowType.getFieldList()) {
            parameters.add(TypeMapping.toStarling(p.getType()));
        }
        return new Signature(fields, parameters);
    }

    /** The columns of view {@code view}: its query's result columns, under the view's names for them. */
    public List<Field> viewColumns(dev.starling.storage.View view) {
        String schema = CatalogNames.schemaOf(view.name());
        return signature("SELECT * FROM " + (schema.isEmpty() ? "" : quoted(schema) + ".")
                + quoted(CatalogNames.tableOf(view.name())), "").fields();
    }

    /**
     * A view's query made in a session whose schema is {@code schema}, each unqualified name that
     * means that schema's table or view written with the schema's name, so that the view reads the
     * same tables whatever schema a session that reads it has. An unreadable query is returned as
     * it is, for the view's check to report.
     */
    public String viewQueryInSchema(String sql, String schema) {
        if (schema.isEmpty()) {
            return sql;
        }
        List<SqlParserPos> names;
        try {
            names = ViewExpansion.sessionNames(SqlParser.create(sql, PARSER).parseQuery(), catalog, schema,
                    SqlPlanner::parseView);
        } catch (SqlParseException unreadable) {
            return sql;
        }
        StringBuilder text = new StringBuilder(sql);
        // from the last, so that the offsets of the earlier ones stay
        names.stream().map(pos -> SqlParserUtil.lineColToIndex(sql, pos.getLineNum(), pos.getColumnNum()))
                .sorted(java.util.Comparator.reverseOrder())
                .forEach(at -> text.insert((int) at, quoted(schema) + "."));
        return text.toString();
    }

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /**
     * The words the SQL parser reserves or treats as keywords that SQL:2003 does not, as JDBC's
     * {@code DatabaseMetaData.getSQLKeywords} lists them.
     */
    public static List<String> nonStandardKeywords() {
        return List.of(SqlParser.create("", PARSER).getMetadata().getJdbcKeywords().split(","));
    }

    /** Checks that {@code view}, made or replaced, does not read itself through other views. */
    public void checkView(dev.starling.storage.View view) {
        ViewExpansion.checkNotCircular(view, catalog, SqlPlanner::parseView);
    }

    /** A view's query, read as a query's text is (checked when the view was made). */
    private static SqlNode parseView(String sql) {
        try {
            return ResultColumnNames.name(sql, WideIntegerLiterals.rewrite(SqlParser.create(sql, PARSER).parseQuery()));
        } catch (SqlParseException e) {
            throw new StarlingSqlException("a view's query no longer parses: " + e.getMessage().lines().findFirst()
                    .orElse(""), 0, 0, e);
        }
    }

    private static SqlNode parse(String sql) {
        try {
            return SqlParser.create(sql, PARSER).parseStmt();
        } catch (SqlParseException e) {
            var pos = e.getPos();
            String message = e.getMessage() == null ? "syntax error" : e.getMessage().lines().findFirst().orElse("")
                    .replaceAll(" at line \\d+, column \\d+\\.?$", "");
            throw new StarlingSqlException(message, pos == null ? 0 : pos.getLineNum(),
                    pos == null ? 0 : pos.getColumnNum(), e);
        }
    }

    /**
     * {@code parsed}, validated; what the validator rejects is the query's mistake, at the position
     * it names where it names one.
     */
    private static SqlNode validate(SqlValidator validator, SqlNode parsed) {
        try {
            return validator.validate(parsed);
        } catch (StarlingSqlException e) {
            throw e;
        } catch (CalciteContextException c) {
            String message = c.getCause() == null ? c.getMessage() : c.getCause().getMessage();
            throw new StarlingSqlException(message, c.getPosLine(), c.getPosColumn(), c);
        } catch (RuntimeException e) {
            throw new StarlingSqlException(e.getMessage() == null ? "the query does not validate" : e.getMessage(), 0, 0, e);
        }
    }

    /**
     * Calcite's Babel parser: the core grammar, with keywords that SQL reserves but analysts use as
     * names (TPC-H Q11's alias {@code value}) taken as identifiers where they can only be one.
     */
    private static final SqlParser.Config PARSER = SqlParser.config()
            .withParserFactory(SqlBabelParserImpl.FACTORY)
            .withUnquotedCasing(Casing.TO_LOWER)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false)
            .withConformance(CONFORMANCE);

    /** The parser configuration queries are read with (for tools that read query texts as Starling does). */
    public static SqlParser.Config parserConfig() {
        return PARSER;
    }

    private FrameworkConfig config() {
        SchemaPlus root = Frameworks.createRootSchema(false);
        SchemaPlus schema = root.add(CatalogSchema.NAME, new CatalogSchema(catalog, this::viewColumns));
        return Frameworks.newConfigBuilder()
                .parserConfig(PARSER)
                .sqlValidatorConfig(SqlValidator.Config.DEFAULT
                        .withConformance(CONFORMANCE)
                        .withIdentifierExpansion(true)
                        .withTypeCoercionFactory(StarlingTypeCoercion::new))
                .sqlToRelConverterConfig(SqlToRelConverter.config().withExpand(false))
                .operatorTable(StarlingOperators.operatorTable())
                .convertletTable(StarlingOperators.convertletTable())
                .context(Contexts.of(CONNECTION_CONFIG))
                // Folds constant expressions while planning; it never runs a query.
                .executor(new RexExecutorImpl(DataContexts.EMPTY))
                .defaultSchema(schema)
                .typeSystem(StarlingTypeSystem.INSTANCE)
                .traitDefs(ConventionTraitDef.INSTANCE)
                .programs(LogicalOptimizer.program())
                .build();
    }
}
