package dev.starling.gpu.pipeline;

/**
 * Writes the body of a generated CUDA C kernel: statements, blocks, fresh variable names, and
 * boolean expressions folded where an operand is a constant. Every value gets a variable of its
 * own, assigned once; the compiler keeps them in registers.
 */
final class CudaWriter {
    static final String TRUE = "true";
    static final String FALSE = "false";

    private final StringBuilder body = new StringBuilder();
    private int depth = 1;
    private int names;

    /** Declares a fresh variable of {@code type} set to {@code value}; returns its name. */
    String let(String type, String value) {
        String name = "t" + names++;
        line("%s %s = %s;", type, name, value);
        return name;
    }

    /** A bool variable (or constant) holding {@code value}: a fresh one unless it is one already. */
    String bool(String value) {
        return value.matches("!?[A-Za-z_][A-Za-z0-9_]*") ? value : let("bool", value);
    }

    /** One statement (or a line of one). */
    void line(String format, Object... args) {
        body.append("    ".repeat(depth)).append(args.length == 0 ? format : String.format(format, args)).append('\n');
    }

    /** Opens a block after {@code head} (e.g. {@code for (...)}), or a bare block when empty. */
    void open(String format, Object... args) {
        String head = args.length == 0 ? format : String.format(format, args);
        line(head.isEmpty() ? "{" : head + " {");
        depth++;
    }

    void close() {
        depth--;
        line("}");
    }

    /** Closes a block with {@code tail} after its brace (e.g. {@code while (false);}). */
    void close(String tail) {
        depth--;
        line("} " + tail);
    }

    /** Runs {@code statement} where {@code guard} holds ({@link #TRUE}: always, {@link #FALSE}: never). */
    void where(String guard, String format, Object... args) {
        if (guard.equals(FALSE)) {
            return;
        }
        String statement = args.length == 0 ? format : String.format(format, args);
        if (guard.equals(TRUE)) {
            line(statement);
        } else {
            line("if (%s) %s", guard, statement);
        }
    }

    /** a && b, folded when either is a constant. */
    String and(String a, String b) {
        if (a.equals(TRUE) || b.equals(FALSE)) {
            return b;
        }
        if (b.equals(TRUE) || a.equals(FALSE)) {
            return a;
        }
        return let("bool", a + " && " + b);
    }

    String or(String a, String b) {
        if (a.equals(FALSE) || b.equals(TRUE)) {
            return b;
        }
        if (b.equals(FALSE) || a.equals(TRUE)) {
            return a;
        }
        return let("bool", a + " || " + b);
    }

    static String not(String a) {
        if (a.equals(TRUE)) {
            return FALSE;
        }
        if (a.equals(FALSE)) {
            return TRUE;
        }
        return a.startsWith("!") ? a.substring(1) : "!" + a;
    }

    String text() {
        return body.toString();
    }
}
