package dev.starling.gpu.pipeline;

import java.util.List;

/**
 * A kernel's output rows, in CUDA C. A selection's: per tile item, the warp's surviving rows take
 * consecutive places ({@code reservePlace}, one atomic on the global row counter per warp) and
 * write their output values (8 bytes each, and a NULL flag byte); rows past the capacity are
 * counted but not written, so the host learns how much room a second run needs. Under an order
 * that cuts them, only rows whose order key reaches the threshold survive; the pass before writes
 * every surviving row's key alone, at its row's index, for the host to find the threshold. A
 * dimension built on the GPU's: each surviving row at its own index.
 */
final class RowsOutputSource {
    private final CudaWriter out;
    private final List<StarKernelInput.Output> outputs;

    RowsOutputSource(CudaWriter out, List<StarKernelInput.Output> outputs) {
        this.out = out;
        this.outputs = outputs;
    }

    /** {@code order}: the order whose threshold a row's key must reach to be written (null: every surviving row is). */
    void write(RowProgramSource rows, String lane, StarKernelInput.OrderCut order) {
        for (int i = 0; i < rows.alive.length; i++) {
            String kept = order == null ? rows.alive[i]
                    : out.let("const bool", rows.alive[i] + " && " + key(rows, i, order) + " >= order_threshold");
            String place = out.let("long long",
                    String.format("reservePlace(%s, (unsigned long long*)acc, %s)", kept, lane));
            out.open("if (%s && %s < groups)", kept, place);
            writeOutputs(rows, i, place);
            out.close();
        }
    }

    /** The pass before a cut: each surviving row's order key, at its own row index of the one output. */
    void writeOrderKeys(RowProgramSource rows, StarKernelInput.OrderCut order) {
        for (int i = 0; i < rows.alive.length; i++) {
            out.line("if (%s) out0[%s] = (int64_t)%s;", rows.alive[i], rows.row[i], key(rows, i, order));
        }
    }

    private static String key(RowProgramSource rows, int i, StarKernelInput.OrderCut order) {
        return String.format("orderKey((uint64_t)%s, %s, %s)", rows.value[order.register()][i], order.descending(),
                order.floating());
    }

    /**
     * A dimension built on the GPU: each item's row, if it passed, writes its outputs and its group
     * contribution (its row index, or the digit the program computed, times the multiplier) at its
     * own index; the host set every contribution to -1 before, so a row that failed reads as missing.
     * A marking build's row writes at the code it points to instead: 0, present, unless every code
     * is (rows pointing at one code write the same, so their races are harmless), and it folds its
     * outputs there with atomics.
     */
    void writeByRow(RowProgramSource rows, StarKernelInput.RowWrites writes) {
        for (int i = 0; i < rows.alive.length; i++) {
            if (writes.at() >= 0) {
                mark(rows, writes, i);
                continue;
            }
            out.open("if (%s)", rows.alive[i]);
            String digit = writes.digit() < 0 ? rows.row[i] : rows.value[writes.digit()][i];
            if (writes.digit() >= 0) {
                out.line("if ((unsigned long long)%s >= (unsigned long long)digit_radix) status |= %s;", digit,
                        KernelStatus.BAD_CODE.macro());
            }
            out.line("contributions[%s] = (%s)(%s * contribution_multiplier);", rows.row[i],
                    writes.wide() ? "int64_t" : "int32_t", digit);
            writeOutputs(rows, i, rows.row[i]);
            out.close();
        }
    }

    private void mark(RowProgramSource rows, StarKernelInput.RowWrites writes, int i) {
        String code = rows.value[writes.at()][i];
        String isNull = rows.nulls[writes.at()][i];
        out.open("if (%s)", isNull == null ? rows.alive[i] : rows.alive[i] + " && !" + isNull);
        out.open("if ((unsigned long long)%s < (unsigned long long)contribution_positions)", code);
        if (writes.marked()) {
            out.line("contributions[%s] = 0;", code);
        }
        for (int o = 0; o < writes.folds().size(); o++) {
            StarKernelInput.Output output = outputs.get(o);
            String value = rows.value[output.register()][i];
            String valueNull = rows.nulls[output.register()][i];
            out.line("%s%s;", valueNull == null ? "" : "if (!" + valueNull + ") ",
                    fold(writes.folds().get(o), "out" + o + "[" + code + "]", output.width(), value));
        }
        out.close();
        out.line("else status |= %s;", KernelStatus.BAD_CODE.macro());
        out.close();
    }

    /** The atomic that folds {@code value} by {@code fold} into the {@code width}-byte word {@code at}. */
    private static String fold(AggKind fold, String at, int width, String value) {
        String word = width == 8 ? "long long" : "int";
        return switch (fold) {
            case MIN_I, MAX_I -> String.format("%s((%s*)&%s, (%s)%s)", fold == AggKind.MIN_I ? "atomicMin" : "atomicMax",
                    word, at, word, value);
            case COUNT -> String.format("foldCount((uint64_t*)&%s, 1)", at);
            case SUM_I -> String.format("atomicAdd((unsigned long long*)&%s, (unsigned long long)%s)", at, value);
            default -> throw new IllegalStateException("a dimension's " + fold);
        };
    }

    private void writeOutputs(RowProgramSource rows, int i, String place) {
        for (int o = 0; o < outputs.size(); o++) {
            StarKernelInput.Output output = outputs.get(o);
            String isNull = rows.nulls[output.register()][i];
            out.line("out%d[%s] = %s;", o, place, rows.value[output.register()][i]);
            if (output.nulls() != 0) {
                out.line("out%d_nulls[%s] = %s;", o, place, isNull == null ? "0" : isNull + " ? 1 : 0");
            }
        }
    }
}
