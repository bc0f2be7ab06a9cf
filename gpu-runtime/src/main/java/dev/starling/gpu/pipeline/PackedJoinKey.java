package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnStats;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;

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
            if (!build.type().isIntegral() || !probe.type().isIntegral()) {
                throw new Unsupported("a hash join on " + n + " keys not all integers (" + probe.type() + " = "
                        + build.type() + ")");
            }
            ColumnStats stats = ColumnValueStats.of(j.build(), j.buildKeys()[i], catalog).orElseThrow(() -> new Unsupported(
                    "a hash join on " + n + " keys, " + build.name() + " not a table column of its build side"));
            boolean none = stats.rows() == stats.nulls();
            min[i] = none ? 0 : stats.min();
            max[i] = none ? 0 : stats.max();
        }
        long[] ranges = new long[n];
        for (int i = 0; i < n; i++) {
            ranges[i] = ColumnStats.valuesBetween(min[i], max[i]);
        }
        long[] multipliers = MixedRadix.multipliers(ranges, MOST_KEYS).orElseThrow(() -> new Unsupported(
                "a hash join on " + n + " keys whose value ranges pass 2^62 packed"));
        Expr buildKey = MixedRadix.number(i -> {
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
        Expr probeKey = MixedRadix.number(i -> probeColumns.get(j.probeKeys()[i]), min, multipliers);
        List<Expr> bounds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Expr key = probeColumns.get(j.probeKeys()[i]);
            bounds.add(compare(Call.Op.GE, key, min[i]));
            bounds.add(compare(Call.Op.LE, key, max[i]));
        }
        Expr guard = new Call(Call.Op.AND, bounds, DataType.BOOLEAN, bounds.stream().anyMatch(Expr::nullable));
        return new PackedJoinKey(new ProjectNode(j.build(), columns, names), probeKey, ExprLowering.lower(guard));
    }

    private static Expr compare(Call.Op op, Expr key, long bound) {
        return new Call(op, List.of(key, new Literal(bound, DataType.BIGINT)), DataType.BOOLEAN, key.nullable());
    }
}
