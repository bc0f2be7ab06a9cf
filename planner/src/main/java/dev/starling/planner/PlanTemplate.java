package dev.starling.planner;

import dev.starling.exec.plan.Field;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.util.DateString;

/**
 * A query with parameter markers, optimized once ({@link SqlPlanner#template}): Calcite's physical
 * plan with the markers in it, its result columns and the type of each marker. Binding values puts
 * each in place of its marker as a literal of the marker's type and translates the plan, which
 * costs a fraction of planning the query with the values written in. A value that is not plainly
 * of its marker's type (text that a CAST would have to round or refuse) is not bound here, so that
 * it meets the CAST's own rules in a query planned with it written in.
 */
public final class PlanTemplate {
    private final RelNode physical;
    private final RelDataType rowType;
    private final List<Field> fields;
    private final List<DataType> parameters;

    PlanTemplate(RelNode physical, RelDataType rowType, List<Field> fields, List<DataType> parameters) {
        this.physical = physical;
        this.rowType = rowType;
        this.fields = List.copyOf(fields);
        this.parameters = List.copyOf(parameters);
    }

    /** The query's result columns. */
    public List<Field> fields() {
        return fields;
    }

    /** The type each marker takes, in the order of the markers. */
    public List<DataType> parameters() {
        return parameters;
    }

    /**
     * The plan with {@code values} (each as text, as SQL would write it; null for NULL) in place of
     * the markers; empty where a value is not plainly of its marker's type.
     */
    public Optional<SqlPlanner.Plan> bind(List<String> values) {
        if (values.size() != parameters.size()) {
            throw new IllegalArgumentException(values.size() + " values for " + parameters.size() + " parameters");
        }
        RexBuilder rex = physical.getCluster().getRexBuilder();
        RexShuttle substitute = new RexShuttle() {
            @Override
            public RexNode visitDynamicParam(RexDynamicParam param) {
                int p = param.getIndex();
                return literal(rex, parameters.get(p), param.getType(), values.get(p)).orElseThrow(NotPlainly::new);
            }
        };
        // the plan's cluster (its metadata caches, which translation's estimates read) serves one thread at a time
        synchronized (physical.getCluster()) {
            RelNode bound;
            try {
                bound = physical.accept(new RelHomogeneousShuttle() {
                    @Override
                    public RelNode visit(RelNode other) {
                        return super.visit(other).accept(substitute);
                    }
                });
            } catch (NotPlainly e) {
                return Optional.empty();
            }
            return Optional.of(SqlPlanner.translate(bound, rowType));
        }
    }

    /** A value that is not plainly of its marker's type. */
    private static final class NotPlainly extends RuntimeException {
        NotPlainly() {
            super(null, null, false, false);
        }
    }

    /** {@code text} as a literal of the marker's type ({@code type} as Starling's), where it plainly is one. */
    private static Optional<RexNode> literal(RexBuilder rex, DataType type, RelDataType markerType, String text) {
        RelDataType relType = rex.getTypeFactory().createTypeWithNullability(markerType, false);
        if (text == null) {
            return Optional.of(rex.makeNullLiteral(relType));
        }
        try {
            return switch (type.kind()) {
                case INTEGER, BIGINT -> {
                    BigDecimal whole = new BigDecimal(text);
                    boolean fits = whole.scale() <= 0 && whole.compareTo(BigDecimal.valueOf(
                            type.kind() == DataType.Kind.INTEGER ? Integer.MIN_VALUE : Long.MIN_VALUE)) >= 0
                            && whole.compareTo(BigDecimal.valueOf(
                            type.kind() == DataType.Kind.INTEGER ? Integer.MAX_VALUE : Long.MAX_VALUE)) <= 0;
                    yield fits ? Optional.of(rex.makeExactLiteral(whole, relType)) : Optional.empty();
                }
                case DECIMAL -> {
                    BigDecimal d = new BigDecimal(text);
                    boolean fits = d.scale() <= type.scale() && d.precision() - d.scale() <= type.precision() - type.scale();
                    yield fits ? Optional.of(rex.makeExactLiteral(d.setScale(type.scale()), relType)) : Optional.empty();
                }
                case DOUBLE -> Optional.of(rex.makeApproxLiteral(new BigDecimal(text), relType));
                case DATE -> Optional.of(rex.makeDateLiteral(new DateString(LocalDate.parse(text).toString())));
                case BOOLEAN -> text.equals("true") || text.equals("false")
                        ? Optional.of(rex.makeLiteral(Boolean.parseBoolean(text))) : Optional.empty();
                case VARCHAR -> Optional.of(rex.makeLiteral(text, relType, false));
            };
        } catch (IllegalArgumentException | DateTimeParseException notPlainly) {
            // a number or date that will not read, or one Calcite's literals refuse (a year past 9999)
            return Optional.empty();
        }
    }
}
