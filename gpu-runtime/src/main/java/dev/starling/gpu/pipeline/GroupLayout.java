package dev.starling.gpu.pipeline;

import dev.starling.exec.eval.DictionaryAnswers;
import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.op.ScanRows;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.DataType;
import dev.starling.storage.Dictionary;
import dev.starling.storage.LongIntMap;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dense group ids: the group keys become digits, and a group's id is the mixed-radix number of
 * its digits (dimension digits first, least significant). All keys computed from one dimension
 * share a digit with one value per distinct tuple of them among that dimension's rows (ranked
 * here, on the CPU, so only tuples that can occur take room: keys of one dimension row depend on
 * each other), or, when one of them is its table's primary key, one value per built row, with
 * nothing to rank; for a dimension built on the GPU whose keys lie in known ranges, the keys'
 * values as a mixed-radix number the GPU computes ({@link StarPipeline.ValueDigit}). A
 * fact column key has a digit of its own, one value per stored value between the column's minimum
 * and maximum plus one for NULL; a foreign key's key values one per code (the referenced table's
 * rows) plus one for NULL. A dimension's per-code contribution to the id is its digit times the
 * digit's multiplier: the kernel adds one number per probe.
 */
final class GroupLayout implements PipelineInputs.Contributions {
    private final StarPipeline pipeline;
    private final List<Digit> digits = new ArrayList<>();
    private final long groups;
    private final Catalog catalog;
    /** The dense ids the dimension digits span: every dimension contribution is below it. */
    private long dimensionGroups = 1;

    /** One digit: from a dimension's keys ({@code dimension >= 0}) or from one fact column key. */
    private static final class Digit {
        final int dimension;
        final List<Integer> keys = new ArrayList<>();
        long radix;
        long multiplier;
        /** Dimension digits: each key's values per dimension row, each row's digit, each digit's first row. */
        final Map<Integer, Vector> values = new HashMap<>();
        int[] digitOfRow;
        int[] firstRow;
        /** A foreign key's digit: the referenced key column its codes index. */
        PipelineInputs.Referenced referencedKey;
        /** A dimension built on the GPU: each digit value is a row of its table, whose keys are read from there. */
        boolean tableRows;
        /** A dimension built on the GPU: each digit value is its keys' values, in their ranges (else null). */
        StarPipeline.ValueDigit valueDigit;

        Digit(int dimension) {
            this.dimension = dimension;
        }
    }

    /**
     * {@code dimensionRows}: each dimension's rows built on the CPU (null where the GPU builds it);
     * {@code referencedKeys}: for a foreign key column of the fact table, the key column its codes
     * point into; {@code catalog}: where the keys of GPU-built dimensions are read back from.
     */
    GroupLayout(StarPipeline pipeline, List<Batch> dimensionRows, java.util.function.IntFunction<PipelineInputs.Referenced> referencedKeys,
                Catalog catalog) {
        this.pipeline = pipeline;
        this.catalog = catalog;
        Map<Integer, Digit> byDimension = new HashMap<>();
        List<StarPipeline.GroupKey> keys = pipeline.keys();
        for (int k = 0; k < keys.size(); k++) {
            StarPipeline.GroupKey key = keys.get(k);
            Digit digit = key.dimension() < 0 ? null : byDimension.get(key.dimension());
            if (digit == null) {
                digit = new Digit(key.dimension());
                digits.add(digit);
                if (key.dimension() >= 0) {
                    byDimension.put(key.dimension(), digit);
                }
            }
            digit.keys.add(k);
            if (key.dimension() >= 0 && dimensionRows.get(key.dimension()) != null) {
                digit.values.put(k, ExprCompiler.compile(key.expr()).eval(dimensionRows.get(key.dimension())));
            }
        }
        // dimension digits first: a dimension's contribution is then below their product, which
        // is small next to the fact keys' ranges, and the contribution arrays stay narrow
        digits.sort(java.util.Comparator.comparing((Digit d) -> d.dimension < 0));
        long total = 1;
        for (Digit digit : digits) {
            StarPipeline.GroupKey first = pipeline.keys().get(digit.keys.get(0));
            if (digit.dimension >= 0 && dimensionRows.get(digit.dimension) == null) {
                // the compiler builds a dimension on the GPU only when a key is its table's primary
                // key or its keys' values have ranges
                digit.valueDigit = pipeline.dimensions().get(digit.dimension).valueDigit();
                digit.tableRows = digit.valueDigit == null;
                digit.radix = digit.tableRows ? Math.max(1, pipeline.dimensions().get(digit.dimension).range())
                        : digit.valueDigit.radix();
            } else if (digit.dimension >= 0 && digit.keys.stream().anyMatch(k -> uniqueOverBuild(
                    pipeline.dimensions().get(digit.dimension).build(), keys.get(k).expr()))) {
                byRow(digit, dimensionRows.get(digit.dimension).rows());
            } else if (digit.dimension >= 0) {
                rank(digit, dimensionRows.get(digit.dimension).rows());
            } else if (first.referenced()) {
                digit.referencedKey = referencedKeys.apply(first.factColumn());
                digit.radix = digit.referencedKey.table().rowCount() + 1;
            } else {
                digit.radix = first.factRadix(pipeline.fact(), pipeline.answers());
            }
            digit.multiplier = total;
            total = times(total, digit.radix);
            dimensionGroups = digit.dimension >= 0 ? total : dimensionGroups;
        }
        groups = total;
    }

