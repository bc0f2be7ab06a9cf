package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnStats;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The key of a hash join on several integer columns, packed into the one 64-bit value the GPU's
 * hash tables hold: each column's value less the least value its build column has is a digit of a
 * mixed-radix number whose radices are the build columns' value ranges (their statistics; a
 * dense-coded foreign key's values are those of the key it references). Packing is one-to-one over
 * the build side's values, so equal packed keys mean equal keys. A probe row whose key lies outside
 * a build column's range matches no build row, and could pack into another one's key: the
 * {@code guard} filters it out before the probe (NULL keys with it, as the join does).
 * {@code keyedBuild}: the join's build side with the packed key as one more column, last.
 */
record PackedJoinKey(PlanNode keyedBuild, Expr probe, Expr guard) {
    /** The product of the build columns' ranges stays below this, so no packed key is negative or overflows. */
    static final long MOST_KEYS = 1L << 62;

    /** {@code j}'s key packed; {@code probeColumns}: its probe side's columns as the pipeline computes them. */
    static PackedJoinKey of(HashJoinNode j, List<Expr> probeColumns, Catalog catalog) throws Unsupported {
        int n = j.probeKeys().length;
        List<Field> buildFields = j.build().output();
        long[] min = new long[n];
        long[] max = new long[n];
        for (int i = 0; i < n; i++) {
            Field build = buildFields.get(j.buildKeys()[i]);
            Expr probe = probeColumns.get(j.probeKeys()[i]);
            if (!integer(build.type()) || !integer(probe.type())) {
                throw new Unsupported("a hash join on " + n + " keys not all integers (" + probe.type() + " = "
                        + build.type() + ")");
            }
            ColumnStats stats = valueStats(j.build(), j.buildKeys()[i], catalog).orElseThrow(() -> new Unsupported(
                    "a hash join on " + n + " keys, " + build.name() + " not a table column of its build side"));
            boolean none = stats.rows() == stats.nulls();
            min[i] = none ? 0 : stats.min();
            max[i] = none ? 0 : stats.max();
        }
        long[] multipliers = new long[n];
        long keys = 1;
        for (int i = n - 1; i >= 0; i--) {
            multipliers[i] = keys;
            long range = max[i] - min[i] + 1;
            if (range <= 0 || keys > MOST_KEYS / range) {
                throw new Unsupported("a hash join on " + n + " keys whose value ranges pass 2^62 packed");
            }
            keys *= range;
        }
        Expr buildKey = pack(i -> {
            Field f = buildFields.get(j.buildKeys()[i]);
            return new ColumnRef(j.buildKeys()[i], f.type(), f.nullable());
        }, min, multipliers);
        List<Expr> columns = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int c = 0; c < buildFields.size(); c++) {
            columns.add(new ColumnRef(c, buildFields.get(c).type(), buildFields.get(c).nullable()));
            names.add(buildFields.get(c).name());
        }
        columns.add(buildKey);
        names.add("$packed");
        Expr probeKey = pack(i -> probeColumns.get(j.probeKeys()[i]), min, multipliers);
        List<Expr> bounds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Expr key = probeColumns.get(j.probeKeys()[i]);
            bounds.add(compare(Call.Op.GE, key, min[i]));
            bounds.add(compare(Call.Op.LE, key, max[i]));
        }
        Expr guard = new Call(Call.Op.AND, bounds, DataType.BOOLEAN, bounds.stream().anyMatch(Expr::nullable));
        return new PackedJoinKey(new ProjectNode(j.build(), columns, names), ExprLowering.lower(probeKey),
                ExprLowering.lower(guard));
    }

    /** The sum of each key's digit (its value less {@code min}) times its multiplier, in 64 bits. */
    private static Expr pack(IntFunction<Expr> key, long[] min, long[] multipliers) {
        Expr sum = null;
        for (int i = 0; i < min.length; i++) {
            Expr k = key.apply(i);
            Expr digit = new Call(Call.Op.SUBTRACT, List.of(k, new Literal(min[i], DataType.BIGINT)), DataType.BIGINT,
                    k.nullable());
            Expr term = multipliers[i] == 1 ? digit : new Call(Call.Op.MULTIPLY,
                    List.of(digit, new Literal(multipliers[i], DataType.BIGINT)), DataType.BIGINT, k.nullable());
            sum = sum == null ? term : new Call(Call.Op.ADD, List.of(sum, term), DataType.BIGINT,
                    sum.nullable() || term.nullable());
        }
        return ExprLowering.lower(sum);
    }

    private static Expr compare(Call.Op op, Expr key, long bound) {
        return new Call(op, List.of(key, new Literal(bound, DataType.BIGINT)), DataType.BOOLEAN, key.nullable());
    }

    private static boolean integer(DataType t) {
        return t.kind() == DataType.Kind.INTEGER || t.kind() == DataType.Kind.BIGINT;
    }

    /**
     * The statistics of the values of output column {@code column} of {@code node}: those of the
     * table column it passes on unchanged (through projections, filters and joins), if it is one.
     */
    private static Optional<ColumnStats> valueStats(PlanNode node, int column, Catalog catalog) {
        return switch (node) {
            case ProjectNode p -> p.expressions().get(column) instanceof ColumnRef ref
                    ? valueStats(p.input(), ref.index(), catalog) : Optional.empty();
            case FilterNode f -> valueStats(f.input(), column, catalog);
            case HashJoinNode j -> {
                int probeWidth = j.probe().output().size();
                yield column < probeWidth ? valueStats(j.probe(), column, catalog)
                        : j.kind() == JoinKind.INNER ? valueStats(j.build(), column - probeWidth, catalog) : Optional.empty();
            }
            case ScanNode s -> s.columns().get(column).mode() == ScanNode.ScanColumn.Mode.VALUE
                    ? valueStats(s.table().column(s.columns().get(column).column()), catalog) : Optional.empty();
            default -> Optional.empty();
        };
    }

    /** A column's value statistics: its own, or for a dense-coded foreign key (which stores codes) its referenced key's. */
    private static Optional<ColumnStats> valueStats(Column column, Catalog catalog) {
        if (!column.isDenseCoded()) {
            return Optional.ofNullable(column.stats());
        }
        Column.DenseReference ref = column.denseReference();
        return valueStats(catalog.require(ref.table()).column(ref.keyColumn()), catalog);
    }
}
