package dev.starling.exec.eval;

import dev.starling.exec.InvalidCastException;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.Locale;

/**
 * CAST between numbers and booleans (numbers rounded half away from zero when the scale shrinks).
 * Casts from VARCHAR parse once per dictionary entry and casts to VARCHAR format per row; see
 * {@link #compile}.
 */
final class CastEval extends VecExpr {
    private final VecExpr input;
    private final DataType type;

    private CastEval(VecExpr input, DataType type) {
        this.input = input;
        this.type = type;
    }

    static VecExpr compile(VecExpr input, DataType from, DataType to) {
        if (from.kind() == to.kind() && (from.kind() != DataType.Kind.DECIMAL || from.scale() == to.scale())) {
            return from.equals(to) ? input : new CastEval(input, to);
        }
        if (from.kind() == DataType.Kind.VARCHAR) {
            return new DictMapEval(input, s -> parse(s, to), to);
        }
        if (to.kind() == DataType.Kind.VARCHAR) {
            return new RowStringEval(new VecExpr[] {input}, args -> format(args[0]), to);
        }
        if (from.kind() == DataType.Kind.DATE || to.kind() == DataType.Kind.DATE) {
            throw new IllegalArgumentException("cannot cast " + from + " to " + to);
        }
        return new CastEval(input, to);
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector v = input.eval(batch);
        if (v.type().kind() == type.kind() && type.kind() != DataType.Kind.DECIMAL) {
            return new Vector(type, v.longs(), v.doubles(), v.nulls(), v.dict());
        }
        if (type.kind() == DataType.Kind.BOOLEAN) {
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = (v.isDouble() ? v.doubles()[i] != 0 : v.longs()[i] != 0) ? 1 : 0;
            }
            return Vector.ofLongs(type, out, v.nulls());
        }
        return Numbers.convert(v, n, type);
    }

    private static Object parse(String text, DataType to) {
        String s = text.trim();
        try {
            return switch (to.kind()) {
                case INTEGER -> (long) Integer.parseInt(s);
                case BIGINT -> Long.parseLong(s);
                case DOUBLE -> Double.parseDouble(s);
                case DECIMAL -> {
                    BigDecimal d = new BigDecimal(s).setScale(to.scale(), RoundingMode.HALF_UP);
                    if (d.precision() - d.scale() > to.wholeDigits()) {
                        throw Numbers.outOfRange(d.toPlainString(), to);
                    }
                    yield d.unscaledValue().longValueExact();
                }
                case DATE -> LocalDate.parse(s).toEpochDay();
                case BOOLEAN -> switch (s.toLowerCase(Locale.ROOT)) {
                    case "true", "t", "1" -> 1L;
                    case "false", "f", "0" -> 0L;
                    default -> throw new IllegalArgumentException(s);
                };
                case VARCHAR -> text;
            };
        } catch (InvalidCastException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new InvalidCastException("cannot cast '" + text + "' to " + to, e);
        }
    }

    private static String format(Object value) {
        return switch (value) {
            case BigDecimal d -> d.toPlainString();
            case Boolean b -> b ? "TRUE" : "FALSE";
            default -> value.toString();
        };
    }
}