    /**
     * The fewest dense groups {@code pipeline}'s layout can have, known before any dimension is
     * built, as the column statistics tell: the product of its fact column keys' digits and of its
     * dimensions' least digits (a foreign key's digit has at least one value).
     */
    static long leastGroups(StarPipeline pipeline) {
        Map<Integer, Long> dimensionDigits = new HashMap<>();
        long total = 1;
        for (StarPipeline.GroupKey key : pipeline.keys()) {
            if (key.dimension() >= 0) {
                dimensionDigits.merge(key.dimension(), leastDistinct(pipeline, key), Math::max);
            } else if (!key.referenced()) {
                total = times(total, key.factRadix(pipeline.fact(), pipeline.answers()));
            }
        }
        for (long digit : dimensionDigits.values()) {
            total = times(total, digit);
        }
        return total;
    }

    /**
     * The fewest values a dimension key's digit can take: a column of a dimension scanned whole
     * (through projections that pass it on) ranks at least its distinct values (NULL one more); any
     * other key at least one.
     */
    private static long leastDistinct(StarPipeline pipeline, StarPipeline.GroupKey key) {
        if (!(key.expr() instanceof ColumnRef ref)) {
            return 1;
        }
        return ScanColumnOrigin.of(pipeline.dimensions().get(key.dimension()).build(), ref.index())
                .filter(o -> !o.filtered() && !o.joined()).flatMap(ScanColumnOrigin::valueColumn)
                .map(c -> c.stats().distinct() + (c.stats().nulls() > 0 ? 1 : 0)).orElse(1L);
    }

    /**
     * Whether {@code key}'s values differ on every row of {@code build} (a dimension's): its table's
     * one-column primary key, scanned (and filtered, which keeps them distinct) and passed on by
     * projections, with no join in between.
     */
    static boolean uniqueOverBuild(PlanNode build, Expr key) {
        return key instanceof ColumnRef ref && ScanColumnOrigin.of(build, ref.index()).filter(o -> !o.joined())
                .flatMap(o -> o.valueColumn().filter(c -> o.scan().table().schema().primaryKey().equals(List.of(c.name()))))
                .isPresent();
    }

    /** {@code total} times {@code digit} (at least 1), {@link Long#MAX_VALUE} when past it. */
    static long times(long total, long digit) {
        long d = Math.max(1, digit);
        return total > Long.MAX_VALUE / d ? Long.MAX_VALUE : total * d;
    }

    /** A digit whose keys a unique key determines: each built row is its own digit value, with nothing to rank. */
    private static void byRow(Digit digit, int rows) {
        digit.digitOfRow = java.util.stream.IntStream.range(0, rows).toArray();
        digit.firstRow = digit.digitOfRow;
        digit.radix = Math.max(1, rows);
    }

