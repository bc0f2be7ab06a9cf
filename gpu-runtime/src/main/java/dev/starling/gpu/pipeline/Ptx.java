package dev.starling.gpu.pipeline;

import java.util.List;

/**
 * Writes one PTX kernel: instructions, fresh virtual registers of each kind and unique labels.
 * Registers are declared at the end, when their counts are known; the driver's JIT allocates the
 * machine registers, so every value gets a register of its own.
 */
final class Ptx {
    /** A predicate that is always true, and one always false. */
    static final String TRUE = "%pT";
    static final String FALSE = "%pF";

    private final StringBuilder body = new StringBuilder();
    private int b64;
    private int b32;
    private int preds;
    private int f64;
    private int labels;

    String b64() {
        return "%q" + b64++;
    }

    String b32() {
        return "%w" + b32++;
    }

    String pred() {
        return "%p" + preds++;
    }

    String f64() {
        return "%f" + f64++;
    }

    String label(String what) {
        return "$L_" + what + "_" + labels++;
    }

    /** One instruction; a trailing semicolon is added. */
    void op(String format, Object... args) {
        body.append('\t').append(args.length == 0 ? format : String.format(format, args)).append(";\n");
    }

    /** One instruction run only where {@code guard} holds ({@link #TRUE}: always). */
    void opIf(String guard, String format, Object... args) {
        if (guard.equals(FALSE)) {
            return;
        }
        if (!guard.equals(TRUE)) {
            body.append("\t@").append(guard);
        }
        op(format, args);
    }

    void place(String label) {
        body.append(label).append(":\n");
    }

    /** Emits {@code body} for i = from, from + step, ... while i < limit (64-bit registers; a block-stride loop). */
    void strided(String from, String step, String limit, java.util.function.Consumer<String> body) {
        String i = b64();
        String top = label("loop");
        String done = label("loop_done");
        op("mov.b64 %s, %s", i, from);
        place(top);
        String end = pred();
        op("setp.ge.s64 %s, %s, %s", end, i, limit);
        op("@%s bra %s", end, done);
        body.accept(i);
        op("add.s64 %s, %s, %s", i, i, step);
        op("bra %s", top);
        place(done);
    }

    /** A fresh register holding base + index * width: element {@code index} of an array of {@code width}-byte elements. */
    String address(String base, String index, int width) {
        String a = b64();
        op("mad.lo.s64 %s, %s, %d, %s", a, index, width, base);
        return a;
    }

    /** A fresh predicate a AND b (either may be {@code !p}); constants fold away. */
    String and(String a, String b) {
        if (a.equals(TRUE) || b.equals(FALSE)) {
            return b;
        }
        if (b.equals(TRUE) || a.equals(FALSE)) {
            return a;
        }
        String d = pred();
        op("and.pred %s, %s, %s", d, a, b);
        return d;
    }

    String or(String a, String b) {
        if (a.equals(FALSE) || b.equals(TRUE)) {
            return b;
        }
        if (b.equals(FALSE) || a.equals(TRUE)) {
            return a;
        }
        String d = pred();
        op("or.pred %s, %s, %s", d, a, b);
        return d;
    }

    /** The negation of a predicate operand, written as PTX's {@code !p}. */
    static String not(String a) {
        if (a.equals(TRUE)) {
            return FALSE;
        }
        if (a.equals(FALSE)) {
            return TRUE;
        }
        return a.startsWith("!") ? a.substring(1) : "!" + a;
    }

    /** A predicate register holding {@code a}, for instructions that take no negated operand. */
    String plain(String a) {
        if (!a.startsWith("!")) {
            return a;
        }
        String d = pred();
        op("not.pred %s, %s", d, a.substring(1));
        return d;
    }

    /** The module text: one entry {@code name} taking 64-bit {@code params}, with dynamic shared memory {@code shared}. */
    String module(String name, List<String> params, String shared) {
        StringBuilder out = new StringBuilder(body.length() + 1024);
        out.append(".version 7.0\n.target sm_80\n.address_size 64\n\n");
        out.append(".extern .shared .align 16 .b8 ").append(shared).append("[];\n\n");
        out.append(".visible .entry ").append(name).append("(\n");
        for (int i = 0; i < params.size(); i++) {
            out.append("\t.param .u64 ").append(params.get(i)).append(i + 1 < params.size() ? ",\n" : "\n");
        }
        out.append(")\n{\n");
        out.append("\t.reg .pred %pT, %pF;\n");
        declare(out, ".b64", "%q", b64);
        declare(out, ".b32", "%w", b32);
        declare(out, ".pred", "%p", preds);
        declare(out, ".f64", "%f", f64);
        out.append("\tsetp.eq.u32 %pT, 0, 0;\n\tsetp.ne.u32 %pF, 0, 0;\n");
        out.append(body).append("}\n");
        return out.toString();
    }

    private static void declare(StringBuilder out, String type, String prefix, int count) {
        if (count > 0) {
            out.append("\t.reg ").append(type).append(' ').append(prefix).append('<').append(count).append(">;\n");
        }
    }
}
