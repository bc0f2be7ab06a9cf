package dev.starling.gpu.pipeline;

import java.util.List;

/**
 * A selection kernel's output, in CUDA C: per tile item, the warp's surviving rows take
 * consecutive places ({@code reservePlace}, one atomic on the global row counter per warp) and
 * write their output values (8 bytes each, and a NULL flag byte). Rows past the capacity are
 * counted but not written, so the host learns how much room a second run needs.
 */
final class RowsOutputSource {
    private final CudaWriter out;
    private final List<StarKernelInput.Output> outputs;

    RowsOutputSource(CudaWriter out, List<StarKernelInput.Output> outputs) {
        this.out = out;
        this.outputs = outputs;
    }

    void write(RowProgramSource rows, String lane) {
        for (int i = 0; i < rows.alive.length; i++) {
            String place = out.let("long long",
                    String.format("reservePlace(%s, (unsigned long long*)acc, %s)", rows.alive[i], lane));
            out.open("if (%s && %s < groups)", rows.alive[i], place);
            for (int o = 0; o < outputs.size(); o++) {
                int r = outputs.get(o).register();
                String isNull = rows.nulls[r][i];
                out.line("out%d[%s] = %s;", o, place, rows.value[r][i]);
                out.line("out%d_nulls[%s] = %s;", o, place, isNull == null ? "0" : isNull + " ? 1 : 0");
            }
            out.close();
        }
    }
}