    /**
     * Ranks the tuples of the digit's keys over the dimension rows, pairwise, in primitive maps. Once
     * the tuples so far are all distinct (a key is the dimension's own key), the other keys are
     * determined by the row and add nothing.
     */
    private void rank(Digit digit, int rows) {
        int[] tuple = null;
        int distinct = 0;
        for (int k : digit.keys) {
            if (tuple != null && distinct == rows) {
                break;
            }
            int[] rank = new int[rows];
            int count = rankValues(digit.values.get(k), rows, rank);
            if (tuple == null) {
                tuple = rank;
                distinct = count;
            } else {
                LongIntMap pairs = new LongIntMap(16);
                for (int r = 0; r < rows; r++) {
                    long pair = (long) tuple[r] * count + rank[r];
                    int id = pairs.get(pair);
                    if (id < 0) {
                        id = pairs.size();
                        pairs.put(pair, id);
                    }
                    tuple[r] = id;
                }
                distinct = pairs.size();
            }
        }
        digit.digitOfRow = tuple;
        List<Integer> firstRows = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            if (tuple[r] == firstRows.size()) {
                firstRows.add(r);
            }
        }
        digit.firstRow = firstRows.stream().mapToInt(Integer::intValue).toArray();
        digit.radix = Math.max(1, digit.firstRow.length);
    }

    /**
     * Numbers the distinct values of {@code v} in order of first appearance (NULL is a value);
     * strings by their text, since equal strings may carry different codes.
     */
    private static int rankValues(Vector v, int rows, int[] out) {
        LongIntMap ids = new LongIntMap(16);
        int[] byCode = v.dict() == null ? null : new int[v.dict().size()];
        Map<String, Integer> byText = v.dict() == null ? null : new HashMap<>();
        if (byCode != null) {
            java.util.Arrays.fill(byCode, -1);
        }
        int nullId = -1;
        int next = 0;
        for (int r = 0; r < rows; r++) {
            int id;
            if (v.isNull(r)) {
                id = nullId < 0 ? (nullId = next++) : nullId;
            } else if (byCode != null) {
                int code = (int) v.longs()[r];
                if (byCode[code] < 0) {
                    int fresh = next;
                    byCode[code] = byText.computeIfAbsent(v.dict().get(code), t -> fresh);
                    next += byCode[code] == fresh ? 1 : 0;
                }
                id = byCode[code];
            } else {
                long key = v.isDouble() ? Double.doubleToLongBits(v.doubles()[r] + 0.0) : v.longs()[r];
                id = ids.get(key);
                if (id < 0) {
                    id = next++;
                    ids.put(key, id);
                }
            }
            out[r] = id;
        }
        return next;
    }

    private Column factColumn(Digit digit) {
        return pipeline.fact().column(pipeline.keys().get(digit.keys.get(0)).factColumn());
    }

    /** The dense ids: the product of every digit's radix ({@link Long#MAX_VALUE} when it passes 2^63). */
    long groups() {
        return groups;
    }

    /** Whether a dimension's contributions to the id may pass a 32-bit integer. */
    @Override
    public boolean wideContributions() {
        return dimensionGroups > Integer.MAX_VALUE;
    }

    /** The pipeline's constants with the fact keys' minimum, range (the NULL digit) and multiplier filled in. */
    long[] constants() {
        long[] c = pipeline.constants().clone();
        for (Digit digit : digits) {
            if (digit.dimension < 0) {
                int at = pipeline.keys().get(digit.keys.get(0)).constant();
                c[at] = digit.referencedKey != null ? 0 : pipeline.keys().get(digit.keys.get(0)).factMin(pipeline.fact());
                c[at + 1] = digit.radix - 1;
                c[at + 2] = digit.multiplier;
            }
        }
        return c;
    }

    /**
     * What a row of GPU-built dimension {@code d} contributes to the group id per row index of its
     * table, or per value of its computed digit (0: none of the keys is from it).
     */
    @Override
    public long rowMultiplier(int d) {
        for (Digit digit : digits) {
            if (digit.dimension == d) {
                return digit.multiplier;
            }
        }
        return 0;
    }

    /** Dimension {@code d}'s row {@code row} contribution to the group id. */
    @Override
    public long contribution(int d, int row) {
        for (Digit digit : digits) {
            if (digit.dimension == d) {
                return digit.digitOfRow[row] * digit.multiplier;
            }
        }
        return 0;
    }

    /** The group key columns of the groups with ids {@code ids}. */
    Vector[] keyColumns(long[] ids) {
        int n = ids.length;
        Vector[] out = new Vector[pipeline.keys().size()];
        for (Digit digit : digits) {
            long[] values = new long[n];
            Slices.forEach(n, (from, to) -> {
                for (int i = from; i < to; i++) {
                    values[i] = ids[i] / digit.multiplier % digit.radix;
                }
            });
            if (digit.tableRows) {
                PlanNode build = pipeline.dimensions().get(digit.dimension).build();
                List<Expr> exprs = digit.keys.stream().map(k -> pipeline.keys().get(k).expr()).toList();
                BitSet columns = new BitSet();
                exprs.forEach(e -> java.util.Arrays.stream(ExprCompiler.columnsOf(e)).forEach(columns::set));
                Batch rows = GpuBuiltRows.at(build, columns, values, catalog);
                for (int i = 0; i < exprs.size(); i++) {
                    out[digit.keys.get(i)] = ExprCompiler.compile(exprs.get(i)).eval(rows);
                }
            } else if (digit.valueDigit != null) {
                long[] multipliers = digit.valueDigit.multipliers();
                for (int k = 0; k < multipliers.length; k++) {
                    StarPipeline.KeyRange range = digit.valueDigit.keys().get(k);
                    long multiplier = multipliers[k];
                    Expr key = pipeline.keys().get(range.key()).expr();
                    out[range.key()] = keyValues(key.type(), values, -1,
                            d -> MixedRadix.value(d, multiplier, range.range(), range.min()),
                            key.type().kind() == DataType.Kind.VARCHAR ? dictionary(digit.dimension, key) : null);
                }
            } else if (digit.dimension >= 0) {
                int[] rows = new int[n];
                Slices.forEach(n, (from, to) -> {
                    for (int i = from; i < to; i++) {
                        rows[i] = digit.firstRow[(int) values[i]];
                    }
                });
                for (int k : digit.keys) {
                    out[k] = digit.values.get(k).gather(rows, n);
                }
            } else if (digit.referencedKey != null) {
                out[digit.keys.get(0)] = referencedKey(digit.referencedKey, factColumn(digit).type(), values, digit.radix - 1);
            } else if (pipeline.keys().get(digit.keys.get(0)).answer() >= 0) {
                out[digit.keys.get(0)] = rankedKey(pipeline.answers().get(pipeline.keys().get(digit.keys.get(0)).answer()),
                        values);
            } else {
                out[digit.keys.get(0)] = factKey(pipeline.keys().get(digit.keys.get(0)), values, digit.radix - 1);
            }
        }
        return out;
    }

    /** The dictionary of the string column that dimension {@code d}'s key {@code key} passes on, whose codes its digit counts. */
    private StrDict dictionary(int d, Expr key) {
        return ScanColumnOrigin.of(pipeline.dimensions().get(d).build(), ((ColumnRef) key).index())
                .flatMap(ScanColumnOrigin::valueColumn).map(c -> StrDict.of(c.dictionary())).orElseThrow();
    }

    private Vector factKey(StarPipeline.GroupKey key, long[] digits, long nullDigit) {
        long min = key.factMin(pipeline.fact());
        if (key.range() != null) {
            return keyValues(key.expr().type(), digits, nullDigit, d -> min + d, null);
        }
        Column column = pipeline.fact().column(key.factColumn());
        DataType type = column.type();
        return keyValues(type, digits, nullDigit, d -> min + d,
                type.kind() == DataType.Kind.VARCHAR ? StrDict.of(column.dictionary()) : null);
    }

    /**
     * A ranked key's values at ranks {@code digits}: its function evaluated over the first
     * dictionary entry of each rank (the ranks were computed for the layout, and are kept), in a
     * dictionary of those entries alone, since a string function maps its input's whole dictionary.
     */
    private Vector rankedKey(StarPipeline.StringFunction f, long[] digits) {
        Column column = pipeline.fact().column(f.tableColumn());
        StrDict dict = StrDict.of(column.dictionary());
        int[] first = DictionaryAnswers.ranks(f.function(), column.type(), dict).firstEntry();
        long[] codes = new long[digits.length];
        boolean[] nulls = new boolean[digits.length];
        Map<Integer, Integer> localCode = new HashMap<>();
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < digits.length; i++) {
            int entry = first[(int) digits[i]];
            nulls[i] = entry == dict.size();
            codes[i] = nulls[i] ? 0 : localCode.computeIfAbsent(entry, e -> {
                strings.add(dict.get(e));
                return strings.size() - 1;
            });
        }
        Vector entries = Vector.ofCodes(column.type(), codes, nulls, StrDict.of(Dictionary.of(strings.toArray(String[]::new))));
        return ExprCompiler.compile(f.function()).eval(new Batch(new Vector[] {entries}, digits.length));
    }

    /** The referenced key values at codes {@code digits}, read from those rows of the key's table. */
    private static Vector referencedKey(PipelineInputs.Referenced key, DataType type, long[] digits, long nullDigit) {
        long[] codes = java.util.Arrays.stream(digits).filter(d -> d != nullDigit).toArray();
        BitSet column = new BitSet();
        column.set(0);
        Vector read = ScanRows.at(new ScanNode(key.table(), List.of(new ScanNode.ScanColumn(key.column(),
                ScanNode.ScanColumn.Mode.VALUE)), null), column, codes, null).column(0);
        // keyValues asks for the digits that are not NULL in order, which is the order of codes
        int[] next = {0};
        return keyValues(type, digits, nullDigit, code -> read.getLong(next[0]++), null);
    }

    /** A key column from its digits: NULL at {@code nullDigit}, else {@code value} of the digit. */
    private static Vector keyValues(DataType type, long[] digits, long nullDigit,
                                    java.util.function.LongUnaryOperator value,
                                    StrDict dict) {
        long[] values = new long[digits.length];
        boolean[] nulls = null;
        for (int i = 0; i < digits.length; i++) {
            if (digits[i] == nullDigit) {
                nulls = nulls == null ? new boolean[digits.length] : nulls;
                nulls[i] = true;
            } else {
                values[i] = value.applyAsLong(digits[i]);
            }
        }
        return new Vector(type, values, null, nulls, dict);
    }

    @Override
    public String toString() {
        return groups + " dense groups over " + digits.size() + " digits";
    }
}
