package dev.starling.storage;

/**
 * A SQL column type and how it is stored. DECIMAL values are 64-bit integers scaled by
 * 10^scale; DATE values are days since 1970-01-01; VARCHAR values are dictionary codes. Only a
 * DECIMAL has a scale other than 0, so {@code scale()} is the scale of any exact number.
 */
public record DataType(Kind kind, int precision, int scale) {

    public enum Kind { INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, BOOLEAN, VARCHAR }

    /** How values sit in a column chunk. */
    public enum Physical {
        INT8(1), INT32(4), INT64(8), FLOAT64(8);
        public final int width;
        Physical(int width) { this.width = width; }
    }

    public static final DataType INTEGER = new DataType(Kind.INTEGER, 0, 0);
    public static final DataType BIGINT = new DataType(Kind.BIGINT, 0, 0);
    public static final DataType DOUBLE = new DataType(Kind.DOUBLE, 0, 0);
    public static final DataType DATE = new DataType(Kind.DATE, 0, 0);
    public static final DataType BOOLEAN = new DataType(Kind.BOOLEAN, 0, 0);
    public static final DataType VARCHAR = new DataType(Kind.VARCHAR, 0, 0);

    public DataType {
        if (kind == Kind.DECIMAL && (precision < 1 || precision > 18 || scale < 0 || scale > precision)) {
            throw new IllegalArgumentException("DECIMAL(" + precision + "," + scale
                    + ") is not supported: precision must be 1..18 and 0 <= scale <= precision");
        }
        if (kind != Kind.DECIMAL && scale != 0) {
            throw new IllegalArgumentException(kind + " has no scale");
        }
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(Kind.DECIMAL, precision, scale);
    }

    /** VARCHAR(n) / CHAR(n): writes of longer strings are refused; 0: no limit. */
    public static DataType varchar(int length) {
        return new DataType(Kind.VARCHAR, length, 0);
    }

    public Physical physical() {
        return switch (kind) {
            case INTEGER, DATE, VARCHAR -> Physical.INT32;
            case BIGINT, DECIMAL -> Physical.INT64;
            case DOUBLE -> Physical.FLOAT64;
            case BOOLEAN -> Physical.INT8;
        };
    }

    /** For DECIMAL(p, s): 10^p, which no unscaled value of the type reaches in magnitude. */
    public long unscaledLimit() {
        long limit = 1;
        for (int i = 0; i < precision; i++) {
            limit *= 10;
        }
        return limit;
    }

    /** For an exact number: the most digits a value of this type can have before the decimal point. */
    public int wholeDigits() {
        return switch (kind) {
            case INTEGER -> 10;
            case BIGINT -> 19;
            case DECIMAL -> precision - scale;
            default -> throw new IllegalStateException(this + " is not an exact number");
        };
    }

    /**
     * For a DECIMAL: whether every value of {@code from} cast to it fits its precision. An exact
     * value fits when it has no more whole digits, and one fewer where rounding to a smaller scale
     * may carry into a new digit (99.95 is 100.0 as DECIMAL(3,1)); a double or a boolean may not.
     */
    public boolean holdsEveryCastOf(DataType from) {
        if (!from.isExactNumeric()) {
            return false;
        }
        int fromScale = from.kind == Kind.DECIMAL ? from.scale : 0;
        return from.wholeDigits() + (fromScale > scale ? 1 : 0) <= wholeDigits();
    }

    public boolean isIntegral() {
        return kind == Kind.INTEGER || kind == Kind.BIGINT;
    }

    /** An exact number: an integer, or a decimal (an integer scaled by its scale; the others' scale is 0). */
    public boolean isExactNumeric() {
        return isIntegral() || kind == Kind.DECIMAL;
    }

    /** Parses a SQL type name such as {@code DECIMAL(15,2)}, {@code VARCHAR(25)} or {@code DATE}. */
    public static DataType parse(String text) {
        String t = text.trim().toUpperCase(java.util.Locale.ROOT);
        int open = t.indexOf('(');
        String base = open < 0 ? t : t.substring(0, open).trim();
        int[] args = open < 0 ? new int[0] : parseArgs(text, t.substring(open + 1, t.lastIndexOf(')')));
        return switch (base) {
            case "INT", "INTEGER", "SMALLINT", "TINYINT" -> INTEGER;
            case "BIGINT" -> BIGINT;
            case "DOUBLE", "DOUBLE PRECISION", "FLOAT", "REAL" -> DOUBLE;
            case "DATE" -> DATE;
            case "BOOLEAN", "BOOL" -> BOOLEAN;
            case "DECIMAL", "NUMERIC" -> decimal(args.length > 0 ? args[0] : 18, args.length > 1 ? args[1] : 0);
            case "VARCHAR", "CHAR", "CHARACTER", "STRING", "TEXT", "CLOB" -> varchar(args.length > 0 ? args[0] : 0);
            default -> throw new IllegalArgumentException("unsupported column type '" + text + "'");
        };
    }

    private static int[] parseArgs(String text, String inner) {
        String[] parts = inner.split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad type arguments in '" + text + "'");
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case VARCHAR -> precision > 0 ? "VARCHAR(" + precision + ")" : "VARCHAR";
            default -> kind.name();
        };
    }
}
